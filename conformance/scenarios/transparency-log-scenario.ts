/**
 * The transparency-log scenario, run on a whole Cairn over a given store and blob store: leaves
 * sequenced with their records, integration into tiles and a signed checkpoint, receipts verified
 * offline against the published log key, the tiles served over HTTP, and a fault at every Store
 * call of sequencing and integration leaving the tree whole, and the Public Proof operations whose
 * records are its leaves — on every storage combination.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { SeededEntropy } from '../../adapters/memory/seeded-entropy.js'
import { MemoryKeyStore } from '../../adapters/memory/memory-key-store.js'
import { EMPTY_DEPLOYMENT_CONFIG } from '../../core/config/deployment-config.js'
import {
  awaitInclusion,
  commitWithLeaves,
  integrateAll,
  logSigner,
  readInclusionReceipt,
  readLogState,
  tlogCollections,
  verifyInclusionReceipt,
  type LogLeaf,
} from '../../core/tlog/index.js'
import type { Store } from '../../ports/store.js'
import { startHttpServer, type RunningServer } from '../../hosts/http/start-http-server.js'
import { createCairn, type Cairn } from '../../hosts/library/create-cairn.js'
import { withFaults, type StoreMethod } from '../fault-injection.js'
import { issueBearerToken } from '../support/bearer-token.js'
import { publicProofLeaf } from '../../core/public-proof/records.js'
import { leafEntryBytes } from '../../core/tlog/sequence.js'
import { leafHash } from '../../core/tlog/merkle.js'
import { toHex } from '../../core/tlog/base64.js'
import { openBlobFixture, openStoreFixture, type ScenarioOptions } from '../targets.js'

export type TransparencyLogScenarioOptions = ScenarioOptions

const BASE_URL = 'http://cairn.scenario.test'
const NOW = Date.parse('2026-06-25T00:00:00.000Z')
const RECORDS = { name: 'scenario.records' }

export function describeTransparencyLogScenario(options: TransparencyLogScenarioOptions): void {
  describe(`${options.name} transparency-log scenario`, () => {
    let cairn: Cairn
    let server: RunningServer | undefined
    let store: Store
    let dispose: () => Promise<void>
    const keys = new MemoryKeyStore()
    const depsFor = (over: Store) => ({ store: over, keys, clock: new FixedClock(NOW), entropy: new SeededEntropy('tlog-scenario'), config: { baseUrl: BASE_URL, deployment: EMPTY_DEPLOYMENT_CONFIG } })
    const leaf = (i: number): LogLeaf => ({ kind: 'scenario', id: `rec_${i}` })
    const record = (i: number) => ({ kind: 'put' as const, collection: RECORDS.name, key: `rec_${i}`, value: { i }, expect: { kind: 'absent' as const } })

    beforeAll(async () => {
      const storeFixture = await openStoreFixture(options.store)
      const blobs = await openBlobFixture(options.blobs)
      store = storeFixture.store
      await store.declare([...tlogCollections, RECORDS])
      cairn = createCairn({ baseUrl: BASE_URL, clock: new FixedClock(NOW), store, blobs: blobs.blobs, keys, logError: () => {}, logIntegration: false })
      await cairn.ready
      server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
      dispose = async () => {
        await server?.close()
        await cairn.close()
        await storeFixture.dispose()
        await blobs.dispose()
      }
    })
    afterAll(() => dispose())

    it('sequences leaves with their records and proves each one against a signed checkpoint', async () => {
      const deps = depsFor(store)
      const indexes: number[] = []
      for (let i = 0; i < 20; i++) {
        const { outcome, leafIndexes } = await commitWithLeaves(deps, [record(i)], [leaf(i)])
        expect(outcome.ok).toBe(true)
        indexes.push(...leafIndexes)
      }
      expect(indexes).toEqual(Array.from({ length: 20 }, (_, i) => i))
      const vkey = (await logSigner(keys, BASE_URL)).verifierKey
      for (const index of [0, 7, 19]) expect(verifyInclusionReceipt(leaf(index), await awaitInclusion(deps, index), vkey).ok).toBe(true)
      // Served over HTTP in-process and through the listening server alike.
      for (const get of [(p: string) => cairn.fetch(new Request(`${BASE_URL}${p}`)), (p: string) => fetch(`${server!.url}${p}`)]) {
        expect((await (await get('/log/checkpoint')).text()).split('\n')[1]).toBe('20')
        expect((await get('/log/tile/0/000.p/20')).status).toBe(200)
        expect((await (await get('/log/tile/entries/000.p/20')).arrayBuffer()).byteLength).toBeGreaterThan(20 * 2)
        expect(await (await get('/log/proof/inclusion?index=19')).json()).toMatchObject({ ok: true, leafIndex: 19, treeSize: 20 })
      }
    })

    it('observes, publishes and looks up public proof records, each proven by the log', async () => {
      const call = (path: string, init?: RequestInit) => fetch(`${server!.url}${path}`, init)
      const json = { 'content-type': 'application/json' }
      const observed = await (await call('/api/public-proof/observe', { method: 'POST', headers: json, body: JSON.stringify({ url: 'HTTPS://Scenario.Example/work#x' }) })).json()
      expect(observed).toMatchObject({ ok: true, created: true, record: { sourceUrl: 'https://scenario.example/work' } })
      const again = await (await call('/api/public-proof/observe', { method: 'POST', headers: json, body: JSON.stringify({ url: 'https://scenario.example/work' }) })).json()
      expect(again).toMatchObject({ created: false, record: { id: observed.record.id } })
      const { accessToken } = await issueBearerToken(call, BASE_URL, NOW, ['cairn:record'])
      const feed = { schema: 'cairn.app_state_feed.v1', records: [{ id: 's1', sourceUrl: 'https://scenario.example/app', schema: 's', data: { v: 1 }, externalCreatorId: 'maker' }] }
      const publish = () => call('/api/public-proof/registry/feed', { method: 'POST', headers: { ...json, authorization: `Bearer ${accessToken}` }, body: JSON.stringify(feed) })
      const published = await (await publish()).json()
      expect(published).toMatchObject({ ok: true, accepted: 1, rejected: 0 })
      const leaves = (await store.streamHead('tlog.leaves'))!.sequence
      expect(await (await publish()).json()).toEqual(published)
      expect((await store.streamHead('tlog.leaves'))!.sequence).toBe(leaves)
      expect(await (await call('/api/public-proof/creator/maker')).json()).toMatchObject({ records: [{ id: published.records[0].id }] })
      expect(await (await call('/api/public-proof/namespace/scenario.example?limit=1')).json()).toMatchObject({ records: [expect.anything()], nextCursor: expect.any(String) })
      await integrateAll(depsFor(store))
      const vkey = (await logSigner(keys, BASE_URL)).verifierKey
      for (const record of [observed.record, published.records[0]]) {
        const leafRecord = publicProofLeaf(record)
        const receipt = await (await call(`/log/proof/leaf/${toHex(leafHash(leafEntryBytes(leafRecord)))}`)).json()
        expect(verifyInclusionReceipt(leafRecord, receipt, vkey).ok).toBe(true)
      }
    })

    it('keeps the tree whole when any Store call of sequencing or integration fails', async () => {
      const vkey = (await logSigner(keys, BASE_URL)).verifierKey
      let next = 100
      let faultsHit = 0
      for (const method of ['get', 'commit', 'streamHead', 'readStream'] as StoreMethod[]) {
        for (let call = 1; call <= 5; call++) {
          for (const when of ['before', 'after'] as const) {
            const faulty = withFaults(store, [{ method, call, when }])
            const ids = [next++, next++]
            try {
              for (const id of ids) await commitWithLeaves(depsFor(faulty), [record(id)], [leaf(id)])
              await integrateAll(depsFor(faulty))
            } catch {
              // The caller retries what it did not see succeed; a record's key guards a repeat.
            }
            if (faulty.callsOf(method) >= call) faultsHit++
            for (const id of ids) if (!(await store.get(RECORDS.name, `rec_${id}`))) await commitWithLeaves(depsFor(store), [record(id)], [leaf(id)])
            const after = await integrateAll(depsFor(store))
            const head = await store.streamHead('tlog.leaves')
            expect(after.size, `${method} #${call} ${when}`).toBe(head!.sequence)
          }
        }
      }
      expect(faultsHit).toBeGreaterThan(10)
      // Every leaf in the stream is in the tree exactly where the stream put it.
      const state = (await readLogState(store))!.value
      const entries = await store.readStream<LogLeaf & Record<string, string>>('tlog.leaves', { limit: 1000 })
      expect(entries.items.length).toBe(state.size)
      for (const entry of entries.items) {
        expect(verifyInclusionReceipt(entry.value, (await readInclusionReceipt({ store }, entry.sequence - 1))!, vkey).ok).toBe(true)
      }
    })
  })
}
