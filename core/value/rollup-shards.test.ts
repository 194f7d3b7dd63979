/**
 * The wallet ledger's rollup kept in shards (wallet-feed.ts): however the events are spread over
 * the shards, folded they say what one rollup over every event would.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../../adapters/memory/memory-store.js'
import { collections } from '../usecases/collections.js'
import { addToRollup, EMPTY_ROLLUP, loadRollup, loadRollupShard, ROLLUP_SHARDS, rollupWrite, type WalletEventKind, type WalletLedgerEventValue } from './wallet-feed.js'

const KINDS: readonly WalletEventKind[] = ['transfer', 'note_mint', 'note_claim', 'issuance', 'checkout', 'settlement']

const event = (kind: WalletEventKind, phi: bigint, usd: bigint, i: number): WalletLedgerEventValue => ({
  amountPhiMicro: String(phi), amountUsdCents: String(usd), createdAt: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(),
  fromActor: 'wal_a', id: `wle_${i}`, kind, pulse: i, toActor: 'wal_b',
})

/** Events in the order they were created, each with the shard its host added it to. */
const spreadEvents = fc.array(
  fc.record({ kind: fc.constantFrom(...KINDS), phi: fc.bigInt({ min: 0n, max: 10n ** 15n }), usd: fc.bigInt({ min: 0n, max: 10n ** 9n }), shard: fc.integer({ min: 0, max: ROLLUP_SHARDS - 1 }) }),
  { maxLength: 40 },
)

describe('the rollup in shards', () => {
  it('folds to the rollup of every event, however the events were spread over the shards', async () => {
    await fc.assert(fc.asyncProperty(spreadEvents, async (spread) => {
      const store = new MemoryStore()
      await store.declare(collections)
      let whole = EMPTY_ROLLUP
      for (const [i, { kind, phi, usd, shard }] of spread.entries()) {
        const added = event(kind, phi, usd, i)
        whole = addToRollup(whole, added)
        const { rollup, version } = await loadRollupShard({ store }, shard)
        expect((await store.commit([rollupWrite(shard, addToRollup(rollup, added), version)])).ok).toBe(true)
      }
      expect(await loadRollup({ store })).toEqual(whole)
    }), { numRuns: 60 })
  })

  it('serves one shard as stored, and none as the empty rollup', async () => {
    const store = new MemoryStore()
    await store.declare(collections)
    expect(await loadRollup({ store })).toEqual(EMPTY_ROLLUP)
    // A rollup written before the settlement count existed keeps its members as they are.
    const older = { ...EMPTY_ROLLUP, totalTransferEvents: '3' } as Record<string, string>
    delete older.totalSettlementEvents
    expect((await store.commit([{ kind: 'put', collection: 'value.rollup', key: 'wallet-ledger', value: older, expect: { kind: 'absent' } }])).ok).toBe(true)
    expect(await loadRollup({ store })).toEqual(older)
  })
})
