/**
 * Test support: a receiver on 127.0.0.1 that reads the request, then trickles its answer one byte
 * every `everyMs` and never finishes — the slow peer an idle timeout never cuts off: its headers
 * never end, or with `statusFirst` its headers arrive whole and its body never ends.
 */
import { createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

export interface TricklingReceiver {
  readonly url: string
  readonly server: Server
  /** Requests it accepted. */
  readonly requests: () => number
  /** Connections still open: the sender has not cut them off yet. */
  readonly openConnections: () => number
  close(): Promise<void>
}

export async function startTricklingReceiver(options: { everyMs?: number; statusFirst?: boolean; port?: number } = {}): Promise<TricklingReceiver> {
  const sockets = new Set<Socket>()
  let requests = 0
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => undefined)
    socket.once('data', () => {
      requests += 1
      // Either the headers never end (one more byte of a header value at a time) or the body never does.
      socket.write(options.statusFirst ? 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n' : 'HTTP/1.1 200 OK\r\nx-slow: ')
      const timer = setInterval(() => socket.write(options.statusFirst ? '1\r\nx\r\n' : 'a'), options.everyMs ?? 50)
      socket.on('close', () => {
        clearInterval(timer)
        sockets.delete(socket)
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    server,
    requests: () => requests,
    openConnections: () => sockets.size,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
