/**
 * A server for the upload benchmark, in its own process so its RSS is its own: `cairn` is the
 * h3 host with its defaults; `buffering` a bare node:http server that reads every body whole
 * before refusing it (what Cairn did before credentials were checked first). `GET /__rss` answers
 * the process's resident set size in bytes (`?gc=1` collects garbage first). Prints its URL.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startHttpServer } from '../hosts/http/start-http-server.js'
import { createCairn } from '../hosts/library/create-cairn.js'

const rss = (req: IncomingMessage, res: ServerResponse): boolean => {
  if (!req.url?.startsWith('/__rss')) return false
  if (req.url.includes('gc=1')) (globalThis as { gc?: () => void }).gc?.()
  res.end(String(process.memoryUsage().rss))
  return true
}

const kind = process.argv[2]
if (kind === 'cairn') {
  const cairn = createCairn({ baseUrl: 'http://127.0.0.1', logError: () => {} })
  const server = await startHttpServer((req, res) => (rss(req, res) ? undefined : cairn.nodeHandler(req, res)), { host: '127.0.0.1', port: 0 })
  console.log(server.url)
} else if (kind === 'buffering') {
  const server = createServer((req, res) => {
    if (rss(req, res)) return
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks) // held while "parsing", as a buffering host does
      setTimeout(() => res.writeHead(401, { 'content-type': 'application/json' }).end(`{"ok":false,"error":"${body.length}"}`), 50)
    })
  })
  server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))
} else {
  console.error('usage: tsx bench/upload-server.ts cairn|buffering')
  process.exit(2)
}
