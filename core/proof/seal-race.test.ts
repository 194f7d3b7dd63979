/**
 * A seal that loses a race: its commit conflicts, writes nothing, and the seal goes again under a
 * fresh code, so the caller gets a sealed file; a seal that loses every attempt names what it lost
 * (its own code or slug, or a busy log) and never reports a lost log race as "another seal took
 * the same code".
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../../adapters/memory/index.js'
import { createSealer } from '../../conformance/proof/sealer.js'
import type { CommitConflict, CommitOutcome, Store, Write } from '../../ports/store.js'
import { LOG_LEAF_STREAM } from '../tlog/sequence.js'
import { PROOF_SEALS } from './seal-records.js'
import { sealArtifact } from './seal-artifact.js'
import { verifyArtifact } from './verify.js'

/** A store whose seal commits (those writing a seal record) lose with `conflictOf(writes)` the first `losses` times. */
function losingStore(losses: number, conflictOf: (writes: readonly Write[]) => CommitConflict): { store: Store; lostCommits: () => number } {
  const store = new MemoryStore()
  let lost = 0
  const commit = async (writes: readonly Write[]): Promise<CommitOutcome> => {
    if (lost < losses && writes.some((write) => write.kind === 'put' && write.collection === PROOF_SEALS)) {
      lost++
      return { ok: false, conflict: conflictOf(writes) }
    }
    return store.commit(writes)
  }
  return { store: new Proxy(store, { get: (target, name) => (name === 'commit' ? commit : (Reflect.get(target, name) as (...a: unknown[]) => unknown).bind(target)) }), lostCommits: () => lost }
}

const lostLogRace = (writes: readonly Write[]): CommitConflict => ({
  _tag: 'HeadMismatch',
  writeIndex: writes.findIndex((write) => 'stream' in write && write.stream === LOG_LEAF_STREAM),
  expectedHead: null,
  actualHead: 'a'.repeat(64),
})
const slugTaken = (): CommitConflict => ({ _tag: 'UniqueViolation', writeIndex: 0, uniqueKey: 'bySlug', value: 'report-00000000' })

const file = { bytes: new TextEncoder().encode('a report'), filename: 'report.txt', mimeType: 'text/plain' }

async function sealOn(store: Store) {
  const sealer = await createSealer({ store })
  return { sealer, sealed: await sealArtifact(sealer.deps, file, { sealKind: 'integrity-seal', actorUserId: null }) }
}

describe('a seal that loses a race', () => {
  for (const [name, conflictOf] of [['the log head', lostLogRace], ['its slug', slugTaken]] as const) {
    it(`that lost on ${name} seals again under a fresh code and answers a file that verifies`, async () => {
      const { store, lostCommits } = losingStore(2, conflictOf)
      const { sealer, sealed } = await sealOn(store)
      expect(lostCommits()).toBe(2)
      if (E.isLeft(sealed)) throw new Error(sealed.left.message)
      expect((await verifyArtifact(sealed.right.bytes, sealer.trust)).errors).toEqual([])
      expect((await store.query(PROOF_SEALS, { index: 'bySha256' })).items.map((doc) => doc.key)).toEqual([sealed.right.record.code])
      expect((await store.readStream(LOG_LEAF_STREAM)).items).toHaveLength(1)
    })
  }

  it('that loses every attempt on the log answers that the log was busy, never "another seal took the same code"', async () => {
    const { store } = losingStore(Infinity, lostLogRace)
    const { sealed } = await sealOn(store)
    expect(sealed).toEqual(E.left({ _tag: 'Unavailable', message: 'The transparency log was busy with other seals; send the file again' }))
    expect((await store.query(PROOF_SEALS, { index: 'bySha256' })).items).toEqual([])
    expect(await store.streamHead(LOG_LEAF_STREAM)).toBeUndefined()
  })

  it('that loses every attempt on its own code answers so, and writes nothing', async () => {
    const { store } = losingStore(Infinity, slugTaken)
    const { sealed } = await sealOn(store)
    expect(E.isLeft(sealed) && sealed.left).toMatchObject({ _tag: 'Conflict', message: expect.stringMatching(/^Another seal took the same code or slug/) })
    expect(await store.streamHead(LOG_LEAF_STREAM)).toBeUndefined()
  })
})
