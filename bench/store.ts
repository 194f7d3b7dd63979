/**
 * `tsx bench/store.ts` (npm run bench:store): commit throughput and latency of the Store adapters
 * (one-document and five-document atomic commits, stream appends) and blob throughput of the
 * BlobStore adapters next to raw SHA-256 over the same bytes. Bounded: each measurement stops after
 * its operation count or its time budget, whichever comes first. MongoDB joins when MONGODB_URI is
 * set; PostgreSQL (both isolations, on a throwaway cluster with fsync on) when its binaries are
 * here; S3 (a local s3rver) through bench/blob-s3.ts when it loads.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { FsBlobStore } from '../adapters/fs/fs-blob-store.js'
import { MemoryBlobStore } from '../adapters/memory/memory-blob-store.js'
import { MemoryStore } from '../adapters/memory/memory-store.js'
import { patternedBytes } from '../adapters/shared/test-bytes.js'
import { SqliteStore } from '../adapters/sqlite/sqlite-store.js'
import { makeTempDir } from '../conformance/support/temp-dir.js'
import type { BlobStore } from '../ports/blob-store.js'
import type { Store, Write } from '../ports/store.js'
import { postgresBenchTargets } from './postgres-targets.js'

const OPERATIONS = Number(process.env.BENCH_OPERATIONS ?? 5000)
const BUDGET_MS = Number(process.env.BENCH_BUDGET_MS ?? 3000)
const BLOB_MiB = Number(process.env.BENCH_BLOB_MIB ?? 16)
const WRITERS = Number(process.env.BENCH_WRITERS ?? 32)
const BLOB_ROUNDS = 4
const MiB = 1024 * 1024

/** A store to measure, and how to get rid of it afterwards. */
interface StoreTarget {
  readonly name: string
  open(): Promise<{ store: Store; dispose(): Promise<void> }>
}

interface CommitFigures {
  readonly operations: number
  readonly perSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
}

const postgres = await postgresBenchTargets()
const storeTargets: StoreTarget[] = [
  { name: 'memory', open: async () => ({ store: new MemoryStore(), dispose: async () => undefined }) },
  sqliteTarget('FULL'),
  sqliteTarget('NORMAL'),
  ...(await mongoTargets()),
  ...postgres.targets,
]
/** Writers of the contended measurement: all of them increment one document. */
const HOT_WRITERS = 8

function sqliteTarget(synchronous: 'FULL' | 'NORMAL'): StoreTarget {
  return {
    name: `sqlite (synchronous=${synchronous})`,
    open: async () => {
      const dir = await makeTempDir('cairn-bench-sqlite-')
      const store = new SqliteStore({ file: join(dir.path, 'bench.sqlite'), synchronous })
      return {
        store,
        dispose: async () => {
          await store.close()
          await dir.remove()
        },
      }
    },
  }
}

/** MongoDB only when asked for, and imported only then (the driver is not loaded otherwise). */
async function mongoTargets(): Promise<StoreTarget[]> {
  const uri = process.env.MONGODB_URI
  if (uri === undefined || uri === '') return []
  const [{ MongoClient }, { MongoStore }] = await Promise.all([import('mongodb'), import('../adapters/mongodb/index.js')])
  return [
    {
      name: 'mongodb',
      open: async () => {
        const client = new MongoClient(uri)
        const dbName = `cairn_bench_${process.pid}`
        const store = new MongoStore({ client, dbName })
        return {
          store,
          dispose: async () => {
            await store.close()
            await client.db(dbName).dropDatabase()
            await client.close()
          },
        }
      },
    },
  ]
}

/** Run `operation(i)` until OPERATIONS or BUDGET_MS; latency of each, one at a time. */
async function measureCommits(operation: (i: number) => Promise<void>): Promise<CommitFigures> {
  for (let i = 0; i < 50; i += 1) await operation(-1 - i) // warm-up: JIT, statement caches
  const latencies: number[] = []
  const started = performance.now()
  while (latencies.length < OPERATIONS && performance.now() - started < BUDGET_MS) {
    const before = performance.now()
    await operation(latencies.length)
    latencies.push(performance.now() - before)
  }
  const elapsed = performance.now() - started
  latencies.sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!
  return { operations: latencies.length, perSecond: (latencies.length / elapsed) * 1000, p50Ms: at(0.5), p99Ms: at(0.99) }
}

/** `writers` loops each running `operation` one at a time, together until OPERATIONS × 4 or BUDGET_MS: what group commit is for. */
async function measureConcurrentCommits(writers: number, operation: (i: number) => Promise<void>): Promise<CommitFigures> {
  await Promise.all(Array.from({ length: writers }, (_, w) => operation(-1 - w))) // warm-up
  const latencies: number[] = []
  let issued = 0
  const total = OPERATIONS * 4
  const started = performance.now()
  const writer = async () => {
    while (issued < total && performance.now() - started < BUDGET_MS) {
      const i = issued++
      const before = performance.now()
      await operation(i)
      latencies.push(performance.now() - before)
    }
  }
  await Promise.all(Array.from({ length: writers }, writer))
  const elapsed = performance.now() - started
  latencies.sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!
  return { operations: latencies.length, perSecond: (latencies.length / elapsed) * 1000, p50Ms: at(0.5), p99Ms: at(0.99) }
}

async function benchStore(target: StoreTarget): Promise<Record<string, CommitFigures>> {
  const { store, dispose } = await target.open()
  try {
    const put = (key: string): Write => ({ kind: 'put', collection: 'bench', key, value: { key, payload: 'x'.repeat(200) }, expect: { kind: 'absent' } })
    const expectOk = async (writes: Write[]) => {
      const outcome = await store.commit(writes)
      if (!outcome.ok) throw new Error(`Bench commit conflicted: ${JSON.stringify(outcome.conflict)}`)
      return outcome
    }
    let head: string | null = null
    await store.commit([{ kind: 'put', collection: 'bench', key: 'hot', value: { n: 0 }, expect: { kind: 'absent' } }])
    /** Read the hot document, commit its increment expecting that version, again on conflict: one finished increment. */
    const increment = async () => {
      for (;;) {
        const current = await store.get<{ n: number }>('bench', 'hot')
        const outcome = await store.commit([{ kind: 'put', collection: 'bench', key: 'hot', value: { n: current!.value.n + 1 }, expect: { kind: 'version', version: current!.version } }])
        if (outcome.ok) return
      }
    }
    return {
      '1-document commit': await measureCommits(async (i) => void (await expectOk([put(`one-${i}`)]))),
      '1-document commit, 8 concurrent writers': await measureConcurrentCommits(8, async (i) => void (await expectOk([put(`eight-${i}`)]))),
      [`1-document commit, ${WRITERS} concurrent writers`]: await measureConcurrentCommits(WRITERS, async (i) => void (await expectOk([put(`many-${i}`)]))),
      '5-document commit': await measureCommits(async (i) => void (await expectOk([0, 1, 2, 3, 4].map((j) => put(`five-${i}-${j}`))))),
      'stream append': await measureCommits(async (i) => {
        const outcome = await expectOk([{ kind: 'append', stream: 'bench', value: { i }, expectHead: head }])
        head = outcome.appended[0]!.head
      }),
      [`one hot document, ${HOT_WRITERS} writers read-increment-retry`]: await measureConcurrentCommits(HOT_WRITERS, increment),
    }
  } finally {
    await dispose()
  }
}

/** A blob store to measure. */
interface BlobTarget {
  readonly name: string
  open(): Promise<{ blobs: BlobStore; dispose(): Promise<void> }>
}

const blobTargets: BlobTarget[] = [
  { name: 'memory', open: async () => ({ blobs: new MemoryBlobStore(), dispose: async () => undefined }) },
  {
    name: 'fs',
    open: async () => {
      const dir = await makeTempDir('cairn-bench-blobs-')
      const blobs = new FsBlobStore({ root: dir.path })
      return {
        blobs,
        dispose: async () => {
          await blobs.close()
          await dir.remove()
        },
      }
    },
  },
]

interface BlobFigures {
  readonly putMiBps: number
  readonly getMiBps: number
  readonly sha256MiBps: number
}

async function benchBlobs(target: BlobTarget): Promise<BlobFigures> {
  const { blobs, dispose } = await target.open()
  try {
    // A different seed per round: every put is a real write, never an idempotent no-op.
    const inputs = Array.from({ length: BLOB_ROUNDS }, (_, round) => patternedBytes(BLOB_MiB * MiB, round))
    const rate = async (run: (bytes: Uint8Array) => unknown) => {
      const started = performance.now()
      for (const bytes of inputs) await run(bytes)
      return (BLOB_MiB * BLOB_ROUNDS) / ((performance.now() - started) / 1000)
    }
    const sha256MiBps = await rate((bytes) => createHash('sha256').update(bytes).digest('hex'))
    const refs: string[] = []
    const putMiBps = await rate(async (bytes) => refs.push((await blobs.put(bytes)).sha256))
    let next = 0
    const getMiBps = await rate(async () => blobs.get(refs[next++]!))
    return { putMiBps, getMiBps, sha256MiBps }
  } finally {
    await dispose()
  }
}

/** The S3 hook: bench/blob-s3.ts measures S3BlobStore on a local s3rver; absent or failing, S3 is left out. */
async function benchS3(): Promise<BlobFigures | string> {
  try {
    const { benchBlobS3 } = await import('./blob-s3.js')
    const figures = await benchBlobS3({ sizeMiB: BLOB_MiB, rounds: BLOB_ROUNDS, print: false })
    return { putMiBps: figures.putMiBps, getMiBps: figures.getMiBps, sha256MiBps: Number.NaN }
  } catch (error) {
    return `S3 left out: ${(error as Error).message}`
  }
}

const fixed = (n: number, digits = 0) => (Number.isNaN(n) ? '–' : n.toFixed(digits))

console.log(`Store commits (one at a time, or ${WRITERS} writers each one at a time; up to ${OPERATIONS} operations (×4 concurrent) or ${BUDGET_MS} ms each)\n`)
console.log('| store | operation | ops | ops/s | p50 ms | p99 ms |')
console.log('|---|---|---:|---:|---:|---:|')
for (const target of storeTargets) {
  for (const [operation, f] of Object.entries(await benchStore(target))) {
    console.log(`| ${target.name} | ${operation} | ${f.operations} | ${fixed(f.perSecond)} | ${fixed(f.p50Ms, 3)} | ${fixed(f.p99Ms, 3)} |`)
  }
}
await postgres.stop()
if (postgres.note !== undefined) console.log(`\n${postgres.note}`)

console.log(`\nBlobs (${BLOB_ROUNDS} distinct blobs of ${BLOB_MiB} MiB; get verifies SHA-256)\n`)
console.log('| blobs | put MiB/s | get MiB/s | SHA-256 of the same bytes MiB/s |')
console.log('|---|---:|---:|---:|')
for (const target of blobTargets) {
  const f = await benchBlobs(target)
  console.log(`| ${target.name} | ${fixed(f.putMiBps)} | ${fixed(f.getMiBps)} | ${fixed(f.sha256MiBps)} |`)
}
const s3 = await benchS3()
if (typeof s3 === 'string') console.log(`\n${s3}`)
else console.log(`| s3 (local s3rver) | ${fixed(s3.putMiBps)} | ${fixed(s3.getMiBps)} | – |`)
