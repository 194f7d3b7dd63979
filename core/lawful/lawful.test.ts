/**
 * The Lawful Economy through the full pipeline (bearer boundary, scopes, decoding, use case): laws
 * registered only from their owner's sealed proof object, actions admitted and transferred under
 * exact custody continuity with one spendable Settlement membership, value heads derived from the
 * sealed times and the server's Kai time and paid through the value ledger; every refusal writes
 * nothing (the Store is read to prove it).
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { bodyOf, type SignedIn } from '../../hosts/http/oidc-test-support.js'
import { openValueAuthority } from '../../conformance/support/value-authority.js'
import { APP, createRuntimeTestWorld, runtimeDeployment, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { PINNED_TIME } from '../../hosts/http/test-support.js'
import { kaiMomentAt } from '../time/kai.js'
import { collections } from '../usecases/collections.js'
import type { Reply } from '../usecases/use-case.js'
import type { DomainError } from '../errors/domain-error.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { issueValue } from '../value/index.js'
import { loadAccount, reserveAccount, walletAccount } from '../value/accounts.js'
import { actionOf, lawfulSnapshot, lawOf, payloadDigest, proofObjectOf, sealJsonFor } from './lawful-test-support.js'
import { deriveValueHead } from './derive.js'
import { lawfulMemberships } from './records.js'

const PULSE_MS = 5236 // a Kai pulse lasts 3+√5 s ≈ 5.236 s
const LAWFUL = ['cairn:lawful.write']

let runtime: RuntimeTestWorld
let clock: FixedClock
let ada: SignedIn, bob: SignedIn, cy: SignedIn
const tokens = new Map<string, string>()
const nowPulse = () => kaiMomentAt(clock.now()).pulse

async function tokenOf(user: SignedIn, scopes: readonly string[] = LAWFUL): Promise<string> {
  const key = `${user.userId}:${scopes.join(' ')}`
  if (!tokens.has(key)) {
    const created = await runtime.world.call('createAgentToken', { body: { clientId: 'com.example.notes', scopes: [...scopes], label: 'lawful test' }, credentials: { sessionCookie: user.cookie } })
    tokens.set(key, bodyOf<{ accessToken: string }>(created).accessToken)
  }
  return tokens.get(key)!
}

const statusOf = (reply: Either<DomainError, Reply>) => (E.isLeft(reply) ? reply.left._tag : 'ok')
const errorOf = (reply: Either<DomainError, Reply>) => (E.isLeft(reply) ? reply.left.message : '')
const headersOf = (reply: Either<DomainError, Reply>) => (E.isRight(reply) && reply.right.kind === 'json' ? reply.right.headers ?? {} : {})

async function as(user: SignedIn, op: string, body: unknown) {
  return runtime.call(op, { body, token: await tokenOf(user) })
}

/** Refused and nothing written: the Store reads the same before and after. */
async function expectRefusedWithoutWrites(tag: DomainError['_tag'], run: () => Promise<Either<DomainError, Reply>>): Promise<string> {
  const before = await lawfulSnapshot(runtime.deps)
  const reply = await run()
  expect(statusOf(reply), errorOf(reply)).toBe(tag)
  expect(await lawfulSnapshot(runtime.deps)).toBe(before)
  return errorOf(reply)
}

async function registered(law = lawOf(), key = 'law-1') {
  const sealed = await sealJsonFor(runtime.deps, ada.userId, law)
  const reply = await as(ada, 'registerLaw', { proofObject: proofObjectOf(sealed), idempotencyKey: key })
  return bodyOf<{ lawDigest: string; receiptDigest: string; action: string }>(reply)
}

async function admitted(lawDigest: string, start: number, completion: number, custodian = bob) {
  const action = actionOf(lawDigest, { startedAtKaiPulse: start, completedAtKaiPulse: completion, custodianUserId: custodian.userId })
  const sealed = await sealJsonFor(runtime.deps, ada.userId, action)
  const reply = await as(custodian, 'admitLawfulAction', { lawDigest, proofObject: proofObjectOf(sealed), expectedPriorAdmissionDigest: null, idempotencyKey: 'admit-1' })
  return { action, body: bodyOf<{ admissionDigest: string; action: string }>(reply) }
}

const membershipOf = async (id: string) => (await lawfulMemberships.get(runtime.deps.store, id))!.value
const phiOf = async (account: string) => (await loadAccount(runtime.deps, 'phi', account)).balance

beforeEach(async () => {
  clock = new FixedClock(PINNED_TIME)
  // Notes admits its users' agent tokens (a deployment's opt-in): the tokens outlive the hours this clock moves.
  runtime = await createRuntimeTestWorld({ clock, deployment: runtimeDeployment({ agentTokensActAsApplication: true }) })
  await runtime.deps.store.declare(collections)
  ;[ada, bob, cy] = [await runtime.world.signIn('ada'), await runtime.world.signIn('bob'), await runtime.world.signIn('cy')]
  tokens.clear()
  // Tokens first: creating one is a write of its own (and needs a recent sign-in).
  for (const user of [ada, bob, cy]) await tokenOf(user)
  await tokenOf(ada, ['cairn:value.execute'])
  await tokenOf(ada, ['cairn:runtime.read'])
})

describe('registerLaw', () => {
  it('registers a law from its owner\'s sealed proof object, content-addressed and idempotent by key', async () => {
    const law = lawOf()
    const sealed = await sealJsonFor(runtime.deps, ada.userId, law)
    const body = { proofObject: proofObjectOf(sealed), idempotencyKey: 'law-1' }
    const first = await as(ada, 'registerLaw', body)
    const result = bodyOf<Record<string, unknown>>(first)
    expect(result).toMatchObject({
      ok: true, schema: 'cairn.v125.lawful_action_result', action: 'law-registered', lawDigest: payloadDigest(law),
      authority: { role: 'coordination', proofAuthority: false, heldBytesWin: true },
    })
    expect(result.receiptDigest).toMatch(/^[0-9a-f]{64}$/)
    const after = await lawfulSnapshot(runtime.deps)
    const replay = await as(ada, 'registerLaw', body)
    expect(bodyOf(replay)).toEqual(result)
    expect(headersOf(replay)['idempotent-replayed']).toBe('true')
    // Another key, the same law: the first registration, nothing written.
    expect(bodyOf(await as(ada, 'registerLaw', { ...body, idempotencyKey: 'law-2' }))).toEqual(result)
    expect(await lawfulSnapshot(runtime.deps)).toBe(after)
    // Bob sealing the very same terms cannot take over Ada's law (she pays for it).
    const bobs = await sealJsonFor(runtime.deps, bob.userId, law)
    expect(await expectRefusedWithoutWrites('Conflict', () => as(bob, 'registerLaw', { proofObject: proofObjectOf(bobs), idempotencyKey: 'law-1' }))).toMatch(/another owner/)
    // The same key with another body is refused.
    const other = await sealJsonFor(runtime.deps, ada.userId, lawOf({ lawId: 'other' }))
    await expectRefusedWithoutWrites('Unprocessable', () => as(ada, 'registerLaw', { proofObject: proofObjectOf(other), idempotencyKey: 'law-1' }))
  })

  it('registers a law sealed through the public seal operation', async () => {
    const law = lawOf({ lawId: 'sealed-by-hand' })
    const sealed = await runtime.call('sealOwnedAsset', { body: { file: { filename: 'law.json', mimeType: 'application/json', bytes: new TextEncoder().encode(JSON.stringify(law, Object.keys(law).sort())) } }, credentials: { sessionCookie: ada.cookie } })
    const reply = await as(ada, 'registerLaw', { proofObject: proofObjectOf(bodyOf<{ sealedBytesB64u: string }>(sealed).sealedBytesB64u), idempotencyKey: 'k' })
    expect(bodyOf(reply)).toMatchObject({ action: 'law-registered', lawDigest: payloadDigest(law) })
  })

  it('refuses what is not its owner\'s verified sealed law, writing nothing', async () => {
    const law = lawOf()
    const register = (user: SignedIn, exactBytesB64u: string) => () => as(user, 'registerLaw', { proofObject: proofObjectOf(exactBytesB64u), idempotencyKey: 'k' })
    const sealedByBob = await sealJsonFor(runtime.deps, bob.userId, law)
    expect(await expectRefusedWithoutWrites('Forbidden', register(ada, sealedByBob))).toMatch(/owner/)
    const integrityOnly = await sealJsonFor(runtime.deps, ada.userId, law, { integrityOnly: true })
    expect(await expectRefusedWithoutWrites('Unprocessable', register(ada, integrityOnly))).toMatch(/integrity-only/)
    const notCanonical = await sealJsonFor(runtime.deps, ada.userId, law, { text: JSON.stringify(law, null, 2) })
    expect(await expectRefusedWithoutWrites('Unprocessable', register(ada, notCanonical))).toMatch(/canonical/)
    const withExemption = await sealJsonFor(runtime.deps, ada.userId, { ...law, exemptions: ['usr_ada'] })
    expect(await expectRefusedWithoutWrites('Unprocessable', register(ada, withExemption))).toMatch(/exemptions/)
    const zeroRate = await sealJsonFor(runtime.deps, ada.userId, lawOf({ ratePhiMicroPerPulse: '0' }))
    await expectRefusedWithoutWrites('Unprocessable', register(ada, zeroRate))
    const good = await sealJsonFor(runtime.deps, ada.userId, law)
    const tampered = good.slice(0, 40) + (good[40] === 'A' ? 'B' : 'A') + good.slice(41)
    await expectRefusedWithoutWrites('Unprocessable', register(ada, tampered))
    await expectRefusedWithoutWrites('InvalidInput', register(ada, '!!'))
    // Caller-supplied amounts and multipliers are refused; so is any member the request does not name.
    expect(await expectRefusedWithoutWrites('InvalidInput', () => as(ada, 'registerLaw', { proofObject: proofObjectOf(good), idempotencyKey: 'k', ratePhiMicroPerPulse: '1000' }))).toMatch(/forbidden/)
    await expectRefusedWithoutWrites('InvalidInput', () => as(ada, 'registerLaw', { proofObject: { ...proofObjectOf(good), multiplier: 3 }, idempotencyKey: 'k' }))
    await expectRefusedWithoutWrites('InvalidInput', () => as(ada, 'registerLaw', { proofObject: proofObjectOf(good), idempotencyKey: 'k', note: 'hi' }))
    // The scope and a bearer token are required.
    const readOnly = await tokenOf(ada, ['cairn:runtime.read'])
    await expectRefusedWithoutWrites('Forbidden', () => runtime.call('registerLaw', { body: { proofObject: proofObjectOf(good), idempotencyKey: 'k' }, token: readOnly }))
    await expectRefusedWithoutWrites('Unauthenticated', () => runtime.call('registerLaw', { body: { proofObject: proofObjectOf(good), idempotencyKey: 'k' } }))
  })
})

describe('admitLawfulAction', () => {
  it('admits a sealed action, then transfers it only from its current custody', async () => {
    const { lawDigest } = await registered()
    const start = nowPulse() + 10
    const { action, body } = await admitted(lawDigest, start, start + 100)
    expect(body).toMatchObject({ ok: true, action: 'admitted', lawDigest, admissionDigest: payloadDigest(action) })
    const first = await membershipOf(body.admissionDigest)
    expect(first).toMatchObject({ holderUserId: bob.userId, payerUserId: ada.userId, status: 'spendable', valueHeadDigest: null, settledThroughKaiPulse: start, ratePhiMicroPerPulse: '7' })

    // Admitting the same action again as a first admission is refused.
    const again = await sealJsonFor(runtime.deps, ada.userId, { ...action, custodianUserId: cy.userId })
    await expectRefusedWithoutWrites('Conflict', () => as(ada, 'admitLawfulAction', { lawDigest, proofObject: proofObjectOf(again), expectedPriorAdmissionDigest: null, idempotencyKey: 'admit-2' }))

    // Bob hands it to Cy: sealed by Bob, continuing exactly the current admission.
    const transfer = { ...action, priorAdmissionDigest: body.admissionDigest, custodianUserId: cy.userId }
    const byAda = await sealJsonFor(runtime.deps, ada.userId, transfer)
    expect(await expectRefusedWithoutWrites('Forbidden', () => as(cy, 'admitLawfulAction', { lawDigest, proofObject: proofObjectOf(byAda), expectedPriorAdmissionDigest: body.admissionDigest, idempotencyKey: 't-1' }))).toMatch(/current custodian/)
    const byBob = await sealJsonFor(runtime.deps, bob.userId, transfer)
    const wrongPrior = { lawDigest, proofObject: proofObjectOf(byBob), expectedPriorAdmissionDigest: 'f'.repeat(64), idempotencyKey: 't-1' }
    await expectRefusedWithoutWrites('Unprocessable', () => as(cy, 'admitLawfulAction', wrongPrior))
    const moved = bodyOf<{ admissionDigest: string; action: string }>(await as(cy, 'admitLawfulAction', { ...wrongPrior, expectedPriorAdmissionDigest: body.admissionDigest }))
    expect(moved).toMatchObject({ action: 'transferred', admissionDigest: payloadDigest(transfer) })
    expect(await membershipOf(body.admissionDigest)).toMatchObject({ status: 'spent', spentByAdmissionDigest: moved.admissionDigest })
    expect(await membershipOf(moved.admissionDigest)).toMatchObject({ status: 'spendable', holderUserId: cy.userId, payerUserId: ada.userId })

    // The old custody cannot be continued twice: Bob's hand-over to someone else is stale now.
    const stale = await sealJsonFor(runtime.deps, bob.userId, { ...transfer, custodianUserId: ada.userId })
    await expectRefusedWithoutWrites('Conflict', () => as(bob, 'admitLawfulAction', { lawDigest, proofObject: proofObjectOf(stale), expectedPriorAdmissionDigest: body.admissionDigest, idempotencyKey: 't-2' }))
  })

  it('refuses actions the law\'s owner did not seal, bad times and unknown laws, writing nothing', async () => {
    const { lawDigest } = await registered()
    const start = nowPulse()
    const admit = async (user: SignedIn, payload: unknown, sealer = ada, law = lawDigest) => {
      const sealed = await sealJsonFor(runtime.deps, sealer.userId, payload)
      return () => as(user, 'admitLawfulAction', { lawDigest: law, proofObject: proofObjectOf(sealed), expectedPriorAdmissionDigest: null, idempotencyKey: 'a' })
    }
    const ok = actionOf(lawDigest, { startedAtKaiPulse: start, completedAtKaiPulse: start + 50, custodianUserId: bob.userId })
    expect(await expectRefusedWithoutWrites('Forbidden', await admit(bob, ok, bob))).toMatch(/law's owner/)
    await expectRefusedWithoutWrites('Forbidden', await admit(cy, ok))
    await expectRefusedWithoutWrites('Unprocessable', await admit(bob, { ...ok, completedAtKaiPulse: start }))
    await expectRefusedWithoutWrites('Unprocessable', await admit(bob, { ...ok, completedAtKaiPulse: start + 10_001 }))
    await expectRefusedWithoutWrites('Unprocessable', await admit(ada, { ...ok, custodianUserId: 'usr_nobody' }))
    await expectRefusedWithoutWrites('Unprocessable', await admit(bob, { ...ok, lawDigest: 'e'.repeat(64) }))
    await expectRefusedWithoutWrites('NotFound', await admit(bob, { ...ok, lawDigest: 'e'.repeat(64) }, ada, 'e'.repeat(64)))
    await expectRefusedWithoutWrites('Unprocessable', await admit(bob, { ...ok, multiplier: 2 }))
    const sealed = await sealJsonFor(runtime.deps, ada.userId, ok)
    expect(await expectRefusedWithoutWrites('InvalidInput', () => as(bob, 'admitLawfulAction', { lawDigest, proofObject: proofObjectOf(sealed), expectedPriorAdmissionDigest: null, idempotencyKey: 'a', amountPhiMicro: '5' }))).toMatch(/forbidden/)
    await expectRefusedWithoutWrites('InvalidInput', () => as(bob, 'admitLawfulAction', { lawDigest, proofObject: proofObjectOf(sealed), idempotencyKey: 'a' }))
  })

  it('lets exactly one of racing hand-overs of one custody win', async () => {
    const { lawDigest } = await registered()
    const { action, body } = await admitted(lawDigest, 10, 20)
    const dave = await runtime.world.signIn('dave')
    await tokenOf(dave)
    const handOvers = await Promise.all([cy, ada, dave].map(async (to, i) => {
      const sealed = await sealJsonFor(runtime.deps, bob.userId, { ...action, priorAdmissionDigest: body.admissionDigest, custodianUserId: to.userId })
      return { lawDigest, proofObject: proofObjectOf(sealed), expectedPriorAdmissionDigest: body.admissionDigest, idempotencyKey: `race-${i}` }
    }))
    const replies = await Promise.all(handOvers.map((handOver) => as(bob, 'admitLawfulAction', handOver)))
    expect(replies.map(statusOf).sort()).toEqual(['Conflict', 'Conflict', 'ok'])
    const memberships = (await runtime.deps.store.query(lawfulMemberships.name, { index: 'byHolder', limit: 10 })).items.map(lawfulMemberships.decode)
    expect(memberships.filter((m) => m.status === 'spendable').length).toBe(1)
    expect(memberships.length).toBe(2)
  })

  it('answers a retried key with the saved answer', async () => {
    const { lawDigest } = await registered()
    const action = actionOf(lawDigest, { startedAtKaiPulse: 5, completedAtKaiPulse: 50, custodianUserId: bob.userId })
    const body = { lawDigest, proofObject: proofObjectOf(await sealJsonFor(runtime.deps, ada.userId, action)), expectedPriorAdmissionDigest: null, idempotencyKey: 'same' }
    const first = bodyOf(await as(bob, 'admitLawfulAction', body))
    const retry = await as(bob, 'admitLawfulAction', body)
    expect(bodyOf(retry)).toEqual(first)
    expect(headersOf(retry)['idempotent-replayed']).toBe('true')
  })
})

describe('deriveValueHead', () => {
  async function fundedMembership(reservePhiMicro = '100000') {
    const seeded = await issueValue(runtime.deps, { userId: ada.userId, unit: 'phi', amount: '1000000', idempotencyKey: 'seed' })
    if (E.isLeft(seeded)) throw new Error(seeded.left.message)
    if (reservePhiMicro !== '0') {
      const reserved = await runtime.call('executeReserve', {
        body: { intent: { schema: 'cairn.value.reserve.v1', idempotencyKey: 'r-1', amountPhiMicro: reservePhiMicro }, authorityDigest: await openValueAuthority(runtime.deps, { kind: 'bearer', actsAsClient: true, subject: ada.userId, clientId: APP, scopes: ['cairn:value.execute'], tokenId: 't', businessTier: false }) },
        token: await tokenOf(ada, ['cairn:value.execute']),
      })
      expect(bodyOf(reserved)).toMatchObject({ status: 'committed' })
    }
    const { lawDigest } = await registered()
    const start = nowPulse() + 10
    const { body } = await admitted(lawDigest, start, start + 100)
    return { lawDigest, start, membershipId: body.admissionDigest, admissionDigest: body.admissionDigest }
  }
  const derive = (user: SignedIn, membershipId: string, expectedPriorValueHeadDigest: string | null) =>
    as(user, 'deriveValueHead', { membershipId, expectedPriorValueHeadDigest })

  it('settles the law\'s rate for every pulse between the sealed start and the server\'s time, once per prior head', async () => {
    const { membershipId, lawDigest, admissionDigest, start } = await fundedMembership()
    expect(await expectRefusedWithoutWrites('Unprocessable', () => derive(bob, membershipId, null))).toMatch(/Nothing has accrued/)

    clock.set(PINNED_TIME + 40 * PULSE_MS)
    const through = Math.min(nowPulse(), start + 100)
    expect(through).toBeGreaterThan(start)
    const first = await derive(bob, membershipId, null)
    const head = bodyOf<{ valueHeadDigest: string }>(first)
    expect(head).toMatchObject({ ok: true, action: 'value-head-derived', lawDigest, admissionDigest })
    expect(await phiOf(walletAccount(bob.userId))).toBe(7n * BigInt(through - start))
    expect(await membershipOf(membershipId)).toMatchObject({ valueHeadDigest: head.valueHeadDigest, settledThroughKaiPulse: through })

    // The same request later: the saved answer, nothing paid again.
    clock.set(PINNED_TIME + 80 * PULSE_MS)
    const retry = await derive(bob, membershipId, null)
    expect(bodyOf(retry)).toEqual(head)
    expect(headersOf(retry)['idempotent-replayed']).toBe('true')
    expect(await phiOf(walletAccount(bob.userId))).toBe(7n * BigInt(through - start))

    // The next head after it, capped at the sealed completion however late the server samples.
    clock.set(PINNED_TIME + 10_000 * PULSE_MS)
    const second = bodyOf<{ valueHeadDigest: string }>(await derive(bob, membershipId, head.valueHeadDigest))
    expect(second.valueHeadDigest).not.toBe(head.valueHeadDigest)
    expect(await phiOf(walletAccount(bob.userId))).toBe(700n)
    expect(await phiOf(reserveAccount(ada.userId))).toBe(100000n - 700n)
    expect(await expectRefusedWithoutWrites('Unprocessable', () => derive(bob, membershipId, second.valueHeadDigest))).toMatch(/Nothing has accrued/)
  })

  it('pays once when the same derivation races itself', async () => {
    const { membershipId, start } = await fundedMembership()
    clock.set(PINNED_TIME + 40 * PULSE_MS)
    const replies = await Promise.all(Array.from({ length: 8 }, () => derive(bob, membershipId, null)))
    const digests = new Set(replies.map((reply) => bodyOf<{ valueHeadDigest: string }>(reply).valueHeadDigest))
    expect(digests.size).toBe(1)
    expect(await phiOf(walletAccount(bob.userId))).toBe(7n * BigInt(nowPulse() - start))
  })

  it('refuses a stale head, another holder, caller amounts and an empty reserve, writing nothing', async () => {
    const { membershipId } = await fundedMembership('100')
    clock.set(PINNED_TIME + 40 * PULSE_MS)
    await expectRefusedWithoutWrites('Conflict', () => derive(bob, membershipId, 'a'.repeat(64)))
    await expectRefusedWithoutWrites('Forbidden', () => derive(cy, membershipId, null))
    await expectRefusedWithoutWrites('NotFound', () => derive(bob, 'no-such-membership', null))
    for (const extra of [{ amountPhiMicro: '1' }, { multiplier: 2 }, { exemptions: ['usr_bob'] }, { sampledAtKaiPulse: 1 }]) {
      await expectRefusedWithoutWrites('InvalidInput', () => as(bob, 'deriveValueHead', { membershipId, expectedPriorValueHeadDigest: null, ...extra }))
    }
    // 7 µΦ × ~30 pulses is more than the 100 µΦ reserved.
    expect(await expectRefusedWithoutWrites('Unprocessable', () => derive(bob, membershipId, null))).toMatch(/reserve/)
  })

  it('depends on no caller input: any member beyond the two is refused and writes nothing, and the head is the server\'s', async () => {
    const { membershipId, start } = await fundedMembership()
    clock.set(PINNED_TIME + 40 * PULSE_MS)
    const extras = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !['membershipId', 'expectedPriorValueHeadDigest', '__proto__'].includes(k)), fc.jsonValue(), { minKeys: 1, maxKeys: 3 })
    await fc.assert(fc.asyncProperty(extras, async (extra) => {
      await expectRefusedWithoutWrites('InvalidInput', () => as(bob, 'deriveValueHead', { ...extra, membershipId, expectedPriorValueHeadDigest: null }))
    }), { numRuns: 25 })
    const head = bodyOf<{ valueHeadDigest: string }>(await derive(bob, membershipId, null))
    const expected = deriveValueHead({ ...(await membershipOf(membershipId)), settledThroughKaiPulse: start, valueHeadDigest: null }, nowPulse())
    expect(expected._tag === 'derived' && expected.valueHeadDigest).toBe(head.valueHeadDigest)
  })

  it('spends the membership on transfer: the new holder settles what the old one left', async () => {
    const { membershipId, lawDigest, start } = await fundedMembership()
    clock.set(PINNED_TIME + 40 * PULSE_MS)
    const firstThrough = nowPulse()
    bodyOf(await derive(bob, membershipId, null))
    const action = actionOf(lawDigest, { startedAtKaiPulse: start, completedAtKaiPulse: start + 100, custodianUserId: bob.userId })
    const transfer = { ...action, priorAdmissionDigest: membershipId, custodianUserId: cy.userId }
    const moved = bodyOf<{ admissionDigest: string }>(await as(bob, 'admitLawfulAction', { lawDigest, proofObject: proofObjectOf(await sealJsonFor(runtime.deps, bob.userId, transfer)), expectedPriorAdmissionDigest: membershipId, idempotencyKey: 't' }))
    clock.set(PINNED_TIME + 10_000 * PULSE_MS)
    expect(await expectRefusedWithoutWrites('Conflict', async () => {
      const head = (await membershipOf(membershipId)).valueHeadDigest
      return derive(bob, membershipId, head)
    })).toMatch(/spent/)
    bodyOf(await derive(cy, moved.admissionDigest, null))
    expect(await phiOf(walletAccount(bob.userId))).toBe(7n * BigInt(firstThrough - start))
    expect(await phiOf(walletAccount(cy.userId))).toBe(7n * BigInt(start + 100 - firstThrough))
  })
})
