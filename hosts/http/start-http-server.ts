/** Listen with a plain `node:http` server and close cleanly (in-flight requests finish first). */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RunningServer {
  /** e.g. `http://127.0.0.1:8787` */
  readonly url: string
  readonly port: number
  close(): Promise<void>
}

/**
 * @example const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
 */
export async function startHttpServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
  options: { host: string; port: number },
): Promise<RunningServer> {
  const server = createServer((req, res) => void handler(req, res))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeIdleConnections()
      }),
  }
}
