/**
 * A server for the HTTP benchmark, in its own process so the load generator does not share its
 * event loop: `cairn` is the h3 host, `bare` a plain node:http server answering the same bytes,
 * `h3` a one-route h3 app answering them too (the framework's own ceiling on this machine).
 * Prints its URL on the first line of stdout; answers each line on its stdin with its own CPU time
 * so far (user + system, µs), which the benchmark reads before and after a load.
 */
import { createServer } from 'node:http'
import { H3, HTTPResponse, toNodeHandler } from 'h3'
import type { AddressInfo } from 'node:net'
import { createInterface } from 'node:readline'
import { startHttpServer } from '../hosts/http/start-http-server.js'
import { createCairn } from '../hosts/library/create-cairn.js'
import { cairnWithBearer } from './authenticated-read.js'

export const BENCH_PATH = '/releases/v129.0.0'

const kind = process.argv[2]
if (kind === 'cairn') {
  const cairn = createCairn({ baseUrl: 'http://127.0.0.1' })
  const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
  console.log(server.url)
} else if (kind === 'cairn-bearer') {
  // Prints the URL, then the bearer token the load generator sends.
  const { cairn, token } = await cairnWithBearer('http://127.0.0.1')
  const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
  console.log(server.url)
  console.log(token)
} else if (kind === 'bare' || kind === 'h3') {
  // The exact bytes and headers Cairn answers, computed once.
  const reference = await createCairn({ baseUrl: 'http://127.0.0.1' }).fetch(new Request(`http://127.0.0.1${BENCH_PATH}`))
  const body = Buffer.from(await reference.arrayBuffer())
  const headers = { 'content-type': reference.headers.get('content-type') ?? 'application/json', 'content-length': String(body.length) }
  const server =
    kind === 'bare'
      ? createServer((req, res) => {
          if (req.url === BENCH_PATH) res.writeHead(200, headers).end(body)
          else res.writeHead(404).end()
        })
      : createServer(toNodeHandler(new H3().get(BENCH_PATH, () => new HTTPResponse(body as BodyInit, { status: 200, headers }))))
  server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))
} else {
  console.error('usage: tsx bench/http-server.ts cairn|cairn-bearer|bare|h3')
  process.exit(2)
}

createInterface({ input: process.stdin }).on('line', () => {
  const { user, system } = process.cpuUsage()
  console.log(String(user + system))
})
