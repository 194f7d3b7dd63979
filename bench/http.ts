/**
 * `npm run bench:http`: the h3 host's cheapest public JSON read next to a bare node:http server
 * answering the same bytes, and a one-route h3 app answering them too, each loaded with autocannon
 * on 127.0.0.1. Prints req/s, p99 latency and the ratios. Target: Cairn reaches at least 80% of
 * bare node:http.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'

const BENCH_PATH = '/releases/v129.0.0'
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)

async function startServer(kind: 'cairn' | 'bare' | 'h3'): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./http-server.ts', import.meta.url).pathname, kind], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout! })
  const [url] = (await once(lines, 'line')) as [string]
  return { url, child }
}

async function load(url: string): Promise<{ requestsPerSecond: number; p99: number; errors: number }> {
  await autocannon({ url, connections: CONNECTIONS, duration: 2 }) // warm-up: JIT and sockets
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS })
  return { requestsPerSecond: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx }
}

const figures: Record<string, { requestsPerSecond: number; p99: number; errors: number }> = {}
for (const kind of ['bare', 'h3', 'cairn'] as const) {
  const { url, child } = await startServer(kind)
  try {
    figures[kind] = await load(`${url}${BENCH_PATH}`)
  } finally {
    child.kill('SIGTERM')
  }
}

const bare = figures.bare!
const h3 = figures.h3!
const cairn = figures.cairn!
const ratio = cairn.requestsPerSecond / bare.requestsPerSecond
console.log(`GET ${BENCH_PATH}, ${CONNECTIONS} connections, ${DURATION_SECONDS}s each, on 127.0.0.1`)
console.log('server                 req/s     p99 ms   errors')
for (const [name, f] of [['node:http', bare], ['h3, one route', h3], ['cairn (h3 host)', cairn]] as const) {
  console.log(`${name.padEnd(20)} ${f.requestsPerSecond.toFixed(0).padStart(7)} ${f.p99.toFixed(1).padStart(9)} ${String(f.errors).padStart(8)}`)
}
console.log(`h3 alone / node:http: ${((h3.requestsPerSecond / bare.requestsPerSecond) * 100).toFixed(1)}% (the framework's ceiling here)`)
console.log(`cairn / h3 alone: ${((cairn.requestsPerSecond / h3.requestsPerSecond) * 100).toFixed(1)}%`)
console.log(`cairn / node:http: ${(ratio * 100).toFixed(1)}% (target ≥ 80%) ${ratio >= 0.8 ? 'MET' : 'NOT MET'}`)
