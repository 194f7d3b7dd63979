/**
 * The combination suite: one store and one blob store used together the way a use case does (upload
 * the bytes, then commit the record that points at them and its ledger entry), so every pairing of
 * the matrix shows it works end to end.
 */
import { describe, expect, it } from 'vitest'
import { verifyChain } from '../core/digest/chain.js'
import { sha256Hex } from '../core/digest/sha256.js'
import { eachTest } from './support/each-test.js'
import { absent, append, put } from './support/writes.js'
import { openBlobFixture, openStoreFixture, type BlobStoreConformanceOptions, type StoreConformanceOptions } from './targets.js'

export interface CombinationConformanceOptions {
  /** e.g. `store=sqlite blobs=fs`. */
  readonly name: string
  readonly store: StoreConformanceOptions['create']
  readonly blobs: BlobStoreConformanceOptions['create']
}

/**
 * @example
 * describeCombinationConformance({ name: 'store=memory blobs=memory', store: async () => new MemoryStore(), blobs: async () => new MemoryBlobStore() })
 */
export function describeCombinationConformance(options: CombinationConformanceOptions): void {
  describe(`${options.name} Store+BlobStore`, () => {
    const fixture = eachTest(
      async () => ({ store: await openStoreFixture(options.store), blobs: await openBlobFixture(options.blobs) }),
      async ({ store, blobs }) => {
        await store.dispose()
        await blobs.dispose()
      },
    )

    it('commits a record pointing at uploaded bytes with its ledger entry, and serves both back', async () => {
      const { store, blobs } = fixture()
      const bytes = new TextEncoder().encode('sealed artifact bytes')
      const ref = await blobs.blobs.putStream(chunks(bytes))
      const outcome = await store.store.commit([
        put('artifacts', 'a1', { blob: ref.sha256, size: ref.size }, absent),
        append('artifacts-ledger', { artifact: 'a1', blob: ref.sha256 }, null),
      ])
      expect(outcome.ok).toBe(true)
      const record = await store.store.get<{ blob: string; size: number }>('artifacts', 'a1')
      const served = await blobs.blobs.get(record!.value.blob)
      expect(served).toEqual(bytes)
      expect(sha256Hex(served!)).toBe(record!.value.blob)
      const ledger = await store.store.readStream('artifacts-ledger')
      expect(ledger.items.map((entry) => entry.value)).toEqual([{ artifact: 'a1', blob: ref.sha256 }])
      expect(verifyChain(null, ledger.items)).toBe(true)
    })

    it('leaves uploaded bytes harmless when the record commit loses its race', async () => {
      const { store, blobs } = fixture()
      await store.store.commit([put('artifacts', 'a1', { blob: null }, absent)])
      const ref = await blobs.blobs.put(new TextEncoder().encode('late upload'))
      const outcome = await store.store.commit([put('artifacts', 'a1', { blob: ref.sha256 }, absent)])
      expect(outcome).toMatchObject({ ok: false, conflict: { _tag: 'VersionMismatch' } })
      expect((await store.store.get('artifacts', 'a1'))?.value).toEqual({ blob: null })
      // Content addressing makes the orphan inert: a retry that wins points at the same bytes.
      expect(await blobs.blobs.has(ref.sha256)).toBe(true)
    })
  })
}

async function* chunks(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes.subarray(0, 5)
  yield bytes.subarray(5)
}
