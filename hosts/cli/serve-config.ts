/**
 * `cairn serve` configuration from flags and environment (flags win):
 * --host/HOST (127.0.0.1), --port/PORT (8787), --base-url/CAIRN_BASE_URL (http://HOST:PORT).
 */
import { parseArgs } from 'node:util'

export interface ServeConfig {
  readonly host: string
  readonly port: number
  readonly baseUrl: string
}

export const DEFAULT_HOST = '127.0.0.1'
export const DEFAULT_PORT = 8787

/** Throws an Error with a plain sentence on bad configuration. */
export function readServeConfig(args: readonly string[], env: Readonly<Record<string, string | undefined>>): ServeConfig {
  const { values } = parseArgs({
    args: [...args],
    options: { host: { type: 'string' }, port: { type: 'string' }, 'base-url': { type: 'string' } },
    strict: true,
    allowPositionals: false,
  })
  const host = values.host ?? env.HOST ?? DEFAULT_HOST
  const portText = values.port ?? env.PORT ?? String(DEFAULT_PORT)
  const port = Number(portText)
  if (!/^[0-9]+$/.test(portText) || port > 65535) throw new Error(`Port must be a number from 0 to 65535, not "${portText}"`)
  const baseUrl = values['base-url'] ?? env.CAIRN_BASE_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) throw new Error(`The base URL must be an http(s) URL, not "${baseUrl}"`)
  return { host, port, baseUrl: baseUrl.replace(/\/+$/, '') }
}
