/** A raw HTTP/1.1 exchange over node:net, for requests no well-behaved client would send. */
import { connect } from 'node:net'

export interface RawAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** The server closed the connection (rather than the test giving up). */
  readonly closed: boolean
  readonly elapsedMs: number
}

/**
 * Writes `parts` in order (`pauseMs` between them), then waits until the server closes the
 * connection or `waitMs` passes, and parses the first response.
 */
export function rawExchange(port: number, parts: readonly (string | Buffer)[], options: { pauseMs?: number; waitMs?: number } = {}): Promise<RawAnswer> {
  const started = Date.now()
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    const received: Buffer[] = []
    let closed = false
    const finish = () => {
      clearTimeout(timer)
      socket.destroy()
      resolve({ ...parseResponse(Buffer.concat(received).toString('latin1')), closed, elapsedMs: Date.now() - started })
    }
    const timer = setTimeout(finish, options.waitMs ?? 3000)
    socket.on('data', (chunk) => received.push(chunk))
    socket.on('error', () => {}) // the server may close while the test still writes (EPIPE, ECONNRESET)
    socket.on('close', () => {
      closed = true
      finish()
    })
    socket.on('connect', async () => {
      for (const part of parts) {
        if (socket.destroyed) return
        socket.write(part)
        if (options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs))
      }
    })
  })
}

function parseResponse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const end = text.indexOf('\r\n\r\n')
  if (end === -1) return { status: 0, headers: {}, body: '' }
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const at = line.indexOf(':')
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim()
  }
  let body = text.slice(end + 4)
  if (headers['content-length'] !== undefined) body = body.slice(0, Number(headers['content-length']))
  return { status: Number(statusLine!.split(' ')[1]), headers, body }
}
