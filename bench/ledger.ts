/**
 * `tsx bench/ledger.ts` (npm run bench:ledger): value transfers per second on the memory, SQLite and
 * PostgreSQL stores (PostgreSQL when its binaries are here, bench/postgres-targets.ts), uncontended (sequential, and concurrent over many wallets) and contended (concurrent
 * transfers all from one hot wallet), with p50/p99 latency and CPU per transfer, next to the raw Store
 * commit rate of the same adapter measured in the same run (on a store of its own): one-document commits, sequential and from
 * 32 concurrent writers (the group-commit rate the issue's targets name), and commits of the rows a
 * transfer writes from 32 writers (the floor each transfer row's verdict is given against), and transfers while
 * 8 callers seal 1 KiB files into the same log (seals/s in the row's name), and on SQLite and PostgreSQL
 * transfers from two hosts on the same data at once (bench/ledger-second-host.ts). "ops per Store commit" is
 * how many of the row's operations one Store commit carried (how well movements batch; the mixed
 * row's count includes the seals' commits). After each run the
 * ledger's invariant is checked: every unit sums to zero and no wallet is negative. BENCH_LEDGER_STORES
 * ("memory,sqlite,postgres") names the stores to measure.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import * as E from 'fp-ts/lib/Either.js'
import { MemoryStore } from '../adapters/memory/index.js'
import { SqliteStore } from '../adapters/sqlite/sqlite-store.js'
import { aroundCommit } from '../conformance/support/around-commit.js'
import { makeTempDir } from '../conformance/support/temp-dir.js'
import { collections } from '../core/usecases/collections.js'
import type { CoreDeps } from '../core/usecases/use-case.js'
import { sealArtifact } from '../core/proof/seal-artifact.js'
import { integrateAll } from '../core/tlog/integrate.js'
import { startLogIntegration } from '../hosts/library/log-integration-loop.js'
import { trialBalance } from '../core/value/index.js'
import type { Store } from '../ports/store.js'
import { FLOOR_COLLECTIONS, floorRows } from './ledger-floor.js'
import { fundedLedger, WALLETS, type SecondHost } from './ledger-wallets.js'
import { postgresBenchTargets } from './postgres-targets.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8)
/** The many-clients figure: transfers from this many concurrent clients against as many raw writers. */
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32)
/** Callers sealing alongside the mixed row's transfers. */
const SEALERS = 8

interface Target {
  readonly name: string
  /** Transfers from CLIENTS concurrent clients over many wallets, as a share of the raw CLIENTS-writer commit rate. */
  readonly manyWalletsTarget?: number
  /** `secondHost`: where a second host opens the same data (the two-host row); none for memory. */
  open(): Promise<{ store: Store; dispose(): Promise<void>; secondHost?: SecondHost }>
}

/** Which stores to measure: BENCH_LEDGER_STORES="memory,sqlite,postgres" (the default), any of them. */
const STORES = (process.env.BENCH_LEDGER_STORES ?? 'memory,sqlite,postgres').split(',').map((name) => name.trim())
const postgres = STORES.includes('postgres') ? await postgresBenchTargets() : { targets: [], note: undefined, stop: async () => undefined }
const allTargets: Target[] = [
  { name: 'memory', manyWalletsTarget: 0.1, open: async () => ({ store: new MemoryStore(), dispose: async () => undefined }) },
  {
    name: 'sqlite (synchronous=FULL)',
    manyWalletsTarget: 0.15,
    open: async () => {
      const dir = await makeTempDir('cairn-bench-ledger-')
      const file = join(dir.path, 'ledger.sqlite')
      const store = new SqliteStore({ file })
      return { store, secondHost: { kind: 'sqlite', file }, dispose: async () => { await store.close(); await dir.remove() } }
    },
  },
  ...postgres.targets,
]
const targets = allTargets.filter((target) => STORES.includes(target.name.split(' ')[0]!))

/** `cpuMicros`: this process's CPU time (user + system) per operation, which a loaded machine inflates far less than wall time. */
interface Figures { readonly operations: number; readonly perSecond: number; readonly p50Ms: number; readonly p99Ms: number; readonly refused: number; readonly cpuMicros: number; readonly perCommit: number }

/** Store commits made so far through a store from `countingCommits`. */
let storeCommits = 0

/**
 * `store` with its commits counted, so a row can say how many operations one Store commit carried
 * (for transfers: how well movements batch).
 */
function countingCommits(store: Store): Store {
  return aroundCommit(store, (writes, commit) => (storeCommits++, commit(writes)))
}

/** Runs `operation` with `concurrency` workers for SECONDS; latencies of every call. */
async function measure(concurrency: number, operation: (i: number) => Promise<boolean>): Promise<Figures> {
  const latencies: number[] = []
  let next = 0
  let refused = 0
  const commitsBefore = storeCommits
  const started = performance.now()
  const cpu = process.cpuUsage()
  const deadline = started + SECONDS * 1000
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < deadline) {
      const at = performance.now()
      if (!(await operation(next++))) refused++
      latencies.push(performance.now() - at)
    }
  }))
  const elapsed = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  latencies.sort((a, b) => a - b)
  const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0
  return { operations: latencies.length, perSecond: latencies.length / elapsed, p50Ms: pick(0.5), p99Ms: pick(0.99), refused, cpuMicros: (used.user + used.system) / latencies.length, perCommit: latencies.length / Math.max(1, storeCommits - commitsBefore) }
}

/** What bench/ledger-second-host.ts did. */
interface SecondHostReport { readonly done: number; readonly refused: number; readonly commits: number; readonly cpuMicros: number }

/** What the second process does: transfers between `wallets`, or seals, from `loops` concurrent loops. */
interface SecondHostWork { readonly work: 'transfers' | 'seals'; readonly wallets: readonly string[]; readonly loops: number }

/** Runs `measureHere` while a second process on the same data does `work`, from the same moment. */
async function besideSecondHost(secondHost: SecondHost, { work, wallets, loops }: SecondHostWork, measureHere: () => Promise<Figures>): Promise<{ here: Figures; there: SecondHostReport }> {
  const script = new URL('./ledger-second-host.ts', import.meta.url).pathname
  const second = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(secondHost), JSON.stringify(wallets), String(loops), String(SECONDS), work], { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = createInterface({ input: second.stdout })[Symbol.asyncIterator]()
  if ((await lines.next()).value !== 'ready') throw new Error('The second host did not start')
  second.stdin.write('go\n')
  const here = await measureHere()
  const there = JSON.parse((await lines.next()).value as string) as SecondHostReport
  second.stdin.end()
  return { here, there }
}

/** Callers sealing 1 KiB files in a loop while `run` measures; seals per second over the same time, and failures. */
async function alongsideSeals(deps: CoreDeps, run: () => Promise<Figures>): Promise<{ figures: Figures; sealsPerSecond: number; failedSeals: number }> {
  let sealing = true
  let seals = 0
  let failedSeals = 0
  const sealLoop = async (caller: number) => {
    for (let i = 0; sealing; i++) {
      const bytes = new TextEncoder().encode(`${caller}:${i}:`.padEnd(1024, '.'))
      const sealed = await sealArtifact(deps, { bytes, filename: 'file.txt', mimeType: 'text/plain' }, { sealKind: 'integrity-seal', actorUserId: null })
      if (E.isRight(sealed)) seals++
      else failedSeals++
    }
  }
  const started = performance.now()
  const loops = Array.from({ length: SEALERS }, (_, caller) => sealLoop(caller))
  const figures = await run()
  const seconds = (performance.now() - started) / 1000
  sealing = false
  await Promise.all(loops)
  return { figures, sealsPerSecond: seals / seconds, failedSeals }
}

/** A fresh store of `target`, its commits counted. */
async function openCounted(target: Target): Promise<{ store: Store; dispose(): Promise<void>; secondHost?: SecondHost }> {
  const { store, ...rest } = await target.open()
  return { store: countingCommits(store), ...rest }
}

/**
 * Transfers from two processes on the same data at once, CLIENTS each, every process over half of
 * the wallets: what a second host on the same data dir or database adds
 * (bench/ledger-second-host.ts). Their batches append with `appendNext` and add to rollup shards
 * of their own, so they race only where they move the same wallets (here never) and, once, on the
 * rollup shard both begin on.
 */
async function twoHosts(secondHost: SecondHost, users: readonly string[], send: (from: string, to: string, key: string) => Promise<boolean>): Promise<Figures> {
  const half = users.length / 2
  const { here, there } = await besideSecondHost(secondHost, { work: 'transfers', wallets: users.slice(half), loops: CLIENTS },
    () => measure(CLIENTS, (i) => send(users[i % half]!, users[(i + 1) % half]!, `two-hosts-${i}`)))
  const operations = here.operations + there.done + there.refused
  return {
    operations,
    perSecond: here.perSecond + (there.done + there.refused) / SECONDS,
    p50Ms: here.p50Ms,
    p99Ms: here.p99Ms,
    refused: here.refused + there.refused,
    cpuMicros: (here.cpuMicros * here.operations + there.cpuMicros) / operations,
    perCommit: operations / (here.operations / here.perCommit + there.commits),
  }
}

interface Baselines { readonly raw: Figures; readonly rawConcurrent: Figures; readonly rawTransfer: Figures }

/**
 * The bare baselines, same adapter, same run, on a store of their own: one-document commits one at
 * a time and from CLIENTS writers at once (what the adapter's group commit makes of many small
 * commits), and the floor of a transfer. Their own store, because they write hundreds of thousands
 * of documents in seconds: on memory, transfers measured behind them paid the garbage collector
 * for that heap (200 µs of CPU a transfer, against 115 µs on a store of their own).
 */
async function measureBaselines(target: Target): Promise<Baselines> {
  const { store, dispose } = await openCounted(target)
  try {
    await store.declare(collections)
    await store.declare(FLOOR_COLLECTIONS)
    let rawKey = 0
    const rawCommit = async () => (await store.commit([{ kind: 'put', collection: 'value.entries', key: `raw-${rawKey++}`, value: { createdAt: '2026-01-01T00:00:00.000Z', n: rawKey }, expect: { kind: 'absent' } }])).ok
    const raw = await measure(1, rawCommit)
    const rawConcurrent = await measure(CLIENTS, rawCommit)
    // The floor of a transfer (bench/ledger-floor.ts), from CLIENTS writers.
    const rawTransferRows = async () => (await store.commit(floorRows(rawKey++))).ok
    const rawTransfer = await measure(CLIENTS, rawTransferRows)
    return { raw, rawConcurrent, rawTransfer }
  } finally {
    await dispose()
  }
}

async function benchTarget(target: Target): Promise<void> {
  const { raw, rawConcurrent, rawTransfer } = await measureBaselines(target)
  const { store, dispose, secondHost } = await openCounted(target)
  try {
    await store.declare(collections)
    const { deps, users, send } = await fundedLedger(store)

    const rows: [string, Figures][] = [
      ['transfer, uncontended (sequential, 64 wallets)', await measure(1, (i) => send(users[i % WALLETS]!, users[(i + 1) % WALLETS]!, `seq-${i}`))],
      [`transfer, many wallets (${CONCURRENCY} concurrent)`, await measure(CONCURRENCY, (i) => send(users[i % WALLETS]!, users[(i + 1) % WALLETS]!, `many-${i}`))],
      [`transfer, many wallets (${CLIENTS} concurrent)`, await measure(CLIENTS, (i) => send(users[i % WALLETS]!, users[(i + 1) % WALLETS]!, `wide-${i}`))],
      [`transfer, one hot wallet (${CLIENTS} concurrent)`, await measure(CLIENTS, (i) => send(users[0]!, users[1 + (i % (WALLETS - 1))]!, `hot-${i}`))],
    ]
    // Movements and seals append to the same log (both take its next position): both must keep moving.
    // As on a host, the log is integrated in the background (the rows above left their leaves to it).
    await integrateAll(deps, Number.MAX_SAFE_INTEGER)
    const integration = startLogIntegration(deps, Promise.resolve())
    const mixed = await alongsideSeals(deps, () => measure(CLIENTS, (i) => send(users[i % WALLETS]!, users[(i + 1) % WALLETS]!, `mixed-${i}`)))
    await integration.stop()
    rows.push([`transfer, many wallets (${CLIENTS} concurrent) while ${SEALERS} callers seal 1 KiB files: ${mixed.sealsPerSecond.toFixed(0)} seals/s, ${mixed.failedSeals} failed`, mixed.figures])
    if (mixed.failedSeals > 0) process.exitCode = 1
    if (secondHost !== undefined) {
      rows.push([`transfer, many wallets, two hosts on the same data (${CLIENTS} concurrent each, p50/p99 of the first)`, await twoHosts(secondHost, users, send)])
      // Seals on another host append to the same log as this host's batches: neither may make the other lose a race.
      const { here, there } = await besideSecondHost(secondHost, { work: 'seals', wallets: [], loops: SEALERS }, () => measure(CLIENTS, (i) => send(users[i % WALLETS]!, users[(i + 1) % WALLETS]!, `beside-sealer-${i}`)))
      rows.push([`transfer, many wallets (${CLIENTS} concurrent) while a second host's ${SEALERS} callers seal 1 KiB files: ${(there.done / SECONDS).toFixed(0)} seals/s, ${there.refused} failed`, here])
      if (there.refused > 0) process.exitCode = 1
    }

    const trial = await trialBalance(deps)
    const { conserved } = trial
    const row = (name: string, f: Figures, verdict = '') =>
      `| ${target.name} | ${name} | ${f.perSecond.toFixed(0)} | ${f.p50Ms.toFixed(2)} | ${f.p99Ms.toFixed(2)} | ${f.cpuMicros.toFixed(1)} | ${f.perCommit.toFixed(1)} | ${(f.perSecond / rawConcurrent.perSecond).toFixed(3)}× | ${f.refused} | ${verdict} |`
    console.log(row('raw Store commit (1 document, sequential)', raw))
    console.log(row(`raw Store commit (1 document, ${CLIENTS} concurrent writers)`, rawConcurrent))
    console.log(row(`raw Store commit of a transfer's 7 rows (${CLIENTS} concurrent writers)`, rawTransfer))
    for (const [name, figures] of rows) {
      const target32 = name === `transfer, many wallets (${CLIENTS} concurrent)` ? target.manyWalletsTarget : undefined
      const ofFloor = `${(figures.perSecond / rawTransfer.perSecond).toFixed(2)}× the raw commit of its rows`
      const verdict = target32 === undefined ? ofFloor : `${figures.perSecond / rawConcurrent.perSecond >= target32 ? 'meets' : 'MISSES'} ≥ ${target32}×; ${ofFloor}`
      console.log(row(name, figures, verdict))
    }
    console.log(`| ${target.name} | invariant after the run | ${conserved ? 'conserved: every unit sums to 0, no wallet negative' : 'VIOLATED'} | | | | | | | |`)
    if (!conserved) process.exitCode = 1
  } finally {
    await dispose()
  }
}

console.log(`bench:ledger — ${SECONDS}s per measurement, ${CONCURRENCY} concurrent workers where concurrent, node ${process.version}`)
console.log(`| store | measurement | per second | p50 ms | p99 ms | CPU µs/op | ops per Store commit | vs raw ${CLIENTS}-writer commit | refused (409/422) | verdict |`)
console.log('|---|---|---|---|---|---|---|---|---|---|')
for (const target of targets) {
  try {
    await benchTarget(target)
  } catch (error) {
    // A store that cannot keep up is a figure too: say so and measure the next one.
    console.log(`| ${target.name} | failed | ${(error as Error).message} | | | | | | | |`)
    process.exitCode = 1
  }
}
await postgres.stop()
if (postgres.note !== undefined) console.log(`\n${postgres.note}`)
