/**
 * Structured logs: one JSON object a line (pino), each line about a request carrying its
 * `requestId` — the caller's `X-Request-Id` when it is a short printable token, else a fresh UUID —
 * which the refused response echoes in `X-Request-Id`, so an operator can find the line a user quotes.
 */
import { randomUUID } from 'node:crypto'
import { pino, type Logger, type LoggerOptions, type DestinationStream } from 'pino'

export type { Logger }

/** What Cairn calls on a logger; a pino logger is one. */
export interface CairnLogger {
  info(fields: object, message: string): void
  warn(fields: object, message: string): void
  error(fields: object, message: string): void
}

/**
 * @example const logger = createLogger() // JSON lines on stdout, level info
 * @example const logger = createLogger({ level: 'warn' }, pino.destination(2)) // to stderr
 */
export function createLogger(options: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const settings: LoggerOptions = { name: 'cairn', level: process.env.CAIRN_LOG_LEVEL ?? 'info', ...options }
  return destination ? pino(settings, destination) : pino(settings)
}

const ACCEPTABLE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/

/** The caller's request id when it is a short printable token, else a fresh one. */
export function requestIdOf(headers: Headers): string {
  const given = headers.get('x-request-id')
  return given !== null && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID()
}
