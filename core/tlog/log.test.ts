/**
 * The log over a Store: leaves sequenced with their records, integration into tiles and signed
 * checkpoints, receipts that verify offline, hosts racing on one store, and a fault at every Store
 * call of sequencing and integration.
 */
import { describe, expect, it } from 'vitest'
import { FixedClock, MemoryKeyStore, MemoryStore, SeededEntropy } from '../../adapters/memory/index.js'
import { MemoryBlobStore } from '../../adapters/memory/memory-blob-store.js'
import { MemoryEventBus } from '../../adapters/memory/memory-event-bus.js'
import { withFaults, type StoreMethod } from '../../conformance/fault-injection.js'
import type { KeyStore } from '../../ports/key-store.js'
import type { Store } from '../../ports/store.js'
import { EMPTY_DEPLOYMENT_CONFIG } from '../config/deployment-config.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { openCheckpoint } from './checkpoint.js'
import { verifyCheckpointConsistency, awaitInclusion, readInclusionReceiptForLeaf, readConsistencyProof, readInclusionReceipt, verifyInclusionReceipt } from './inclusion.js'
import { integrateAll, integrateStep } from './integrate.js'
import { logSigner } from './log-identity.js'
import { LOG_STATE_COLLECTION, LOG_STATE_KEY, LOG_TILES_COLLECTION, readLogState, tlogCollections } from './log-store.js'
import { CorruptDocumentError } from '../usecases/typed-collection.js'
import { toBase64 } from './base64.js'
import { commitWithLeaves, type LogLeaf } from './sequence.js'

const BASE_URL = 'https://cairn.example'

async function depsOver(store: Store, keys: KeyStore = new MemoryKeyStore()): Promise<CoreDeps> {
  await store.declare([...tlogCollections, { name: 'records' }])
  return {
    clock: new FixedClock(Date.parse('2026-06-25T00:00:00Z')),
    entropy: new SeededEntropy('tlog'),
    store,
    blobs: new MemoryBlobStore(),
    events: new MemoryEventBus(),
    keys,
    config: { baseUrl: BASE_URL, deployment: EMPTY_DEPLOYMENT_CONFIG },
  }
}

/** Another host's handle on the same store: a distinct object, so nothing in-process is shared with the others. */
const otherHandle = (store: Store): Store =>
  new Proxy(store, { get: (target, name) => (typeof Reflect.get(target, name) === 'function' ? (Reflect.get(target, name) as (...args: unknown[]) => unknown).bind(target) : Reflect.get(target, name)) })

/** Another handle on `store` that shows every call of `method` to `watch` before making it. */
function watching<M extends 'get' | 'commit'>(store: Store, method: M, watch: (...args: Parameters<Store[M]>) => void): Store {
  const handle = otherHandle(store)
  return new Proxy(handle, {
    get: (target, name) =>
      name === method
        ? (...args: Parameters<Store[M]>) => {
            watch(...args)
            return (target[method] as (...args: Parameters<Store[M]>) => unknown)(...args)
          }
        : target[name as keyof Store],
  })
}

const leafFor = (i: number): LogLeaf => ({ kind: 'test', id: `rec_${i}`, n: i })

async function sequence(deps: CoreDeps, i: number): Promise<number> {
  const { outcome, leafIndexes } = await commitWithLeaves(deps, [{ kind: 'put', collection: 'records', key: `rec_${i}`, value: { i }, expect: { kind: 'absent' } }], [leafFor(i)])
  if (!outcome.ok) throw new Error('commit failed')
  return leafIndexes[0]!
}

describe('transparency log over a Store', () => {
  it('sequences a leaf with its record, integrates it and answers a receipt that verifies offline', async () => {
    const deps = await depsOver(new MemoryStore())
    const vkey = (await logSigner(deps.keys, BASE_URL)).verifierKey
    expect(vkey.startsWith('cairn.example/log+')).toBe(true)
    const indexes = []
    for (let i = 0; i < 5; i++) indexes.push(await sequence(deps, i))
    expect(indexes).toEqual([0, 1, 2, 3, 4])
    expect(await readInclusionReceipt(deps, 0)).toBeUndefined()

    const receipt = await awaitInclusion(deps, 3)
    expect(receipt).toMatchObject({ leafIndex: 3, treeSize: 5 })
    expect(verifyInclusionReceipt(leafFor(3), receipt, vkey)).toMatchObject({ ok: true, checkpoint: { size: 5, origin: 'cairn.example/log' } })
    expect(await readInclusionReceiptForLeaf(deps, leafFor(3))).toEqual(receipt)
    expect(await readInclusionReceiptForLeaf(deps, leafFor(9))).toBeUndefined()
    expect(verifyInclusionReceipt(leafFor(2), receipt, vkey)).toMatchObject({ ok: false })
    expect(verifyInclusionReceipt({ ...leafFor(3), n: 4 }, receipt, vkey)).toMatchObject({ ok: false })
    expect(verifyInclusionReceipt(leafFor(3), { ...receipt, leafIndex: 2 }, vkey)).toMatchObject({ ok: false })
    const otherKey = (await logSigner(new MemoryKeyStore(), BASE_URL)).verifierKey
    expect(verifyInclusionReceipt(leafFor(3), receipt, otherKey)).toMatchObject({ ok: false, error: expect.stringContaining('no signature') })
  })

  it('signs the empty tree first, then proves each checkpoint consistent with the last', async () => {
    const deps = await depsOver(new MemoryStore())
    const vkey = (await logSigner(deps.keys, BASE_URL)).verifierKey
    const empty = await integrateStep(deps)
    expect(empty).toMatchObject({ size: 0, integrated: 0 })
    expect(openCheckpoint(empty.state.checkpoint, vkey)).toMatchObject({ ok: true, checkpoint: { size: 0 } })
    const checkpoints = [empty.state.checkpoint]
    for (const batch of [1, 3, 300, 2]) {
      for (let i = 0; i < batch; i++) await sequence(deps, checkpoints.length * 1000 + i)
      checkpoints.push((await integrateAll(deps)).state.checkpoint)
    }
    const sizes = [0, 1, 4, 304, 306]
    for (let a = 0; a < sizes.length; a++) {
      for (let b = a; b < sizes.length; b++) {
        const proof = (await readConsistencyProof(deps, sizes[a]!, sizes[b]!))!.map(toBase64)
        expect(verifyCheckpointConsistency(checkpoints[a]!, checkpoints[b]!, proof, vkey), `${sizes[a]}→${sizes[b]}`).toMatchObject({ ok: true })
      }
    }
    expect(await readConsistencyProof(deps, 1, 307)).toBeUndefined()
    const wrong = (await readConsistencyProof(deps, 4, 306))!.map(toBase64)
    expect(verifyCheckpointConsistency(checkpoints[1]!, checkpoints[4]!, wrong, vkey)).toMatchObject({ ok: false })
  })

  it('integrates more leaves than one step holds, and a second run changes nothing', async () => {
    const deps = await depsOver(new MemoryStore())
    const leaves = Array.from({ length: 1300 }, (_, i) => leafFor(i))
    for (let at = 0; at < leaves.length; at += 100) await commitWithLeaves(deps, [], leaves.slice(at, at + 100))
    expect((await integrateStep(deps)).size).toBe(1000)
    const result = await integrateAll(deps)
    expect(result.size).toBe(1300)
    const again = await integrateAll(deps)
    expect(again).toMatchObject({ size: 1300, integrated: 0 })
    expect(again.state.checkpoint).toBe(result.state.checkpoint)
    expect(verifyInclusionReceipt(leaves[1299]!, (await readInclusionReceipt(deps, 1299))!, (await logSigner(deps.keys, BASE_URL)).verifierKey).ok).toBe(true)
  })

  it('refuses to build on a stored tree state or tile that does not decode, naming the field, and writes nothing', async () => {
    const deps = await depsOver(new MemoryStore())
    for (let i = 0; i < 3; i++) await sequence(deps, i)
    await integrateAll(deps)
    const state = (await readLogState(deps.store))!
    await sequence(deps, 3)
    const corrupt = { ...state.value, size: String(state.value.size) }
    expect((await deps.store.commit([{ kind: 'put', collection: LOG_STATE_COLLECTION, key: LOG_STATE_KEY, value: corrupt, expect: { kind: 'version', version: state.version } }])).ok).toBe(true)
    const integrating = integrateStep(deps)
    await expect(integrating).rejects.toBeInstanceOf(CorruptDocumentError)
    await expect(integrating).rejects.toThrow(`Stored document ${LOG_STATE_COLLECTION}/${LOG_STATE_KEY} does not match its codec at size`)
    expect((await deps.store.get(LOG_STATE_COLLECTION, LOG_STATE_KEY))!.value).toEqual(corrupt)

    const tiles = await depsOver(new MemoryStore())
    for (let i = 0; i < 3; i++) await sequence(tiles, i)
    await integrateAll(tiles)
    expect((await tiles.store.commit([{ kind: 'put', collection: LOG_TILES_COLLECTION, key: '0/0', value: { level: 0, index: 0, width: 3 }, expect: { kind: 'any' } }])).ok).toBe(true)
    await expect(readInclusionReceipt(tiles, 1)).rejects.toThrow(`Stored document ${LOG_TILES_COLLECTION}/0/0 does not match its codec at hashes`)
  })

  it('lets hosts sharing one store integrate at once without forking the tree', async () => {
    const store = new MemoryStore()
    const keys = new MemoryKeyStore()
    const hosts = await Promise.all([depsOver(otherHandle(store), keys), depsOver(otherHandle(store), keys), depsOver(otherHandle(store), keys)])
    const vkey = (await logSigner(keys, BASE_URL)).verifierKey
    const receipts = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const host = hosts[i % hosts.length]!
        const index = await sequence(host, i)
        return { i, index, receipt: await awaitInclusion(host, index) }
      }),
    )
    expect(new Set(receipts.map((r) => r.index)).size).toBe(30)
    const final = await integrateAll(hosts[0]!)
    expect(final.size).toBe(30)
    for (const { i, receipt } of receipts) expect(verifyInclusionReceipt(leafFor(i), receipt, vkey).ok).toBe(true)
    // Every checkpoint any host handed out is consistent with the final one: one tree, no fork.
    for (const { receipt } of receipts) {
      const proof = (await readConsistencyProof(hosts[0]!, receipt.treeSize, 30))!.map(toBase64)
      expect(verifyCheckpointConsistency(receipt.checkpoint, final.state.checkpoint, proof, vkey).ok).toBe(true)
    }
  })

  it('gives callers waiting at once on one store one shared integration step, not one rival step each', async () => {
    let integrations = 0
    const deps = await depsOver(watching(new MemoryStore(), 'commit', (writes) => (integrations += writes.some((w) => w.kind === 'put' && w.collection === LOG_STATE_COLLECTION) ? 1 : 0)))
    await integrateStep(deps) // the empty tree's checkpoint
    integrations = 0
    const indexes = []
    for (let i = 0; i < 32; i++) indexes.push(await sequence(deps, i))
    const receipts = await Promise.all(indexes.map((index) => awaitInclusion(deps, index)))
    expect(integrations).toBe(1)
    const vkey = (await logSigner(deps.keys, BASE_URL)).verifierKey
    for (const [i, receipt] of receipts.entries()) expect(verifyInclusionReceipt(leafFor(i), receipt, vkey)).toMatchObject({ ok: true, checkpoint: { size: 32 } })
  })

  it('answers a just-sequenced leaf from the step it runs (one read of the tree state), an old leaf too, and refuses a leaf never sequenced', async () => {
    let stateReads = 0
    const deps = await depsOver(watching(new MemoryStore(), 'get', (collection) => (stateReads += collection === LOG_STATE_COLLECTION ? 1 : 0)))
    const vkey = (await logSigner(deps.keys, BASE_URL)).verifierKey
    const first = await sequence(deps, 0)
    await awaitInclusion(deps, first)
    const index = await sequence(deps, 1)
    stateReads = 0
    const receipt = await awaitInclusion(deps, index)
    // The step reads the state it extends; the receipt is taken against the state it committed.
    expect(stateReads).toBe(1)
    expect(verifyInclusionReceipt(leafFor(1), receipt, vkey)).toMatchObject({ ok: true, checkpoint: { size: 2 } })
    expect(receipt).toEqual(await readInclusionReceipt(deps, index))
    expect(verifyInclusionReceipt(leafFor(0), await awaitInclusion(deps, first), vkey)).toMatchObject({ ok: true, checkpoint: { size: 2 } })
    await expect(awaitInclusion(deps, 2)).rejects.toThrow(new RangeError('Log leaf 2 was never sequenced'))
  })

  it('survives a fault at every Store call of sequencing and integration: nothing half written, a retry completes', async () => {
    const reference = await depsOver(new MemoryStore())
    const keys = reference.keys
    for (let i = 0; i < 3; i++) await sequence(reference, i)
    await integrateAll(reference)
    for (let i = 3; i < 6; i++) await sequence(reference, i)
    const expected = await integrateAll(reference)

    const methods: StoreMethod[] = ['get', 'commit', 'streamHead', 'readStream']
    let faultsHit = 0
    for (const method of methods) {
      for (let call = 1; call <= 12; call++) {
        for (const when of ['before', 'after'] as const) {
          const inner = new MemoryStore()
          const clean = await depsOver(inner, keys)
          for (let i = 0; i < 3; i++) await sequence(clean, i)
          await integrateAll(clean)
          const faulty = withFaults(inner, [{ method, call, when }])
          const deps = { ...clean, store: faulty }
          let failed = false
          try {
            for (let i = 3; i < 6; i++) await sequence(deps, i)
            await integrateAll(deps)
          } catch {
            failed = true
          }
          if (faulty.callsOf(method) < call) continue
          faultsHit++
          // The state is whole either way: the tree matches its tiles and its leaves.
          const state = (await readLogState(inner))!.value
          for (let index = 0; index < state.size; index++) {
            expect(verifyInclusionReceipt(leafFor(index), (await readInclusionReceipt(clean, index))!, (await logSigner(keys, BASE_URL)).verifierKey).ok).toBe(true)
          }
          if (failed) {
            // The caller retries what it did not see succeed: leaves once (a record key guards a
            // repeat), then integration.
            for (let i = 3; i < 6; i++) {
              if (!(await inner.get('records', `rec_${i}`))) await sequence(clean, i)
            }
          }
          const after = await integrateAll(clean)
          expect(after.size, `${method} #${call} ${when}`).toBe(6)
          expect(after.state.rootHash, `${method} #${call} ${when}`).toBe(expected.state.rootHash)
        }
      }
    }
    // Sequencing is one commit a leaf (appendNext reads no head first); integration makes the rest.
    expect(faultsHit).toBeGreaterThanOrEqual(18)
  })
})
