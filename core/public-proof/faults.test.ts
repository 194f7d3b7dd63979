/**
 * Fault injection at every Store call of observe and feed publication (conformance/fault-injection.ts):
 * whatever call fails, before or after it reaches the store, each record is stored together with
 * its log leaf and ledger event or not at all, and retrying completes the work exactly once.
 */
import { generateKeyPairSync, sign } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { FixedClock, MemoryKeyStore, MemoryStore, SeededEntropy } from '../../adapters/memory/index.js'
import { MemoryBlobStore } from '../../adapters/memory/memory-blob-store.js'
import { MemoryEventBus } from '../../adapters/memory/memory-event-bus.js'
import { withFaults, type StoreMethod } from '../../conformance/fault-injection.js'
import type { Principal } from '../auth/principal.js'
import { EMPTY_DEPLOYMENT_CONFIG } from '../config/deployment-config.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import { ACTION_LEDGER_STREAM } from '../ledger/action-ledger.js'
import { identityCollections } from '../identity/index.js'
import { LOG_LEAF_STREAM, type LogLeaf } from '../tlog/sequence.js'
import { tlogCollections } from '../tlog/log-store.js'
import type { Store } from '../../ports/store.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { observePublicProof } from './observe.js'
import { publishRegistryFeed } from './publish-feed.js'
import { loadPartnerFeedMark } from './partner-freshness.js'
import { publicProofCollections, publicProofLeaf, PUBLIC_PROOF_RECORDS, publicRecordOf, type StoredPublicProof } from './records.js'

const BEARER: Principal = { kind: 'bearer', subject: 'user-1', clientId: 'ci', scopes: ['cairn:record'], tokenId: 't1', businessTier: false }
const FEED = {
  schema: 'cairn.app_state_feed.v1',
  records: [1, 2, 3].map((n) => ({ id: `r${n}`, sourceUrl: `https://shop.example/${n}`, schema: 's', data: { n } })),
}

const partnerKey = generateKeyPairSync('ed25519')
const PARTNERS = [{ partnerId: 'shopco', keys: [{ kid: 'shop-1', kty: 'OKP' as const, crv: 'Ed25519' as const, x: (partnerKey.publicKey.export({ format: 'jwk' }) as { x: string }).x }] }]
const SIGNED_FEED = (() => {
  const unsigned = { schema: FEED.schema, issuedAt: '2026-06-24T23:59:00.000Z', sequence: 7, records: FEED.records.map((record) => ({ ...record, updatedAt: '2026-06-24T00:00:00.000Z' })) }
  return { ...unsigned, signature: { kid: 'shop-1', alg: 'EdDSA', sig: sign(null, canonicalJsonBytes(unsigned), partnerKey.privateKey).toString('base64url') } }
})()

async function depsOver(store: Store): Promise<CoreDeps> {
  return {
    clock: new FixedClock(Date.parse('2026-06-25T00:00:00Z')),
    entropy: new SeededEntropy('faults'),
    store,
    blobs: new MemoryBlobStore(),
    events: new MemoryEventBus(),
    keys: new MemoryKeyStore(),
    config: { baseUrl: 'https://cairn.example', deployment: { ...EMPTY_DEPLOYMENT_CONFIG, partners: PARTNERS } },
  }
}

async function freshStore(): Promise<MemoryStore> {
  const store = new MemoryStore()
  await store.declare([...identityCollections, ...tlogCollections, ...publicProofCollections])
  return store
}

type Operation = (deps: CoreDeps) => Promise<E.Either<unknown, unknown>>

const operations: Record<string, Operation> = {
  observe: (deps: CoreDeps) => observePublicProof({ params: {}, query: {}, body: { url: 'https://gallery.example/1' }, principal: { kind: 'anonymous' } }, deps),
  feed: (deps: CoreDeps) => publishRegistryFeed({ params: {}, query: {}, body: FEED, principal: BEARER }, deps),
}

/** Every stored record has exactly one leaf (and vice versa), and one ledger event per commit. */
async function expectWhole(store: MemoryStore, expectedRecords: number) {
  const records = (await store.query<StoredPublicProof & Record<string, never>>(PUBLIC_PROOF_RECORDS, { index: 'byUrl', limit: 100 })).items
  const leaves = (await store.readStream<LogLeaf>(LOG_LEAF_STREAM, { limit: 100 })).items.map((entry) => JSON.stringify(entry.value))
  expect(records.length === 0 || records.length === expectedRecords).toBe(true)
  expect(leaves.sort()).toEqual(records.map((record) => JSON.stringify(publicProofLeaf(publicRecordOf(record.value)))).sort())
  const events = (await store.readStream(ACTION_LEDGER_STREAM, { limit: 100 })).items
  expect(events.length).toBe(records.length === 0 ? 0 : 1)
}

/** Runs `run` with a fault at each of the first 8 calls of each method, before and after it reaches the store; `check` judges what was left. */
async function underEveryFault(run: Operation, methods: readonly StoreMethod[], check: (store: MemoryStore, label: string) => Promise<void>) {
  let hit = 0
  for (const method of methods) {
    for (let call = 1; call <= 8; call++) {
      for (const when of ['before', 'after'] as const) {
        const store = await freshStore()
        const faulty = withFaults(store, [{ method, call, when }])
        await run(await depsOver(faulty)).catch(() => undefined)
        if (faulty.callsOf(method) < call) continue
        hit++
        await check(store, `${method} #${call} ${when}`)
      }
    }
  }
  // Every call of the run was faulted before and after: at least its reads and its commit, twice each.
  expect(hit).toBeGreaterThanOrEqual(4)
}

describe.each(Object.entries(operations))('%s under a fault at every Store call', (_name, run) => {
  it('leaves nothing half written, and a retry completes exactly once', async () => {
    const reference = await freshStore()
    const expected = await run(await depsOver(reference))
    expect(E.isRight(expected)).toBe(true)
    const expectedCount = (await reference.query(PUBLIC_PROOF_RECORDS, { index: 'byUrl', limit: 100 })).items.length
    await underEveryFault(run, ['get', 'commit', 'streamHead', 'query'], async (store, label) => {
      await expectWhole(store, expectedCount)
      const retried = await run(await depsOver(store))
      expect(E.isRight(retried), label).toBe(true)
      await expectWhole(store, expectedCount)
      expect((await store.streamHead(LOG_LEAF_STREAM))?.sequence).toBe(expectedCount)
    })
  })
})

describe('a signed partner feed under a fault at every Store call', () => {
  const run = (deps: CoreDeps) => publishRegistryFeed({ params: {}, query: {}, body: SIGNED_FEED, principal: BEARER }, deps)

  it('moves the partner\'s mark with its records or not at all; a retry completes, or says the feed was accepted already', async () => {
    await underEveryFault(run, ['get', 'commit', 'streamHead'], async (store, label) => {
      const marked = (await loadPartnerFeedMark(store, 'shopco')) !== undefined
      await expectWhole(store, marked ? FEED.records.length : 0)
      const retried = await run(await depsOver(store))
      if (marked) expect(retried, label).toEqual(E.left(expect.objectContaining({ _tag: 'Conflict', message: expect.stringContaining('accepted already') })))
      else expect(E.isRight(retried), label).toBe(true)
      await expectWhole(store, FEED.records.length)
      expect((await loadPartnerFeedMark(store, 'shopco'))?.mark.sequence).toBe(7)
    })
  })
})
