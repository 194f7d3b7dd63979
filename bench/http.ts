/**
 * `npm run bench:http`: the h3 host's cheapest public JSON read next to a bare node:http server
 * answering the same bytes, and a one-route h3 app answering them too, each loaded with autocannon
 * on 127.0.0.1, then an authenticated read (bearer check plus store reads) over HTTP next to the
 * same call in-process. Prints req/s, p99 latency and the ratios. Target: Cairn reaches at least
 * 90% of the one-route h3 app.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import { AUTHENTICATED_PATH, cairnWithBearer } from './authenticated-read.js'

const BENCH_PATH = '/releases/v129.0.0'
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)

async function startServer(kind: 'cairn' | 'cairn-bearer' | 'bare' | 'h3'): Promise<{ url: string; child: ChildProcess; token?: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./http-server.ts', import.meta.url).pathname, kind], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const url = (await lines.next()).value as string
  const token = kind === 'cairn-bearer' ? ((await lines.next()).value as string) : undefined
  return { url, child, ...(token ? { token } : {}) }
}

async function load(url: string, headers: Record<string, string> = {}): Promise<{ requestsPerSecond: number; p99: number; errors: number }> {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 2 }) // warm-up: JIT and sockets
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_SECONDS })
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

// The authenticated read: over HTTP (bearer header, one process) and the same call in-process.
const bearerServer = await startServer('cairn-bearer')
try {
  figures.bearerHttp = await load(`${bearerServer.url}${AUTHENTICATED_PATH}`, { authorization: `Bearer ${bearerServer.token}` })
} finally {
  bearerServer.child.kill('SIGTERM')
}
figures.bearerInProcess = await inProcess()

/** `cairn.call('getUserinfo')` from CONNECTIONS concurrent loops for the same duration: the HTTP layer removed. */
async function inProcess(): Promise<{ requestsPerSecond: number; p99: number; errors: number }> {
  const { cairn, token } = await cairnWithBearer('http://127.0.0.1')
  const latencies: number[] = []
  let errors = 0
  const runFor = async (ms: number, record: boolean) => {
    const end = performance.now() + ms
    await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const started = performance.now()
        const answer = await cairn.call('getUserinfo', { credentials: { bearerToken: token } })
        if (!record) continue
        latencies.push(performance.now() - started)
        if (answer._tag === 'Left') errors++
      }
    }))
  }
  await runFor(2000, false)
  await runFor(DURATION_SECONDS * 1000, true)
  await cairn.close()
  latencies.sort((a, b) => a - b)
  return { requestsPerSecond: latencies.length / DURATION_SECONDS, p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0, errors }
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
console.log(`cairn / node:http: ${(ratio * 100).toFixed(1)}%`)
const hostRatio = cairn.requestsPerSecond / h3.requestsPerSecond
console.log(`target cairn ≥ 0.9 × h3 alone: ${hostRatio >= 0.9 ? 'MET' : 'NOT MET'}`)
console.log('')
console.log(`Authenticated read: GET ${AUTHENTICATED_PATH} (bearer verification + grant and identity reads), ${CONNECTIONS} concurrent`)
console.log('path                   req/s     p99 ms   errors')
for (const [name, f] of [['over HTTP', figures.bearerHttp!], ['in-process call', figures.bearerInProcess!]] as const) {
  console.log(`${name.padEnd(20)} ${f.requestsPerSecond.toFixed(0).padStart(7)} ${f.p99.toFixed(1).padStart(9)} ${String(f.errors).padStart(8)}`)
}
console.log(`HTTP / in-process: ${((figures.bearerHttp!.requestsPerSecond / figures.bearerInProcess!.requestsPerSecond) * 100).toFixed(1)}%`)
