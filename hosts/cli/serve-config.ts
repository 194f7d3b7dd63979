/**
 * `cairn serve` configuration from flags and environment (flags win):
 *
 * | flag | environment | default |
 * |---|---|---|
 * | --host | HOST | 127.0.0.1 |
 * | --port | PORT | 8787 |
 * | --base-url | CAIRN_BASE_URL | http://HOST:PORT |
 * | --store | CAIRN_STORE | sqlite with a data dir, else memory |
 * | --blobs | CAIRN_BLOBS | fs with a data dir, else memory |
 * | --data-dir | CAIRN_DATA_DIR | none (everything in memory) |
 * | --key-file | CAIRN_KEY_FILE | <data dir>/keys.json with a data dir (in the store with MongoDB or PostgreSQL) |
 * | — | CAIRN_KEY_ENCRYPTION_KEY | none (keys kept in a store are not encrypted) |
 * | — | CAIRN_KEY_ROTATION_DAYS | 30 (0: token keys rotate only when asked) |
 * | --config | CAIRN_CONFIG | none (no OAuth clients, no Business accounts) |
 * | --headers-timeout-ms | CAIRN_HEADERS_TIMEOUT_MS | 10000 |
 * | --request-timeout-ms | CAIRN_REQUEST_TIMEOUT_MS | 60000 |
 * | --keep-alive-timeout-ms | CAIRN_KEEP_ALIVE_TIMEOUT_MS | 5000 |
 * | --max-connections | CAIRN_MAX_CONNECTIONS | 1024 |
 * | --max-in-flight-bytes | CAIRN_MAX_IN_FLIGHT_BYTES | 67108864 (64 MiB) |
 * | --metrics-port | CAIRN_METRICS_PORT | none (metrics off) |
 */
import { parseArgs } from 'node:util'
import type { StorageSettings } from '../library/select-adapters.js'
import type { ServerLimits } from '../http/start-http-server.js'

export interface ServeConfig {
  readonly host: string
  readonly port: number
  readonly baseUrl: string
  /** Whether the base URL was given (flag or environment) rather than derived from host and port. */
  readonly baseUrlGiven: boolean
  readonly storage: StorageSettings
  /** Path of the deployment configuration JSON file. */
  readonly configFile?: string
  /** Socket limits given on the command line or in the environment (defaults otherwise). */
  readonly serverLimits?: Partial<ServerLimits>
  /** Body bytes in flight across all requests, when given. */
  readonly inFlightBytes?: number
  /** Port of the separate Prometheus `/metrics` listener (same host); metrics are off without it. */
  readonly metricsPort?: number
}

/** Transport settings: flag, environment variable, and the ServerLimits member each sets. */
const TRANSPORT_SETTINGS = [
  ['headers-timeout-ms', 'CAIRN_HEADERS_TIMEOUT_MS', 'headersTimeoutMs'],
  ['request-timeout-ms', 'CAIRN_REQUEST_TIMEOUT_MS', 'requestTimeoutMs'],
  ['keep-alive-timeout-ms', 'CAIRN_KEEP_ALIVE_TIMEOUT_MS', 'keepAliveTimeoutMs'],
  ['max-connections', 'CAIRN_MAX_CONNECTIONS', 'maxConnections'],
] as const

export const DEFAULT_HOST = '127.0.0.1'
export const DEFAULT_PORT = 8787

type Env = Readonly<Record<string, string | undefined>>

/** Throws an Error with a plain sentence on bad configuration. */
export function readServeConfig(args: readonly string[], env: Env): ServeConfig {
  const { values } = parseArgs({
    args: [...args],
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'base-url': { type: 'string' },
      store: { type: 'string' },
      blobs: { type: 'string' },
      'data-dir': { type: 'string' },
      'key-file': { type: 'string' },
      config: { type: 'string' },
      'headers-timeout-ms': { type: 'string' },
      'request-timeout-ms': { type: 'string' },
      'keep-alive-timeout-ms': { type: 'string' },
      'max-connections': { type: 'string' },
      'max-in-flight-bytes': { type: 'string' },
      'metrics-port': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  })
  const host = values.host ?? env.HOST ?? DEFAULT_HOST
  const portText = values.port ?? env.PORT ?? String(DEFAULT_PORT)
  const port = Number(portText)
  if (!/^[0-9]+$/.test(portText) || port > 65535) throw new Error(`Port must be a number from 0 to 65535, not "${portText}"`)
  const givenBaseUrl = values['base-url'] ?? nonEmpty(env.CAIRN_BASE_URL)
  const baseUrl = givenBaseUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) throw new Error(`The base URL must be an http(s) URL, not "${baseUrl}"`)
  const pick = (flag: string | undefined, name: string) => flag ?? nonEmpty(env[name])
  const storage: StorageSettings = withoutUndefined({
    store: pick(values.store, 'CAIRN_STORE'),
    blobs: pick(values.blobs, 'CAIRN_BLOBS'),
    dataDir: pick(values['data-dir'], 'CAIRN_DATA_DIR'),
    keyFile: pick(values['key-file'], 'CAIRN_KEY_FILE'),
    keyEncryptionKey: nonEmpty(env.CAIRN_KEY_ENCRYPTION_KEY),
    keyRotationDays: rotationDays(nonEmpty(env.CAIRN_KEY_ROTATION_DAYS)),
  })
  const configFile = pick(values.config, 'CAIRN_CONFIG')
  const serverLimits: Partial<Record<keyof ServerLimits, number>> = {}
  for (const [flag, name, member] of TRANSPORT_SETTINGS) {
    const text = pick(values[flag], name)
    if (text !== undefined) serverLimits[member] = positiveInteger(`--${flag}`, text)
  }
  const inFlightText = pick(values['max-in-flight-bytes'], 'CAIRN_MAX_IN_FLIGHT_BYTES')
  const metricsPortText = pick(values['metrics-port'], 'CAIRN_METRICS_PORT')
  if (metricsPortText !== undefined && (!/^[0-9]+$/.test(metricsPortText) || Number(metricsPortText) > 65535)) {
    throw new Error(`The metrics port must be a number from 0 to 65535, not "${metricsPortText.slice(0, 32)}"`)
  }
  return {
    host,
    port,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    baseUrlGiven: givenBaseUrl !== undefined,
    storage,
    ...(configFile ? { configFile } : {}),
    ...(Object.keys(serverLimits).length > 0 ? { serverLimits } : {}),
    ...(inFlightText !== undefined ? { inFlightBytes: positiveInteger('--max-in-flight-bytes', inFlightText) } : {}),
    ...(metricsPortText !== undefined ? { metricsPort: Number(metricsPortText) } : {}),
  }
}

function positiveInteger(flag: string, text: string): number {
  const value = Number(text)
  if (!/^[0-9]+$/.test(text) || value < 1 || !Number.isSafeInteger(value)) throw new Error(`${flag} must be a whole number of at least 1, not "${text.slice(0, 32)}"`)
  return value
}

function rotationDays(text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  if (!/^[0-9]+(\.[0-9]+)?$/.test(text)) throw new Error(`CAIRN_KEY_ROTATION_DAYS must be a number of days (0: never), not "${text}"`)
  return Number(text)
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
}
