import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { eachTempDir } from '../../conformance/support/temp-dir.js'
import { verifyChain } from '../../core/digest/chain.js'
import type { StreamEntry } from '../../ports/store.js'
import { FsBlobStore } from '../fs/fs-blob-store.js'
import { SqliteStore } from './sqlite-store.js'
import { spawnFixture } from './test-fixtures/spawn-tsx.js'

/** Acknowledged rounds to wait for before the kill: enough to be killed mid-load, not at start-up. */
const ACKS_BEFORE_KILL = 150

type Round = { round: number; blob: string }

// SIGKILL ends the process between any two instructions, mid-transaction or mid-fsync included; it
// does not drop the OS page cache, so this proves atomicity and acknowledgement order, not power-loss
// durability (that rests on synchronous=FULL and the fsyncs; see docs/decisions.md).
describe('the sqlite+fs durable default killed mid-load', () => {
  const dir = eachTempDir('cairn-crash-')

  // One writer: one commit per transaction. Eight writers: commits share transactions (group commit).
  it.each([1, 8])('keeps every acknowledged commit and no half of any commit (%i writers)', async (writers) => {
    const acknowledged = await runUntilKilled(dir().path, writers)
    expect(acknowledged.length).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL)

    const store = new SqliteStore(join(dir().path, 'store.sqlite'))
    const blobs = new FsBlobStore({ root: join(dir().path, 'blobs') })
    try {
      for (let w = 0; w < writers; w += 1) {
        const entries = await readAll(store, `rounds-${w}`)
        const acknowledgedRounds = acknowledged.filter((ack) => ack.writer === w).map((ack) => ack.round)
        // Every acknowledged round is there; at most the one in flight at the kill may follow.
        expect(entries.map((entry) => entry.value.round)).toEqual(Array.from({ length: entries.length }, (_, i) => i))
        expect(entries.length).toBeGreaterThanOrEqual(acknowledgedRounds.length)
        expect(entries.length - acknowledgedRounds.length).toBeLessThanOrEqual(1)
        expect(verifyChain(null, entries)).toBe(true)
        for (const { value } of entries) {
          for (const part of ['a', 'b', 'c']) {
            expect(await store.get('rounds', `${w}-${value.round}-${part}`)).toMatchObject({ version: 1, value: { round: value.round, part, blob: value.blob } })
          }
          expect(await blobs.get(value.blob)).toBeDefined()
        }
        // No document of a round whose entry is missing: the round after the last entry left nothing.
        for (const part of ['a', 'b', 'c']) expect(await store.get('rounds', `${w}-${entries.length}-${part}`)).toBeUndefined()
      }
      // Every blob file at its address is whole (a torn write would fail the hash).
      for (const shard of (await readdir(join(dir().path, 'blobs'))).filter((name) => /^[0-9a-f]{2}$/.test(name))) {
        for (const name of await readdir(join(dir().path, 'blobs', shard))) expect(await blobs.get(name)).toBeDefined()
      }
    } finally {
      await store.close()
      await blobs.close()
    }
  }, 30_000)
})

/** Start the commit loop, collect its acknowledgements, SIGKILL it once enough arrived. */
function runUntilKilled(dataDir: string, writers: number): Promise<{ writer: number; round: number }[]> {
  const child = spawnFixture('commit-loop.ts', [dataDir, String(writers)])
  const acknowledged: { writer: number; round: number }[] = []
  let pending = ''
  let stderr = ''
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString()
      const lines = pending.split('\n')
      pending = lines.pop()!
      acknowledged.push(...lines.map((line) => ({ writer: Number(line.split(' ')[0]), round: Number(line.split(' ')[1]) })))
      if (acknowledged.length >= ACKS_BEFORE_KILL && !child.killed) child.kill('SIGKILL')
    })
    child.on('error', reject)
    // 'close', not 'exit': acknowledgements still in the pipe at the kill are read first.
    child.on('close', (_code, signal) => (signal === 'SIGKILL' ? resolve(acknowledged) : reject(new Error(`The commit loop stopped by itself: ${stderr}`))))
  })
}

async function readAll(store: SqliteStore, stream: string): Promise<StreamEntry<Round>[]> {
  const entries: StreamEntry<Round>[] = []
  let after: string | undefined
  for (;;) {
    const page = await store.readStream<Round>(stream, after === undefined ? { limit: 1000 } : { after, limit: 1000 })
    entries.push(...page.items)
    if (page.nextCursor === null) return entries
    after = page.nextCursor
  }
}
