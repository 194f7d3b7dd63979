/** Listen with a plain `node:http` server and close cleanly (in-flight requests finish first). */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { answerClientError } from './client-error.js'

export interface RunningServer {
  /** e.g. `http://127.0.0.1:8787` */
  readonly url: string
  readonly port: number
  /** The node:http server (for upgrades: `cairn.attachWebSocket(running.server)`). */
  readonly server: Server
  close(): Promise<void>
}

/**
 * Socket limits of a public server (docs/decisions.md: transport timeouts). Node's own defaults
 * check stalled sockets only every 30 s and cap nothing.
 */
export interface ServerLimits {
  /** Time to receive the request headers. @default 10 s */
  readonly headersTimeoutMs: number
  /** Time to receive the whole request, body included. @default 60 s */
  readonly requestTimeoutMs: number
  /** Idle time a kept-alive connection waits for its next request. @default 5 s */
  readonly keepAliveTimeoutMs: number
  /** Open connections at most; more are closed at once. @default 1024 */
  readonly maxConnections: number
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000, maxConnections: 1024 }

/**
 * @example const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
 */
export async function startHttpServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
  options: { host: string; port: number; limits?: Partial<ServerLimits> },
): Promise<RunningServer> {
  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits }
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Timeouts are enforced when connections are checked; check often enough to keep them.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4))),
    },
    (req, res) => void handler(req, res),
  )
  server.maxConnections = limits.maxConnections
  server.on('clientError', answerClientError)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeIdleConnections()
      }),
  }
}
