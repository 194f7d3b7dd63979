import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { eachTempDir } from '../../conformance/support/temp-dir.js'
import { SqliteStore } from './sqlite-store.js'
import { lineFrom, outputOf, spawnFixture } from './test-fixtures/spawn-tsx.js'

const HOLD_MS = 1500
const TICK_MS = 10

/** Counts how often a 10 ms timer fires while `work` runs: a blocked event loop fires it 0 times. */
async function ticksDuring<T>(work: () => Promise<T>): Promise<{ result: T; ticks: number; elapsedMs: number }> {
  let ticks = 0
  const timer = setInterval(() => (ticks += 1), TICK_MS)
  const started = Date.now()
  try {
    const result = await work()
    return { result, ticks, elapsedMs: Date.now() - started }
  } finally {
    clearInterval(timer)
  }
}

describe('SqliteStore waiting for another process', () => {
  const dir = eachTempDir('cairn-sqlite-busy-')

  it(`keeps the event loop turning while a commit waits ${HOLD_MS} ms for another process's write lock`, async () => {
    const file = join(dir().path, 'store.sqlite')
    const store = new SqliteStore(file)
    await store.get('c', 'k')
    const holder = spawnFixture('hold-lock.ts', [file, 'IMMEDIATE', String(HOLD_MS)])
    const exited = outputOf(holder)
    await lineFrom(holder, 'locked')
    const { result, ticks, elapsedMs } = await ticksDuring(() =>
      store.commit([{ kind: 'put', collection: 'c', key: 'k', value: { waited: true }, expect: { kind: 'absent' } }]),
    )
    await exited
    expect(result.ok).toBe(true)
    expect(elapsedMs).toBeGreaterThan(HOLD_MS / 2)
    // Roughly elapsed/10 when nothing blocks; the old synchronous busy_timeout gave 0.
    expect(ticks).toBeGreaterThan(elapsedMs / TICK_MS / 4)
    expect(await store.get('c', 'k')).toMatchObject({ value: { waited: true } })
    await store.close()
  }, 20_000)

  it('waits at start-up for a process holding the new file exclusively, and keeps serving meanwhile', async () => {
    const file = join(dir().path, 'fresh.sqlite')
    const holder = spawnFixture('hold-lock.ts', [file, 'EXCLUSIVE', '1000'])
    const exited = outputOf(holder)
    await lineFrom(holder, 'locked')
    const store = new SqliteStore(file)
    const { result, ticks, elapsedMs } = await ticksDuring(() => store.get('c', 'k'))
    await exited
    expect(result).toBeUndefined()
    expect(elapsedMs).toBeGreaterThan(400)
    expect(ticks).toBeGreaterThan(elapsedMs / TICK_MS / 4)
    expect((await store.commit([{ kind: 'put', collection: 'c', key: 'k', value: 1, expect: { kind: 'absent' } }])).ok).toBe(true)
    await store.close()
  }, 20_000)
})
