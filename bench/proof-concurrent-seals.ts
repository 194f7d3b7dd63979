/**
 * bench:proof's concurrency rows: 1 KiB seals from 32 concurrent callers on one sealer, on memory
 * and on SQLite (synchronous=FULL, a file in a temporary directory), next to the same seals made
 * one after another on the same store in the same run. Every seal must succeed: failures are
 * counted, printed, and make the bench fail.
 */
import { join } from 'node:path'
import { MemoryStore } from '../adapters/memory/index.js'
import { SqliteStore } from '../adapters/sqlite/sqlite-store.js'
import { createSealer, type Sealer } from '../conformance/proof/sealer.js'
import { makeTempDir } from '../conformance/support/temp-dir.js'
import type { Store } from '../ports/store.js'

export const CONCURRENT_CALLERS = 32

interface Target {
  readonly name: string
  open(): Promise<{ store: Store; dispose(): Promise<void> }>
}

const targets: readonly Target[] = [
  { name: 'memory', open: async () => ({ store: new MemoryStore(), dispose: async () => undefined }) },
  {
    name: 'sqlite (synchronous=FULL)',
    open: async () => {
      const dir = await makeTempDir('cairn-bench-seals-')
      const store = new SqliteStore({ file: join(dir.path, 'seals.sqlite'), synchronous: 'FULL' })
      return { store, dispose: async () => (await store.close(), await dir.remove()) }
    },
  },
]

/** A distinct 1 KiB file per seal (its first bytes count), so no two seals share a payload digest. */
function smallFile(n: number): Uint8Array {
  const bytes = new Uint8Array(1024).fill(0x5a)
  new DataView(bytes.buffer).setUint32(0, n)
  return bytes
}

/** Seals `count` files from `callers` concurrent loops; answers the wall time and every failure's message. */
async function sealMany(sealer: Sealer, count: number, callers: number, first: number): Promise<{ ms: number; failures: string[] }> {
  const failures: string[] = []
  let next = 0
  const caller = async () => {
    for (let n = next++; n < count; n = next++) {
      try {
        await sealer.seal(smallFile(first + n), `small-${first + n}.bin`, 'application/octet-stream')
      } catch (error) {
        failures.push((error as Error).message)
      }
    }
  }
  const start = performance.now()
  await Promise.all(Array.from({ length: callers }, caller))
  return { ms: performance.now() - start, failures }
}

/**
 * One row per target: sequential and concurrent seals/s, and the failures of each.
 *
 * @example const { rows, failures } = await concurrentSealRows(640)
 */
export async function concurrentSealRows(seals: number): Promise<{ rows: string[]; failures: string[] }> {
  const rows: string[] = []
  const failures: string[] = []
  for (const target of targets) {
    const { store, dispose } = await target.open()
    try {
      const sealer = await createSealer({ store, seed: `bench-concurrent-${target.name}` })
      await sealMany(sealer, 64, 1, 0) // warm-up: code paths compiled, the log past its first checkpoint
      // Alternated halves, so a machine that gets busier mid-run slows both alike.
      const quarter = Math.ceil(seals / 4)
      let sequentialMs = 0
      let concurrentMs = 0
      for (let round = 0; round < 2; round++) {
        const one = await sealMany(sealer, quarter, 1, 1_000_000 + round * quarter)
        const many = await sealMany(sealer, quarter, CONCURRENT_CALLERS, 2_000_000 + round * quarter)
        sequentialMs += one.ms
        concurrentMs += many.ms
        failures.push(...[...one.failures, ...many.failures].map((message) => `${target.name}: ${message}`))
      }
      const perSecond = (ms: number) => Math.round((2 * quarter) / (ms / 1000))
      const targetFailures = failures.filter((failure) => failure.startsWith(`${target.name}:`)).length
      rows.push(`| ${target.name} | ${perSecond(sequentialMs).toLocaleString('en')} | ${perSecond(concurrentMs).toLocaleString('en')} | ${(sequentialMs / concurrentMs).toFixed(2)}× | ${targetFailures} of ${4 * quarter} |`)
      console.log(rows.at(-1))
    } finally {
      await dispose()
    }
  }
  return { rows, failures }
}
