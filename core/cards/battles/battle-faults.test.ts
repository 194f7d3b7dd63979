/**
 * Fault injection at every Store call of every battle step that moves value or cards (a money
 * request, accept, reveal, decline; a card battle's accept and reveal), before the call reaches the
 * store and after it did its work but the reply was lost: afterwards every battle's escrow holds
 * exactly what its state says it should, the cards' locks and owners match the battles, value is
 * conserved, and retrying the step (then `settle`) completes it.
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
import { battleEscrowAccount, loadAccount } from '../../value/accounts.js'
import { issueValue, trialBalance } from '../../value/index.js'
import { fromDecimal } from '../../value/amount.js'
import { seedOwnedCard } from '../../../conformance/support/signal-cards-test-support.js'
import { loadHeldCard } from '../holdings.js'
import { cardUseCases } from '../index.js'
import { cardBattles } from './battle-records.js'
import { battleIdOf, commitmentOf } from './battle-rules.js'

const METHODS: readonly StoreMethod[] = ['get', 'getByUnique', 'query', 'commit', 'streamHead', 'readStream']
const SEED = 'challenger-seed-00000001'
const session = (userId: string): Principal => ({ kind: 'session', userId, sessionId: `ses_${userId}`, businessTier: false, authTimeMs: 0 })

interface World { readonly deps: CoreDeps; readonly store: MemoryStore; readonly cards: readonly [string, string]; battleId?: string }

const call = (deps: CoreDeps, operation: 'createBattleRequest' | 'answerBattleRequest', userId: string, body: unknown) =>
  (cardUseCases[operation] as unknown as UseCase)({ params: {}, query: {}, body, principal: session(userId) }, deps)

async function freshWorld(): Promise<World> {
  const store = new MemoryStore()
  const deps = memoryDeps({ store, clock: new FixedClock(PINNED_TIME) })
  await store.declare(collections)
  for (const name of ['sam', 'bea']) {
    await createValueUser(store, name)
    const funded = await issueValue(deps, { userId: `usr_${name}`, unit: 'phi', amount: '5000', idempotencyKey: `fund-${name}` })
    if (E.isLeft(funded)) throw new Error('funding failed')
  }
  const cards = [(await seedOwnedCard(store, 'usr_sam', 1)).cardId, (await seedOwnedCard(store, 'usr_bea', 2)).cardId] as const
  return { deps, store, cards }
}

const requestBody = (world: World, stake: string) => ({
  challengerCardId: world.cards[0], opponentCardId: world.cards[1], stake, seedCommitment: commitmentOf({ battleId: battleIdOf('usr_sam', 'r-1'), challengerUserId: 'usr_sam', seed: SEED }), requestId: 'r-1', ...(stake === 'money' ? { stakePhiMicro: '1000' } : {}),
})

async function requested(world: World, stake: string): Promise<void> {
  const reply = await call(world.deps, 'createBattleRequest', 'usr_sam', requestBody(world, stake))
  if (E.isLeft(reply) || reply.right.kind !== 'json') throw new Error('request failed')
  world.battleId = (reply.right.body as { battle: { battleId: string } }).battle.battleId
}
const accepted = async (world: World, stake: string) => {
  await requested(world, stake)
  await call(world.deps, 'answerBattleRequest', 'usr_bea', { battleId: world.battleId, action: 'accept', seed: 'opponent-seed-0000000001' })
}

/** Every battle's escrow holds what its state says; card locks and owners agree with the battles. */
async function expectWhole(world: World): Promise<void> {
  expect((await trialBalance(world.deps)).sums.phi).toBe(0n)
  const battles = (await world.store.query(cardBattles.name, { index: 'by_challenger', limit: 10 })).items.map(cardBattles.decode)
  for (const battle of battles) {
    const stake = battle.stakePhiMicro === null ? 0n : fromDecimal(battle.stakePhiMicro)
    const owed = battle.payouts.filter((payout) => payout.entryId === null).reduce((sum, payout) => sum + fromDecimal(payout.amountPhiMicro), 0n)
    const expected = battle.status === 'pending' ? stake : battle.status === 'accepted' ? 2n * stake : owed
    expect((await loadAccount(world.deps, 'phi', battleEscrowAccount(battle.battleId))).balance).toBe(expected)
    if (battle.stake !== 'card') continue
    const [mine, theirs] = await Promise.all(world.cards.map((cardId) => loadHeldCard(world.deps, cardId)))
    const locked = (held: typeof mine) => held?.holding?.lock?.id === battle.battleId
    expect([locked(mine), locked(theirs)]).toEqual([battle.status === 'pending' || battle.status === 'accepted', battle.status === 'accepted'])
    if (battle.status === 'settled' && battle.outcome!.winner !== 'draw') {
      const winner = battle.outcome!.winner === 'challenger' ? 'usr_sam' : 'usr_bea'
      expect([mine?.holding?.ownerUserId, theirs?.holding?.ownerUserId]).toEqual([winner, winner])
    }
  }
  if (battles.length === 0) expect((await trialBalance(world.deps)).accounts.filter((account) => account.account.startsWith('escrow:') && account.balance !== '0')).toEqual([])
}

interface Scenario {
  readonly name: string
  prepare(world: World): Promise<void>
  step(world: World, deps: CoreDeps): ReturnType<typeof call>
}

const reveal: Scenario['step'] = (world, deps) => call(deps, 'answerBattleRequest', 'usr_sam', { battleId: world.battleId, action: 'reveal', seed: SEED })
const accept: Scenario['step'] = (world, deps) => call(deps, 'answerBattleRequest', 'usr_bea', { battleId: world.battleId, action: 'accept', seed: 'opponent-seed-0000000001' })
const scenarios: readonly Scenario[] = [
  { name: 'a money request', prepare: async () => {}, step: (world, deps) => call(deps, 'createBattleRequest', 'usr_sam', requestBody(world, 'money')) },
  { name: 'a money accept', prepare: (world) => requested(world, 'money'), step: accept },
  { name: 'a money reveal', prepare: (world) => accepted(world, 'money'), step: reveal },
  { name: 'a money decline', prepare: (world) => requested(world, 'money'), step: (world, deps) => call(deps, 'answerBattleRequest', 'usr_bea', { battleId: world.battleId, action: 'decline' }) },
  { name: 'a card accept', prepare: (world) => requested(world, 'card'), step: accept },
  { name: 'a card reveal', prepare: (world) => accepted(world, 'card'), step: reveal },
]

describe('battle steps under a fault at every Store call', () => {
  for (const scenario of scenarios) {
    it(`${scenario.name}: escrow, cards and battle agree, and a retry completes it`, async () => {
      const counting = await freshWorld()
      await scenario.prepare(counting)
      const calls = withFaults(counting.store, [])
      expect(E.isRight(await scenario.step(counting, { ...counting.deps, store: calls }))).toBe(true)
      let faults = 0
      for (const method of METHODS) {
        for (let callIndex = 1; callIndex <= calls.callsOf(method); callIndex++) {
          for (const when of ['before', 'after'] as const) {
            const world = await freshWorld()
            await scenario.prepare(world)
            await scenario.step(world, { ...world.deps, store: withFaults(world.store, [{ method, call: callIndex, when }]) }).catch((error: unknown) => {
              if (!(error instanceof InjectedFaultError)) throw error
              faults++
            })
            await expectWhole(world)
            const retried = await scenario.step(world, world.deps)
            expect(E.isRight(retried) || (E.isLeft(retried) && retried.left._tag === 'Conflict')).toBe(true)
            if (world.battleId) expect(E.isRight(await call(world.deps, 'answerBattleRequest', 'usr_sam', { battleId: world.battleId, action: 'settle' }))).toBe(true)
            await expectWhole(world)
            const battle = (await world.store.query(cardBattles.name, { index: 'by_challenger', limit: 10 })).items.map(cardBattles.decode)
            expect(battle.flatMap((b) => b.payouts).every((payout) => payout.entryId !== null)).toBe(true)
          }
        }
      }
      expect(faults).toBeGreaterThan(0)
    })
  }
})
