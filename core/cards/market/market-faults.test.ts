/**
 * Fault injection at every Store call of every market action (list, open, cancel, bid, buy,
 * settle), before the call reaches the store and after it did its work but the reply was lost:
 * afterwards the market, the card's holding and the ledger always agree (a sold market names the
 * ledger entry that paid for it and the card is the buyer's; an open one holds the card; value is
 * conserved), and the action retried on a healthy store completes or answers that it already did.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../../../adapters/memory/memory-store.js'
import { FixedClock } from '../../../adapters/memory/fixed-clock.js'
import { InjectedFaultError, withFaults, type StoreMethod } from '../../../conformance/fault-injection.js'
import { createValueUser } from '../../../conformance/support/value-users.js'
import { memoryDeps } from '../../../hosts/http/describe-env.js'
import { PINNED_TIME } from '../../../hosts/http/test-support.js'
import type { Principal } from '../../auth/principal.js'
import { collections } from '../../usecases/collections.js'
import type { CoreDeps, UseCase } from '../../usecases/use-case.js'
import { issueValue, trialBalance } from '../../value/index.js'
import { valueEntries } from '../../value/ledger-entry.js'
import { seedOwnedCard } from '../../../conformance/support/signal-cards-test-support.js'
import { loadHeldCard } from '../holdings.js'
import { cardUseCases } from '../index.js'
import { loadMarkets } from './market-view.js'

const METHODS: readonly StoreMethod[] = ['get', 'getByUnique', 'query', 'commit', 'streamHead', 'readStream']
const session = (userId: string): Principal => ({ kind: 'session', userId, sessionId: `ses_${userId}`, businessTier: false, authTimeMs: 0 })

interface World { readonly deps: CoreDeps; readonly store: MemoryStore; readonly clock: FixedClock; readonly cardId: string }

const act = (deps: CoreDeps, cardId: string, userId: string, body: unknown) =>
  (cardUseCases.appendCardAuctionAction as unknown as UseCase)({ params: { cardId }, query: {}, body, principal: session(userId) }, deps)

async function freshWorld(): Promise<World> {
  const store = new MemoryStore()
  const clock = new FixedClock(PINNED_TIME)
  const deps = memoryDeps({ store, clock })
  await store.declare(collections)
  for (const name of ['sam', 'bea']) await createValueUser(store, name)
  const funded = await issueValue(deps, { userId: 'usr_bea', unit: 'phi', amount: '5000', idempotencyKey: 'fund' })
  if (E.isLeft(funded)) throw new Error('funding failed')
  const card = await seedOwnedCard(store, 'usr_sam', 1)
  return { deps, store, clock, cardId: card.cardId }
}

/** The market, the holding and the ledger agree. */
async function expectWhole(world: World): Promise<void> {
  expect((await trialBalance(world.deps)).sums.phi).toBe(0n)
  const [market] = await loadMarkets(world.deps, world.cardId, 1)
  const held = (await loadHeldCard(world.deps, world.cardId))!
  const sales = (await world.store.query(valueEntries.name, { index: 'byCreatedAt', limit: 100 })).items.map(valueEntries.decode).filter((entry) => entry.kind === 'card_sale')
  expect(sales.length).toBe(market?.record.status === 'sold' ? 1 : 0)
  if (market?.record.status === 'sold') {
    expect(market.record.settlement?.entryId).toBe(sales[0]!.entryId)
    expect(held.holding).toMatchObject({ ownerUserId: 'usr_bea', lock: null })
  } else {
    expect(held.holding?.ownerUserId).toBe('usr_sam')
    expect(held.holding?.lock ?? null).toEqual(market?.record.status === 'open' ? { kind: 'market', id: market.record.marketId } : null)
  }
}

interface Scenario {
  readonly name: string
  /** Healthy steps before the faulty one. */
  prepare(world: World): Promise<void>
  readonly userId: string
  readonly body: unknown
}

const list = { action: 'list', pricePhiMicro: '1200' }
const open = { action: 'open', startingBidPhiMicro: '100', durationSeconds: 60 }
const scenarios: readonly Scenario[] = [
  { name: 'list', prepare: async () => {}, userId: 'usr_sam', body: list },
  { name: 'open an auction', prepare: async () => {}, userId: 'usr_sam', body: open },
  { name: 'cancel', prepare: async (w) => void (await act(w.deps, w.cardId, 'usr_sam', list)), userId: 'usr_sam', body: { action: 'cancel' } },
  { name: 'bid', prepare: async (w) => void (await act(w.deps, w.cardId, 'usr_sam', open)), userId: 'usr_bea', body: { action: 'bid', amountPhiMicro: '100', requestId: 'bid-1' } },
  { name: 'buy', prepare: async (w) => void (await act(w.deps, w.cardId, 'usr_sam', list)), userId: 'usr_bea', body: { action: 'buy', pricePhiMicro: '1200' } },
  {
    name: 'settle',
    prepare: async (w) => {
      await act(w.deps, w.cardId, 'usr_sam', open)
      await act(w.deps, w.cardId, 'usr_bea', { action: 'bid', amountPhiMicro: '300' })
      w.clock.advance(60_000)
    },
    userId: 'usr_bea', body: { action: 'settle' },
  },
]

describe('market actions under a fault at every Store call', () => {
  for (const scenario of scenarios) {
    it(`${scenario.name}: the market, the holding and the ledger always agree, and a retry completes it`, async () => {
      const counting = await freshWorld()
      await scenario.prepare(counting)
      const calls = withFaults(counting.store, [])
      expect(E.isRight(await act({ ...counting.deps, store: calls }, counting.cardId, scenario.userId, scenario.body))).toBe(true)
      let faults = 0
      for (const method of METHODS) {
        for (let call = 1; call <= calls.callsOf(method); call++) {
          for (const when of ['before', 'after'] as const) {
            const world = await freshWorld()
            await scenario.prepare(world)
            const faulty = withFaults(world.store, [{ method, call, when }])
            await act({ ...world.deps, store: faulty }, world.cardId, scenario.userId, scenario.body).catch((error: unknown) => {
              if (!(error instanceof InjectedFaultError)) throw error
              faults++
            })
            await expectWhole(world)
            const retried = await act(world.deps, world.cardId, scenario.userId, scenario.body)
            // The retry completes the action, or finds it done already (a second list/cancel/buy/settle conflicts).
            expect(E.isRight(retried) || (E.isLeft(retried) && retried.left._tag === 'Conflict')).toBe(true)
            await expectWhole(world)
          }
        }
      }
      expect(faults).toBeGreaterThan(0)
    })
  }
})
