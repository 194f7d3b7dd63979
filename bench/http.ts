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
/** Rounds of the three servers, each round in another order: a shared VM's speed drifts by more than the gap measured. */
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 3)

interface Server {
  readonly url: string
  readonly child: ChildProcess
  readonly token?: string
  /** The server process's own CPU time so far, in µs (it answers a line on its stdin). */
  cpuMicros(): Promise<number>
}

async function startServer(kind: 'cairn' | 'cairn-bearer' | 'bare' | 'h3'): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./http-server.ts', import.meta.url).pathname, kind], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const url = (await lines.next()).value as string
  const token = kind === 'cairn-bearer' ? ((await lines.next()).value as string) : undefined
  const cpuMicros = async () => {
    child.stdin!.write('cpu\n')
    return Number((await lines.next()).value)
  }
  return { url, child, cpuMicros, ...(token ? { token } : {}) }
}

interface Figures { readonly requestsPerSecond: number; readonly p99: number; readonly errors: number; readonly cpuMicrosPerRequest?: number }

async function load(server: Server, path: string, headers: Record<string, string> = {}): Promise<Figures> {
  const url = `${server.url}${path}`
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 2 }) // warm-up: JIT and sockets
  const cpuBefore = await server.cpuMicros()
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_SECONDS })
  const cpuMicrosPerRequest = (await server.cpuMicros() - cpuBefore) / Math.max(1, result.requests.total)
  return { requestsPerSecond: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx, cpuMicrosPerRequest }
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const KINDS = ['bare', 'h3', 'cairn'] as const
const rounds: Record<(typeof KINDS)[number], Figures>[] = []
for (let round = 0; round < ROUNDS; round++) {
  const figuresOfRound = {} as Record<(typeof KINDS)[number], Figures>
  // Round r starts with the r-th server: each server runs first, second and last equally often.
  for (const kind of KINDS.map((_, i) => KINDS[(i + round) % KINDS.length]!)) {
    const server = await startServer(kind)
    try {
      figuresOfRound[kind] = await load(server, BENCH_PATH)
    } finally {
      server.child.kill('SIGTERM')
    }
  }
  rounds.push(figuresOfRound)
}

// The authenticated read: over HTTP (bearer header, one process) and the same call in-process.
const bearerServer = await startServer('cairn-bearer')
let bearerHttp: Figures
try {
  bearerHttp = await load(bearerServer, AUTHENTICATED_PATH, { authorization: `Bearer ${bearerServer.token}` })
} finally {
  bearerServer.child.kill('SIGTERM')
}
const bearerInProcess = await inProcess()

/** `cairn.call('getUserinfo')` from CONNECTIONS concurrent loops for the same duration: the HTTP layer removed. */
async function inProcess(): Promise<Figures> {
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

const medianOf = (kind: (typeof KINDS)[number]): Figures => ({
  requestsPerSecond: median(rounds.map((r) => r[kind].requestsPerSecond)),
  p99: median(rounds.map((r) => r[kind].p99)),
  errors: rounds.reduce((sum, r) => sum + r[kind].errors, 0),
  cpuMicrosPerRequest: median(rounds.map((r) => r[kind].cpuMicrosPerRequest!)),
})
const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`
/** Each round's own ratio (the two servers measured minutes apart at most), then the median of the rounds. */
const ratioOfRounds = (of: (r: (typeof rounds)[number]) => number) => median(rounds.map(of))

console.log(`GET ${BENCH_PATH}, ${CONNECTIONS} connections, ${DURATION_SECONDS}s each, ${ROUNDS} rounds in rotating order, on 127.0.0.1; medians of the rounds`)
console.log('server                 req/s     p99 ms   errors   server CPU µs/request')
for (const [name, kind] of [['node:http', 'bare'], ['h3, one route', 'h3'], ['cairn (h3 host)', 'cairn']] as const) {
  const f = medianOf(kind)
  console.log(`${name.padEnd(20)} ${f.requestsPerSecond.toFixed(0).padStart(7)} ${f.p99.toFixed(1).padStart(9)} ${String(f.errors).padStart(8)} ${f.cpuMicrosPerRequest!.toFixed(1).padStart(12)}`)
}
const hostRatio = ratioOfRounds((r) => r.cairn.requestsPerSecond / r.h3.requestsPerSecond)
const hostCpuRatio = ratioOfRounds((r) => r.h3.cpuMicrosPerRequest! / r.cairn.cpuMicrosPerRequest!)
console.log(`h3 alone / node:http: ${percent(ratioOfRounds((r) => r.h3.requestsPerSecond / r.bare.requestsPerSecond))} (the framework's ceiling here)`)
console.log(`cairn / h3 alone: ${percent(hostRatio)} of the requests per second (rounds: ${rounds.map((r) => percent(r.cairn.requestsPerSecond / r.h3.requestsPerSecond)).join(', ')}); ${percent(hostCpuRatio)} in server CPU per request`)
console.log(`cairn / node:http: ${percent(ratioOfRounds((r) => r.cairn.requestsPerSecond / r.bare.requestsPerSecond))}`)
console.log(`target cairn ≥ 0.9 × h3 alone: ${hostRatio >= 0.9 ? 'MET' : 'NOT MET'}`)
console.log('')
console.log(`Authenticated read: GET ${AUTHENTICATED_PATH} (bearer verification + grant and identity reads), ${CONNECTIONS} concurrent`)
console.log('path                   req/s     p99 ms   errors')
for (const [name, f] of [['over HTTP', bearerHttp], ['in-process call', bearerInProcess]] as const) {
  console.log(`${name.padEnd(20)} ${f.requestsPerSecond.toFixed(0).padStart(7)} ${f.p99.toFixed(1).padStart(9)} ${String(f.errors).padStart(8)}`)
}
console.log(`HTTP / in-process: ${percent(bearerHttp.requestsPerSecond / bearerInProcess.requestsPerSecond)}`)
