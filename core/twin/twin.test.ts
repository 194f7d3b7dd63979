/**
 * Connect Twin over real bearer tokens: the mandate saves partial updates; intents are checked
 * against it when created and again when approved — approval never bypasses a limit, and a refused
 * approval is recorded; two approvals racing under one daily limit never both pass; promotion is
 * approved only for the automation entitlement; a fault at any Store call leaves nothing half.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { MemoryStore } from '../../adapters/memory/index.js'
import { InjectedFaultError, withFaults } from '../../conformance/fault-injection.js'
import { bodyOf, testDeployment } from '../../hosts/http/oidc-test-support.js'
import { createRuntimeTestWorld, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import type { Principal } from '../auth/principal.js'
import { collections } from '../usecases/collections.js'
import type { CoreDeps, UseCase } from '../usecases/use-case.js'
import { twinUseCases } from './index.js'
import { TWIN_DAILY_TOTALS, TWIN_INTENTS } from './market-records.js'

const SCOPES = ['cairn:twin.read', 'cairn:twin.write']
let runtime: RuntimeTestWorld
let token: string
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ deployment: { ...testDeployment(), businessAccounts: ['ada'] } })
  await runtime.deps.store.declare(collections)
  token = await runtime.tokenFor(SCOPES)
})

interface Intent { id: string; status: string; reason?: string }
const call = (op: Parameters<RuntimeTestWorld['call']>[0], input: { body?: unknown; params?: Record<string, string> } = {}, as = token) => runtime.call(op, { ...input, token: as })
const saveMandate = (body: Record<string, unknown>) => call('saveTwinMarketMandate', { body })
const createIntent = async (body: Record<string, unknown>) => bodyOf<{ intent: Intent }>(await call('createTwinMarketIntent', { body })).intent

describe('the market mandate', () => {
  it('is null until saved, then keeps every field a partial update does not name', async () => {
    expect(bodyOf(await call('getTwinMarketMandate', { body: {} }))).toEqual({ ok: true, mandate: null })
    await saveMandate({ maxOrderUsdCents: '5000', dailyLimitUsdCents: '8000', allowedMarketIds: ['btc-usd'] })
    const saved = bodyOf<{ mandate: Record<string, unknown> }>(await saveMandate({ riskLevel: 'high' })).mandate
    expect(saved).toMatchObject({ enabled: true, requireApproval: true, maxOrderUsdCents: '5000', dailyLimitUsdCents: '8000', allowedMarketIds: ['btc-usd'], riskLevel: 'high' })
    expect(bodyOf(await call('getTwinMarketMandate', { body: {} }))).toEqual({ ok: true, mandate: saved })
  })

  it('refuses fractional or negative cents and a maximum order above the daily limit', async () => {
    expect(await saveMandate({ maxOrderUsdCents: '10.5' })).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput' })))
    expect(await saveMandate({ maxOrderUsdCents: '-1' })).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput' })))
    expect(await saveMandate({ maxOrderUsdCents: '9000', dailyLimitUsdCents: '8000' })).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput' })))
    expect(bodyOf(await call('getTwinMarketMandate', { body: {} }))).toEqual({ ok: true, mandate: null })
  })

  it('needs the write scope to save', async () => {
    const reader = await runtime.tokenFor(['cairn:twin.read'])
    expect(await call('saveTwinMarketMandate', { body: { riskLevel: 'low' } }, reader)).toEqual(E.left(expect.objectContaining({ _tag: 'Forbidden' })))
  })
})

describe('market intents', () => {
  it('are rejected with the reason at creation when the mandate refuses them, pending otherwise', async () => {
    expect(await createIntent({ marketId: 'btc-usd', side: 'buy' })).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/No market mandate/) })
    await saveMandate({ maxOrderUsdCents: '5000', dailyLimitUsdCents: '8000', allowedMarketIds: ['btc-usd'], riskLevel: 'high' })
    expect(await createIntent({ marketId: 'eth-usd', side: 'buy', amountUsdCents: '100' })).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/allowed markets/) })
    expect(await createIntent({ marketId: 'btc-usd', side: 'buy', amountUsdCents: '6000' })).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/maximum order/) })
    expect(await createIntent({ marketId: 'btc-usd', side: 'sell', amountUsdCents: '4000' })).toMatchObject({ status: 'pending' })
    const listed = bodyOf<{ intents: Intent[] }>(await call('listTwinMarketIntents', { body: { marketId: 'x', side: 'buy' } }))
    expect(listed.intents.map((intent) => intent.status)).toEqual(['pending', 'rejected', 'rejected', 'rejected'])
  })

  it('are approved only within the mandate as it is at approval: a breaching approval is refused and recorded', async () => {
    await saveMandate({ maxOrderUsdCents: '5000', dailyLimitUsdCents: '8000', riskLevel: 'high' })
    const first = await createIntent({ marketId: 'btc-usd', side: 'buy', amountUsdCents: '5000' })
    const second = await createIntent({ marketId: 'btc-usd', side: 'buy', amountUsdCents: '4000' })
    expect(bodyOf<{ intent: Intent }>(await call('approveTwinMarketIntent', { params: { intentId: first.id } })).intent.status).toBe('approved')
    const refused = bodyOf<{ intent: Intent }>(await call('approveTwinMarketIntent', { params: { intentId: second.id } })).intent
    expect(refused).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/daily limit of 8000/) })
    expect(await call('approveTwinMarketIntent', { params: { intentId: second.id } })).toEqual(E.left(expect.objectContaining({ _tag: 'Conflict' })))
    // A mandate tightened after creation binds the approval too.
    const third = await createIntent({ marketId: 'btc-usd', side: 'buy', amountUsdCents: '1000' })
    await saveMandate({ riskLevel: 'low' })
    expect(bodyOf<{ intent: Intent }>(await call('approveTwinMarketIntent', { params: { intentId: third.id } })).intent).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/limitPrice/) })
  })

  it('never lets two racing approvals both fit under one daily limit', async () => {
    await saveMandate({ dailyLimitUsdCents: '5000', riskLevel: 'high' })
    const a = await createIntent({ marketId: 'm', side: 'buy', amountUsdCents: '3000' })
    const b = await createIntent({ marketId: 'm', side: 'buy', amountUsdCents: '3000' })
    const results = await Promise.all([a, b].map((intent) => call('approveTwinMarketIntent', { params: { intentId: intent.id } })))
    const approved = results.filter((result) => E.isRight(result) && bodyOf<{ intent: Intent }>(result).intent.status === 'approved')
    expect(approved).toHaveLength(1)
  })

  it('answers 404 for an intent this Twin does not have', async () => {
    await saveMandate({ riskLevel: 'high' })
    const intent = await createIntent({ marketId: 'm', side: 'buy' })
    expect(await call('approveTwinMarketIntent', { params: { intentId: `${intent.id}x` } })).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
  })
})

describe('promotion approval', () => {
  it('is approved for the automation entitlement and recorded; null before any request', async () => {
    expect(bodyOf(await call('getTwinApproval', { body: { performance: {} } }))).toEqual({ ok: true, twinApproval: null })
    const decided = bodyOf<{ twinApproval: Record<string, unknown> }>(await call('approveTwinPromotion', { body: { performance: { winRate: 0.6 } } }))
    expect(decided.twinApproval).toMatchObject({ status: 'approved', entitled: true, performance: { winRate: 0.6 } })
    expect(bodyOf(await call('getTwinApproval', { body: { performance: {} } }))).toEqual(decided)
  })

  it('is rejected with the reason without the entitlement', async () => {
    const plain = await createRuntimeTestWorld({ deployment: testDeployment() })
    await plain.deps.store.declare(collections)
    const reply = await plain.call('approveTwinPromotion', { body: { performance: {} }, token: await plain.tokenFor(SCOPES) })
    expect(bodyOf<{ twinApproval: Record<string, unknown> }>(reply).twinApproval).toMatchObject({ status: 'rejected', entitled: false, reason: expect.stringMatching(/automation entitlement/) })
  })
})

describe('an approval under a fault at every Store call', () => {
  it('writes the intent and the day\'s total together or neither', async () => {
    const principal: Principal = { kind: 'bearer', subject: 'usr_ada', clientId: 'c', scopes: SCOPES, tokenId: 't', businessTier: false }
    const run = (op: keyof typeof twinUseCases, deps: CoreDeps, body: unknown, params: Record<string, string> = {}) =>
      (twinUseCases[op] as unknown as UseCase)({ params, query: {}, body, principal }, deps)
    const prepare = async () => {
      const store = new MemoryStore()
      await store.declare(collections)
      const deps = { ...runtime.deps, store }
      await run('saveTwinMarketMandate', deps, { dailyLimitUsdCents: '5000', riskLevel: 'high' })
      const created = bodyOf<{ intent: Intent }>(await run('createTwinMarketIntent', deps, { marketId: 'm', side: 'buy', amountUsdCents: '3000' }))
      return { deps, store, intentId: created.intent.id }
    }
    for (const method of ['get', 'commit'] as const) {
      for (let call = 1; call <= 3; call++) {
        for (const when of ['before', 'after'] as const) {
          const { deps, store, intentId } = await prepare()
          await run('approveTwinMarketIntent', { ...deps, store: withFaults(store, [{ method, call, when }]) }, undefined, { intentId }).catch((error: unknown) => {
            if (!(error instanceof InjectedFaultError)) throw error
          })
          const intent = (await store.get(TWIN_INTENTS, intentId))!.value as unknown as Intent
          const totals = (await store.get(TWIN_DAILY_TOTALS, `usr_ada:${new Date(deps.clock.now()).toISOString().slice(0, 10)}`))?.value as { approvedUsdCents: string } | undefined
          expect(intent.status === 'approved').toBe(totals?.approvedUsdCents === '3000')
        }
      }
    }
  })
})
