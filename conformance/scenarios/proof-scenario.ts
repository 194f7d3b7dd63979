/**
 * The sealing scenario on a whole Cairn over a given store and blob store: a file sealed over HTTP
 * verifies (server and offline), its record, ledger event and log leaf are in the store, and a
 * fault before or after the seal's commit leaves all three or none, and concurrent seals all
 * succeed (none loses a race on the log's head) — on every storage combination.
 */
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { MemoryKeyStore } from '../../adapters/memory/memory-key-store.js'
import { SeededEntropy } from '../../adapters/memory/seeded-entropy.js'
import { MemoryBlobStore } from '../../adapters/memory/memory-blob-store.js'
import { MemoryEventBus } from '../../adapters/memory/memory-event-bus.js'
import { EMPTY_DEPLOYMENT_CONFIG } from '../../core/config/deployment-config.js'
import { ACTION_LEDGER_STREAM } from '../../core/ledger/action-ledger.js'
import { sealArtifact } from '../../core/proof/seal-artifact.js'
import { sealsBySha256 } from '../../core/proof/seal-records.js'
import { serviceTrust } from '../../core/proof/service-trust.js'
import { verifyArtifact } from '../../core/proof/verify.js'
import { LOG_LEAF_STREAM } from '../../core/tlog/sequence.js'
import type { CoreDeps } from '../../core/usecases/use-case.js'
import { createCairn, type Cairn } from '../../hosts/library/create-cairn.js'
import type { Store } from '../../ports/store.js'
import { withFaults } from '../fault-injection.js'
import { pngFile } from '../proof/payloads.js'
import { openBlobFixture, openStoreFixture, type ScenarioOptions } from '../targets.js'

export type ProofScenarioOptions = ScenarioOptions

const BASE_URL = 'http://cairn.proof-scenario.test'
const NOW = Date.parse('2026-06-25T00:00:00.000Z')
/** Sealers at once: each used to read the log head and retry on a lost race. */
const CONCURRENT_SEALS = 32

export function describeProofScenario(options: ProofScenarioOptions): void {
  describe(`${options.name} sealing scenario`, () => {
    let cairn: Cairn
    let store: Store
    let dispose: () => Promise<void>
    const keys = new MemoryKeyStore()

    beforeAll(async () => {
      const storeFixture = await openStoreFixture(options.store)
      const blobs = await openBlobFixture(options.blobs)
      store = storeFixture.store
      cairn = createCairn({ baseUrl: BASE_URL, clock: new FixedClock(NOW), entropy: new SeededEntropy(`proof-${options.name}`), store, blobs: blobs.blobs, keys, logError: () => {} })
      await cairn.ready
      dispose = async () => {
        await cairn.close()
        await storeFixture.dispose()
        await blobs.dispose()
      }
    })
    afterAll(() => dispose())

    const deps = (over: Store): CoreDeps => ({
      store: over, keys, clock: new FixedClock(NOW), entropy: new SeededEntropy(`proof-faults-${options.name}`), blobs: new MemoryBlobStore(), events: new MemoryEventBus(),
      config: { baseUrl: BASE_URL, deployment: EMPTY_DEPLOYMENT_CONFIG },
    })

    it('seals over HTTP with record, ledger event and log leaf stored, and the bytes verify', async () => {
      const body = new FormData()
      body.append('file', new Blob([pngFile([new TextEncoder().encode(options.name)]) as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'scenario.png')
      const response = await cairn.fetch(new Request(`${BASE_URL}/api/document-seal`, { method: 'POST', body, headers: { accept: 'application/octet-stream' } }))
      expect(response.status).toBe(200)
      const sealed = new Uint8Array(await response.arrayBuffer())
      const verdict = await verifyArtifact(sealed, await serviceTrust(deps(store)))
      expect(verdict).toMatchObject({ ok: true, kind: 'integrity-seal' })
      expect((await sealsBySha256(deps(store), verdict.sha256!)).map((seal) => seal.sealKind)).toEqual(['integrity-seal'])
    })

    it(`lets all of ${CONCURRENT_SEALS} concurrent seals succeed, each with its own log leaf`, async () => {
      const leavesBefore = (await store.streamHead(LOG_LEAF_STREAM))?.sequence ?? 0
      const seal = async (i: number) => {
        const body = new FormData()
        body.append('file', new Blob([pngFile([new TextEncoder().encode(`${options.name} concurrent ${i}`)]) as Uint8Array<ArrayBuffer>], { type: 'image/png' }), `c${i}.png`)
        const response = await cairn.fetch(new Request(`${BASE_URL}/api/document-seal`, { method: 'POST', body, headers: { accept: 'application/octet-stream' } }))
        return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) }
      }
      const sealed = await Promise.all(Array.from({ length: CONCURRENT_SEALS }, (_, i) => seal(i)))
      expect(sealed.map((answer) => answer.status)).toEqual(sealed.map(() => 200))
      const trust = await serviceTrust(deps(store))
      for (const { bytes } of sealed) expect(await verifyArtifact(bytes, trust)).toMatchObject({ ok: true })
      expect(((await store.streamHead(LOG_LEAF_STREAM))?.sequence ?? 0) - leavesBefore).toBe(CONCURRENT_SEALS)
    })

    it('a fault before or after the seal commit leaves record, event and leaf all or none', async () => {
      for (const when of ['before', 'after'] as const) {
        const leavesBefore = (await store.streamHead(LOG_LEAF_STREAM))?.sequence ?? 0
        const eventsBefore = (await store.streamHead(ACTION_LEDGER_STREAM))?.sequence ?? 0
        const payload = pngFile([new TextEncoder().encode(`${options.name} fault ${when}`)])
        const faulty = deps(withFaults(store, [{ method: 'commit', call: 1, when }]))
        await expect(sealArtifact(faulty, { bytes: payload, filename: 'f.png', mimeType: 'image/png' }, { sealKind: 'integrity-seal', actorUserId: null }).then(E.isRight)).rejects.toThrow(/Injected fault/)
        const written = when === 'after' ? 1 : 0
        expect(((await store.streamHead(LOG_LEAF_STREAM))?.sequence ?? 0) - leavesBefore).toBe(written)
        expect(((await store.streamHead(ACTION_LEDGER_STREAM))?.sequence ?? 0) - eventsBefore).toBe(written)
      }
    })
  })
}
