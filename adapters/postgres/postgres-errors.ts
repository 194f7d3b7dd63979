/**
 * Reading `pg` errors at the adapter boundary: which SQLSTATEs are a lost race to retry (40001
 * serialization failure, 40P01 deadlock), which one is a unique index refusing a write (23505),
 * which mean the connection broke (so a COMMIT in flight has an unknown outcome), and the rest:
 * the database cannot serve the port now, PortUnavailableError (503). Messages never carry the
 * connection string: `pg` errors name hosts and SQLSTATEs, not passwords.
 */
import { MissingPackageError } from '../shared/optional-package.js'
import { isDatabaseError } from './pg-driver.js'
import { PortUnavailableError } from '../../ports/errors.js'

/** SQLSTATE 40001 serialization_failure and 40P01 deadlock_detected: nothing was written; run the transaction again. */
export function isRetryableConflict(error: unknown): boolean {
  return isDatabaseError(error) && (error.code === '40001' || error.code === '40P01')
}

/** SQLSTATE 23505: a unique index refused the write; `constraint` names the index. */
export function uniqueViolationIndex(error: unknown): string | undefined {
  return isDatabaseError(error) && error.code === '23505' ? (error.constraint ?? '') : undefined
}

/**
 * True when the server answered the statement (with an error): the session and its transaction are
 * still as the server says. False when the connection failed or the server went away mid-statement
 * (a shutdown, a crash, the network): then a COMMIT may or may not have been applied.
 */
export function isServerAnswer(error: unknown): boolean {
  if (!(isDatabaseError(error))) return false
  // 57P01-57P03: admin shutdown, crash shutdown, cannot connect now; 08xxx: connection exceptions.
  return !(error.code?.startsWith('57P') || error.code?.startsWith('08'))
}

/** Node's socket errors: the connection to the server failed, not the statement. */
const SOCKET_ERRORS = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH'])

/**
 * True when the connection broke (the server shut down or crashed, the socket failed), as opposed to
 * a statement refused or a bug: before COMMIT was sent, such a transaction wrote nothing.
 */
export function isConnectionFailure(error: unknown): boolean {
  if (isDatabaseError(error)) return !isServerAnswer(error)
  if (!(error instanceof Error)) return false
  const code = (error as NodeJS.ErrnoException).code
  return (code !== undefined && SOCKET_ERRORS.has(code)) || /Connection terminated|connection error|not queryable/i.test(error.message)
}

/** `error` as the port reports it: database and connection failures become PortUnavailableError, others pass through. */
export function toPortError(port: string, error: unknown): unknown {
  if (error instanceof PortUnavailableError || error instanceof RangeError || error instanceof TypeError) return error
  if (error instanceof MissingPackageError) return new PortUnavailableError(port, error.message, { cause: error })
  if (isDatabaseError(error)) {
    return new PortUnavailableError(port, `PostgreSQL refused (${error.code}): ${error.message}`, { cause: error })
  }
  if (error instanceof Error) return new PortUnavailableError(port, `PostgreSQL is unavailable: ${error.message}`, { cause: error })
  return error
}

/** Run `operation`, translating driver failures into port errors. */
export async function translatingPgErrors<T>(port: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation()
  } catch (error) {
    throw toPortError(port, error)
  }
}
