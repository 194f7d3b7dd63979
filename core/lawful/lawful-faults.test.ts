/**
 * Fault injection at every Store call of every lawful action (register, admit, transfer, derive),
 * before the call reaches the store and after it did its work but the reply was lost: afterwards
 * nothing is half written (every law, admission and value head has its log leaf and the leaf its
 * record; each action has one custody and exactly one spendable membership; every value head has
 * the ledger entry that paid it and value is conserved), and the same request retried on a healthy
 * store completes exactly once, answered from its idempotency record when the first attempt landed.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../../adapters/memory/memory-store.js'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { InjectedFaultError, withFaults, type StoreMethod } from '../../conformance/fault-injection.js'
import { openValueAuthority } from '../../conformance/support/value-authority.js'
import { createValueUser, valueBearer } from '../../conformance/support/value-users.js'
import { memoryDeps } from '../../hosts/http/describe-env.js'
import { PINNED_TIME } from '../../hosts/http/test-support.js'
import type { Store } from '../../ports/store.js'
import type { TypedCollection } from '../usecases/typed-collection.js'
import { LOG_LEAF_STREAM } from '../tlog/sequence.js'
import { kaiMomentAt } from '../time/kai.js'
import { collections } from '../usecases/collections.js'
import type { CoreDeps, UseCase } from '../usecases/use-case.js'
import { issueValue, trialBalance, valueUseCases } from '../value/index.js'
import { valueEntries } from '../value/ledger-entry.js'
import { lawfulUseCases } from './index.js'
import { actionOf, lawfulBearer, lawOf, payloadDigest, proofObjectOf, sealJsonFor } from './lawful-test-support.js'
import {
  ADMISSION_LEAF_KIND, LAW_LEAF_KIND,
  lawfulAdmissions, lawfulCustody, lawfulLaws, lawfulMemberships, lawfulValueHeads,
} from './records.js'

const METHODS: readonly StoreMethod[] = ['get', 'getByUnique', 'query', 'commit', 'streamHead', 'readStream']
const ADA = 'usr_ada'
const BOB = 'usr_bob'
const CY = 'usr_cy'
const PULSE_MS = 5236

interface World { readonly deps: CoreDeps; readonly store: MemoryStore; readonly clock: FixedClock; readonly bodies: Map<string, unknown> }

const call = (op: keyof typeof lawfulUseCases, userId: string, body: unknown, deps: CoreDeps) =>
  (lawfulUseCases[op] as unknown as UseCase)({ params: {}, query: {}, body, principal: lawfulBearer(userId) }, deps)

async function freshWorld(): Promise<World> {
  const store = new MemoryStore()
  const clock = new FixedClock(PINNED_TIME)
  const deps = memoryDeps({ store, clock })
  await store.declare(collections)
  for (const name of ['ada', 'bob', 'cy']) await createValueUser(store, name)
  const seeded = await issueValue(deps, { userId: ADA, unit: 'phi', amount: '100000', idempotencyKey: 'seed' })
  if (E.isLeft(seeded)) throw new Error('seed failed')
  const reserved = await (valueUseCases.executeReserve as unknown as UseCase)({
    params: {}, query: {}, principal: valueBearer(ADA),
    body: { intent: { schema: 'cairn.value.reserve.v1', idempotencyKey: 'reserve', amountPhiMicro: '50000' }, authorityDigest: await openValueAuthority(deps, valueBearer(ADA)) },
  }, deps)
  if (E.isLeft(reserved)) throw new Error('reserve failed')
  return { deps, store, clock, bodies: new Map() }
}

const all = async <A>(store: Store, collection: TypedCollection<A>, index: string) => (await store.query(collection.name, { index, limit: 1000 })).items.map(collection.decode)

/** Nothing half written. */
async function expectWhole(store: Store): Promise<void> {
  expect((await trialBalance({ store })).sums).toEqual({ phi: 0n, usd: 0n })
  const leaves = (await store.readStream(LOG_LEAF_STREAM, { limit: 1000 })).items.map((e) => e.value as Record<string, string>)
  const laws = await all(store, lawfulLaws, 'byOwner')
  expect(leaves.filter((leaf) => leaf.kind === LAW_LEAF_KIND).map((leaf) => leaf.lawDigest).sort()).toEqual(laws.map((law) => law.lawDigest).sort())
  const admissions = await all(store, lawfulAdmissions, 'byLaw')
  expect(leaves.filter((leaf) => leaf.kind === ADMISSION_LEAF_KIND).map((leaf) => leaf.admissionDigest).sort()).toEqual(admissions.map((a) => a.admissionDigest).sort())
  const memberships = await all(store, lawfulMemberships, 'byHolder')
  expect(memberships.map((m) => m.membershipId).sort()).toEqual(admissions.map((a) => a.membershipId).sort())
  for (const custody of await all(store, lawfulCustody, 'byCustodian')) {
    const ofAction = memberships.filter((m) => m.lawDigest === custody.lawDigest && m.actionId === custody.actionId)
    expect(ofAction.filter((m) => m.status === 'spendable').map((m) => m.membershipId)).toEqual([custody.membershipId])
    expect(ofAction.length).toBe(custody.admissions)
  }
  // Every value head was paid by exactly its ledger entry, and each membership's tip is its newest head.
  const heads = await all(store, lawfulValueHeads, 'byMembership')
  const paid = (await all(store, valueEntries, 'byCreatedAt')).filter((e) => e.kind === 'lawful_settlement')
  expect(paid.map((e) => e.entryId).sort()).toEqual(heads.map((h) => h.entryId).sort())
  for (const head of heads) {
    expect(paid.find((e) => e.entryId === head.entryId)!.amount).toBe(head.head.amountPhiMicro)
  }
  for (const m of memberships) {
    const own = heads.filter((h) => h.membershipId === m.membershipId).sort((a, b) => a.throughKaiPulse - b.throughKaiPulse)
    expect(m.valueHeadDigest).toBe(own.at(-1)?.valueHeadDigest ?? null)
  }
}

interface Scenario {
  readonly name: string
  /** Healthy steps before the faulty one; they keep the bodies the run sends. */
  prepare(world: World): Promise<void>
  run(world: World, deps: CoreDeps): ReturnType<UseCase>
  /** After the retry: the effect is there exactly once. */
  once(world: World): Promise<void>
}

async function registerLawIn(world: World): Promise<string> {
  const law = lawOf()
  const body = { proofObject: proofObjectOf(await sealJsonFor(world.deps, ADA, law)), idempotencyKey: 'law' }
  world.bodies.set('law', body)
  const lawDigest = payloadDigest(law)
  world.bodies.set('lawDigest', lawDigest)
  return lawDigest
}

const startPulse = kaiMomentAt(PINNED_TIME).pulse + 5
const firstAction = (lawDigest: string) => actionOf(lawDigest, { startedAtKaiPulse: startPulse, completedAtKaiPulse: startPulse + 60, custodianUserId: BOB })

async function prepareAdmission(world: World): Promise<void> {
  const lawDigest = await registerLawIn(world)
  const registered = await call('registerLaw', ADA, world.bodies.get('law'), world.deps)
  if (E.isLeft(registered)) throw new Error(registered.left.message)
  const sealed = await sealJsonFor(world.deps, ADA, firstAction(lawDigest))
  world.bodies.set('admit', { lawDigest, proofObject: proofObjectOf(sealed), expectedPriorAdmissionDigest: null, idempotencyKey: 'admit' })
}

async function admitIn(world: World): Promise<string> {
  await prepareAdmission(world)
  const admitted = await call('admitLawfulAction', BOB, world.bodies.get('admit'), world.deps)
  if (E.isLeft(admitted)) throw new Error(admitted.left.message)
  return payloadDigest(firstAction(world.bodies.get('lawDigest') as string))
}

const count = async <A>(world: World, collection: TypedCollection<A>, index: string) => (await all(world.store, collection, index)).length

const scenarios: readonly Scenario[] = [
  {
    name: 'register a law',
    prepare: async (world) => void (await registerLawIn(world)),
    run: (world, deps) => call('registerLaw', ADA, world.bodies.get('law'), deps),
    once: async (world) => expect(await count(world, lawfulLaws, 'byOwner')).toBe(1),
  },
  {
    name: 'admit an action',
    prepare: prepareAdmission,
    run: (world, deps) => call('admitLawfulAction', BOB, world.bodies.get('admit'), deps),
    once: async (world) => expect(await count(world, lawfulAdmissions, 'byLaw')).toBe(1),
  },
  {
    name: 'transfer an action',
    prepare: async (world) => {
      const prior = await admitIn(world)
      const transfer = { ...firstAction(world.bodies.get('lawDigest') as string), priorAdmissionDigest: prior, custodianUserId: CY }
      const sealed = await sealJsonFor(world.deps, BOB, transfer)
      world.bodies.set('transfer', { lawDigest: transfer.lawDigest, proofObject: proofObjectOf(sealed), expectedPriorAdmissionDigest: prior, idempotencyKey: 'transfer' })
    },
    run: (world, deps) => call('admitLawfulAction', CY, world.bodies.get('transfer'), deps),
    once: async (world) => {
      expect(await count(world, lawfulAdmissions, 'byLaw')).toBe(2)
      const spendable = (await all(world.store, lawfulMemberships, 'byHolder')).filter((m) => m.status === 'spendable')
      expect(spendable.map((m) => m.holderUserId)).toEqual([CY])
    },
  },
  {
    name: 'derive a value head',
    prepare: async (world) => {
      const membershipId = await admitIn(world)
      world.clock.set(PINNED_TIME + 30 * PULSE_MS)
      world.bodies.set('derive', { membershipId, expectedPriorValueHeadDigest: null })
    },
    run: (world, deps) => call('deriveValueHead', BOB, world.bodies.get('derive'), deps),
    once: async (world) => {
      expect(await count(world, lawfulValueHeads, 'byMembership')).toBe(1)
      const paid = (await all(world.store, valueEntries, 'byCreatedAt')).filter((e) => e.kind === 'lawful_settlement')
      expect(paid.length).toBe(1)
    },
  },
]

describe('lawful actions under a fault at every Store call', () => {
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const clean = await freshWorld()
      await scenario.prepare(clean)
      const counting = withFaults(clean.store, [])
      const answered = await scenario.run(clean, { ...clean.deps, store: counting })
      expect(E.isRight(answered), E.isLeft(answered) ? answered.left.message : '').toBe(true)
      await scenario.once(clean)
      let faults = 0
      for (const method of METHODS) {
        for (let callIndex = 1; callIndex <= counting.callsOf(method); callIndex++) {
          for (const when of ['before', 'after'] as const) {
            const world = await freshWorld()
            await scenario.prepare(world)
            const faulty = withFaults(world.store, [{ method, call: callIndex, when }])
            const outcome = await scenario.run(world, { ...world.deps, store: faulty }).then(() => 'answered', (error: unknown) => {
              if (!(error instanceof InjectedFaultError)) throw error
              return 'failed'
            })
            faults += outcome === 'failed' ? 1 : 0
            await expectWhole(world.store)
            const retried = await scenario.run(world, world.deps) // the retry: same request, healthy store
            expect(E.isRight(retried), `${method} #${callIndex} ${when}: ${E.isLeft(retried) ? retried.left.message : ''}`).toBe(true)
            if (E.isRight(answered) && E.isRight(retried) && answered.right.kind === 'json' && retried.right.kind === 'json') {
              expect((retried.right.body as { action: string }).action).toBe((answered.right.body as { action: string }).action)
            }
            await expectWhole(world.store)
            await scenario.once(world)
          }
        }
      }
      expect(faults).toBeGreaterThan(0)
    })
  }
})
