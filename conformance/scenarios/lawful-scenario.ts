/**
 * The Lawful Economy scenario, on every storage combination: a law registered from its owner's
 * sealed proof object, an action admitted, hand-overs of one custody racing through two Store
 * connections (two processes of one deployment) so exactly one wins, the same value-head
 * derivation racing itself on both connections so it is paid once, and the new holder settling
 * the rest up to the sealed completion. Value is conserved after every step.
 */
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryBlobStore, MemoryEventBus, MemoryKeyStore } from '../../adapters/memory/index.js'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { SeededEntropy } from '../../adapters/memory/seeded-entropy.js'
import { lawfulMemberships, lawfulUseCases } from '../../core/lawful/index.js'
import { actionOf, lawfulBearer, lawOf, payloadDigest, proofObjectOf, sealJsonFor } from '../../core/lawful/lawful-test-support.js'
import { kaiMomentAt } from '../../core/time/kai.js'
import { collections } from '../../core/usecases/collections.js'
import type { CoreDeps, Reply, UseCase } from '../../core/usecases/use-case.js'
import { issueValue, trialBalance, valueUseCases } from '../../core/value/index.js'
import { loadAccount, walletAccount } from '../../core/value/accounts.js'
import type { DomainError } from '../../core/errors/domain-error.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { openValueAuthority } from '../support/value-authority.js'
import { createValueUser, valueBearer } from '../support/value-users.js'
import { openStoreFixture, secondHost, type StoreConformanceOptions } from '../targets.js'

export interface LawfulScenarioOptions {
  readonly name: string
  readonly store: StoreConformanceOptions['create']
}

const T0 = Date.parse('2026-06-25T00:00:00.000Z')
const PULSE_MS = 5236

export function describeLawfulScenario(options: LawfulScenarioOptions): void {
  describe(`${options.name} lawful economy scenario`, () => {
    let deps: CoreDeps
    let second: CoreDeps
    let clock: FixedClock
    let dispose: () => Promise<void>

    beforeAll(async () => {
      const fixture = await openStoreFixture(options.store)
      clock = new FixedClock(T0)
      deps = {
        clock, entropy: new SeededEntropy(`lawful-${options.name}`), store: fixture.store, blobs: new MemoryBlobStore(), events: new MemoryEventBus(),
        keys: new MemoryKeyStore(), config: { baseUrl: 'http://cairn.lawful.test', deployment: {} },
      }
      await deps.store.declare(collections)
      second = { ...deps, store: await secondHost(fixture, collections) }
      dispose = () => fixture.dispose()
    })
    afterAll(() => dispose())

    const call = (on: CoreDeps, op: keyof typeof lawfulUseCases, userId: string, body: unknown) =>
      (lawfulUseCases[op] as unknown as UseCase)({ params: {}, query: {}, body, principal: lawfulBearer(userId) }, on)
    const ok = (reply: Either<DomainError, Reply>) => {
      if (E.isLeft(reply) || reply.right.kind !== 'json') throw new Error(E.isLeft(reply) ? reply.left.message : 'not JSON')
      return reply.right.body as { action: string; admissionDigest: string; valueHeadDigest: string }
    }
    const conserved = async () => expect((await trialBalance(deps)).sums).toEqual({ phi: 0n, usd: 0n })

    it('admits, hands over exactly once under racing processes, and pays each pulse once', async () => {
      const [ada, bob, cy, dee] = await Promise.all(['ada', 'bob', 'cy', 'dee'].map((name) => createValueUser(deps.store, name)))
      const issued = await issueValue(deps, { userId: ada!, unit: 'phi', amount: '100000', idempotencyKey: 'seed' })
      if (E.isLeft(issued)) throw new Error(issued.left.message)
      ok(await (valueUseCases.executeReserve as unknown as UseCase)({
        params: {}, query: {}, principal: valueBearer(ada!),
        body: { intent: { schema: 'cairn.value.reserve.v1', idempotencyKey: 'reserve', amountPhiMicro: '50000' }, authorityDigest: await openValueAuthority(deps, valueBearer(ada!)) },
      }, deps))

      const law = lawOf()
      const lawDigest = payloadDigest(law)
      expect(ok(await call(deps, 'registerLaw', ada!, { proofObject: proofObjectOf(await sealJsonFor(deps, ada!, law)), idempotencyKey: 'law' })).action).toBe('law-registered')
      const start = kaiMomentAt(T0).pulse + 5
      const action = actionOf(lawDigest, { startedAtKaiPulse: start, completedAtKaiPulse: start + 60, custodianUserId: bob! })
      const first = ok(await call(second, 'admitLawfulAction', bob!, { lawDigest, proofObject: proofObjectOf(await sealJsonFor(deps, ada!, action)), expectedPriorAdmissionDigest: null, idempotencyKey: 'admit' }))
      expect(first.admissionDigest).toBe(payloadDigest(action))

      // Bob pays himself for the first 20 pulses, racing the same request on both connections.
      clock.set(T0 + 25 * PULSE_MS)
      const through = kaiMomentAt(clock.now()).pulse
      const derivation = { membershipId: first.admissionDigest, expectedPriorValueHeadDigest: null }
      const heads = await Promise.all([deps, second, deps, second].map((on) => call(on, 'deriveValueHead', bob!, derivation)))
      expect(new Set(heads.map((reply) => ok(reply).valueHeadDigest)).size).toBe(1)
      expect((await loadAccount(deps, 'phi', walletAccount(bob!))).balance).toBe(7n * BigInt(through - start))
      await conserved()

      // Three hand-overs of the same custody, sealed by Bob, race on two connections: one wins.
      const handOvers = await Promise.all([cy!, dee!, ada!].map(async (to, i) => ({
        lawDigest, expectedPriorAdmissionDigest: first.admissionDigest, idempotencyKey: `hand-over-${i}`,
        proofObject: proofObjectOf(await sealJsonFor(deps, bob!, { ...action, priorAdmissionDigest: first.admissionDigest, custodianUserId: to })),
      })))
      const raced = await Promise.all(handOvers.map((body, i) => call(i % 2 === 0 ? deps : second, 'admitLawfulAction', bob!, body)))
      expect(raced.filter(E.isRight).length).toBe(1)
      expect(raced.filter(E.isLeft).map((reply) => reply.left._tag)).toEqual(['Conflict', 'Conflict'])
      const memberships = (await deps.store.query(lawfulMemberships.name, { index: 'byHolder', limit: 10 })).items.map(lawfulMemberships.decode)
      const spendable = memberships.filter((m) => m.status === 'spendable')
      expect(spendable.length).toBe(1)
      expect(spendable[0]!.settledThroughKaiPulse).toBe(through)

      // The new holder settles the rest, capped at the sealed completion.
      clock.set(T0 + 1000 * PULSE_MS)
      ok(await call(second, 'deriveValueHead', spendable[0]!.holderUserId, { membershipId: spendable[0]!.membershipId, expectedPriorValueHeadDigest: null }))
      const holder = (await loadAccount(deps, 'phi', walletAccount(spendable[0]!.holderUserId))).balance
      const paid = spendable[0]!.holderUserId === ada ? holder - (100000n - 50000n) : holder
      expect(paid).toBe(7n * BigInt(start + 60 - through))
      await conserved()
    })
  })
}
