/**
 * `npm run bench:ledger-http`: value transfers as a deployment serves them — `POST
 * /api/connect/transfers` with a bearer token, from CONNECTIONS kept-alive connections (autocannon)
 * to a server in its own process (bench/ledger-http-server.ts), over 64 funded wallets — next to
 * the same transfers through `cairn.call` from as many concurrent loops in that process, measured
 * in the same run (the HTTP layer removed: authentication, decoding and the movement stay). For
 * each, transfers/s and the movements each ledger commit carried (the group commit's batch, from
 * the server's metrics); after both, the ledger's invariant. Stores: memory and SQLite
 * (synchronous=FULL, a file), or those BENCH_LEDGER_STORES names.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import type { BenchUser } from './ledger-http-server.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
const STORES = (process.env.BENCH_LEDGER_STORES ?? 'memory,sqlite').split(',').filter(Boolean)

interface Server {
  readonly url: string
  readonly users: readonly BenchUser[]
  readonly child: ChildProcess
  /** Sends a command line and answers the server's one-line reply. */
  ask(command: string): Promise<string>
}

async function startServer(store: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./ledger-http-server.ts', import.meta.url).pathname, store], { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const next = async () => (await lines.next()).value as string
  const url = await next()
  const users = JSON.parse(await next()) as BenchUser[]
  return { url, users, child, ask: async (command) => (child.stdin!.write(`${command}\n`), next()) }
}

interface Figures { readonly perSecond: number; readonly p99Ms: number; readonly failed: number; readonly movementsPerCommit: number; readonly cpuMicros: number }

/** Movements and commits the server's ledger has counted so far. */
async function batches(server: Server): Promise<{ movements: number; commits: number }> {
  const [movements, commits] = (await server.ask('batches')).split(' ').map(Number)
  return { movements: movements!, commits: commits! }
}

let key = 0
function transferLoad(server: Server, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{
      method: 'POST',
      path: '/api/connect/transfers',
      setupRequest: (request) => {
        const n = key++
        const from = server.users[n % server.users.length]!
        const to = server.users[(n + 1) % server.users.length]!
        return {
          ...request,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${from.token}` },
          body: JSON.stringify({ recipientUserId: to.userId, unit: { currency: 'phi', amount: '1' }, idempotencyKey: `http-${n}` }),
        }
      },
    }],
  })
}

/** Runs `load` and reads what it cost the server: CPU per transfer and movements per ledger commit. */
async function measured(server: Server, load: () => Promise<{ perSecond: number; total: number; p99Ms: number; failed: number }>): Promise<Figures> {
  const [cpuBefore, before] = [Number(await server.ask('cpu')), await batches(server)]
  const result = await load()
  const [cpuAfter, after] = [Number(await server.ask('cpu')), await batches(server)]
  return {
    perSecond: result.perSecond, p99Ms: result.p99Ms, failed: result.failed,
    movementsPerCommit: (after.movements - before.movements) / Math.max(1, after.commits - before.commits),
    cpuMicros: (cpuAfter - cpuBefore) / Math.max(1, result.total),
  }
}

const overHttp = (server: Server) => measured(server, async () => {
  const result = await transferLoad(server, SECONDS)
  return { perSecond: result.requests.average, total: result.requests.total, p99Ms: result.latency.p99, failed: result.errors + result.non2xx }
})
const inProcess = (server: Server) => measured(server, async () => {
  const perSecond = Number(await server.ask(`inprocess ${SECONDS} ${CONNECTIONS}`))
  return { perSecond, total: perSecond * SECONDS, p99Ms: Number.NaN, failed: 0 }
})

console.log(`bench:ledger-http — ${SECONDS}s per row after a 2s warm-up, ${CONNECTIONS} connections (HTTP) or concurrent callers (in-process), 64 wallets, node ${process.version}`)
console.log('| store | transfers | per second | p99 ms | failed | movements per ledger commit | server CPU µs per transfer |')
console.log('|---|---|---:|---:|---:|---:|---:|')
for (const store of STORES) {
  const server = await startServer(store)
  try {
    await transferLoad(server, 2) // warm-up: JIT, and the connections kept alive from here on
    const http = await overHttp(server)
    const direct = await inProcess(server)
    const row = (name: string, f: Figures) =>
      `| ${store} | ${name} | ${f.perSecond.toFixed(0)} | ${Number.isNaN(f.p99Ms) ? '—' : f.p99Ms.toFixed(1)} | ${f.failed} | ${f.movementsPerCommit.toFixed(1)} | ${f.cpuMicros.toFixed(0)} |`
    console.log(row('over HTTP (POST /api/connect/transfers)', http))
    console.log(row('in-process (cairn.call)', direct))
    console.log(`| ${store} | HTTP / in-process | ${(http.perSecond / direct.perSecond).toFixed(2)}× | | | | |`)
    const trial = await server.ask('trial')
    console.log(`| ${store} | invariant after the runs | ${trial} | | | | |`)
    if (trial !== 'conserved' || http.failed > 0) process.exitCode = 1
  } finally {
    server.child.kill('SIGTERM')
  }
}
