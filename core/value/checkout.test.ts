import { beforeEach, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { TestPaymentProcessor } from '../../adapters/payments/index.js'
import { memoryDeps, type MemoryDeps } from '../../hosts/http/describe-env.js'
import { createCairn } from '../../hosts/library/create-cairn.js'
import { createValueUser, valueBearer } from '../../conformance/support/value-users.js'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { withFaults } from '../../conformance/fault-injection.js'
import { collections } from '../usecases/collections.js'
import type { Reply, UseCase } from '../usecases/use-case.js'
import { completeCheckout, trialBalance, valueCheckouts, valueUseCases } from './index.js'

let deps: MemoryDeps & { payments: TestPaymentProcessor }
let ada: string

beforeEach(async () => {
  const base = memoryDeps()
  deps = { ...base, payments: new TestPaymentProcessor(base.clock, base.config.baseUrl) }
  await deps.store.declare(collections)
  ada = await createValueUser(deps.store, 'ada')
  await createValueUser(deps.store, 'bob')
})

const bodyOf = (reply: E.Either<unknown, Reply>) => {
  if (E.isLeft(reply)) throw new Error(`refused: ${JSON.stringify(reply.left)}`)
  return (reply.right as { body: any }).body
}
const connectCheckout = (userId: string, body: unknown) => (valueUseCases.createConnectCheckout as unknown as UseCase)({ params: {}, query: {}, body, principal: valueBearer(userId) }, deps)
const status = (userId: string, sessionId: string) => valueUseCases.getConnectCheckoutSession({ params: {}, query: { sessionId }, body: undefined, principal: valueBearer(userId) }, deps)
const record = async (sessionId: string) => (await valueCheckouts.get(deps.store, sessionId))!.value

describe('checkout with the test processor', () => {
  it('a Connect checkout credits the token owner once its session completes, however often completion arrives', async () => {
    const created = bodyOf(await connectCheckout(ada, { amountUsd: '9.99', currency: 'usd' }))
    expect(created).toMatchObject({ ok: true, mode: 'hosted', checkoutUrl: `${deps.config.baseUrl}/checkout/test/${created.sessionId}` })
    expect(bodyOf(await status(ada, created.sessionId))).toMatchObject({ status: 'open', amountUsd: '9.99', currency: 'usd', targetUsername: 'ada' })
    const completion = deps.payments.completion(await record(created.sessionId))
    // Separate Store handles stand for webhook deliveries reaching separate processes at once.
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => completeCheckout({ ...deps, store: withFaults(deps.store, []) }, deps.payments, completion)))
    expect(outcomes.filter((o) => E.isRight(o) && o.right._tag === 'credited')).toHaveLength(1)
    expect(outcomes.every((o) => E.isRight(o) && o.right._tag !== 'not-ours')).toBe(true)
    expect(bodyOf(await status(ada, created.sessionId))).toMatchObject({ status: 'complete', completedAt: expect.any(String) })
    const wallet = bodyOf(await valueUseCases.getConnectWallet({ params: {}, query: {}, body: undefined, principal: valueBearer(ada) }, deps)).wallet
    expect(wallet).toMatchObject({ balanceUsdCents: '999', balancePhiMicro: '0', username: 'ada' })
    expect((await trialBalance(deps)).sums).toEqual({ phi: 0n, usd: 0n })
  })

  it('with a Φ price, a completed checkout credits the Φ it buys and books the cents as Φ sales, in one entry and one public event', async () => {
    const priced = { ...deps, config: { ...deps.config, deployment: { payments: { phiPerUsd: '2.5' } } } }
    const created = bodyOf(await (valueUseCases.createConnectCheckout as unknown as UseCase)({ params: {}, query: {}, body: { amountUsd: '0.07', currency: 'usd' }, principal: valueBearer(ada) }, priced))
    // A later price change never alters what an open session promised.
    const completion = deps.payments.completion(await record(created.sessionId))
    const outcome = await completeCheckout({ ...priced, config: { ...deps.config, deployment: { payments: { phiPerUsd: '1000' } } } }, deps.payments, completion)
    expect(E.isRight(outcome) && outcome.right._tag).toBe('credited')
    const wallet = bodyOf(await valueUseCases.getConnectWallet({ params: {}, query: {}, body: undefined, principal: valueBearer(ada) }, deps)).wallet
    // 7 cents at 2.5 Φ per dollar: 7 × 25 000 µΦ, exactly.
    expect(wallet).toMatchObject({ balancePhiMicro: '175000', balanceUsdCents: '0' })
    const trial = await trialBalance(deps)
    expect(trial.sums).toEqual({ phi: 0n, usd: 0n })
    expect(trial.accounts).toEqual(expect.arrayContaining([
      expect.objectContaining({ unit: 'usd', account: 'sales:phi', balance: '7' }), expect.objectContaining({ unit: 'usd', account: 'clearing:test', balance: '-7' }),
      expect.objectContaining({ unit: 'phi', account: 'issuance', balance: '-175000' }),
    ]))
    const feed = bodyOf(await valueUseCases.getWalletLedger({ params: {}, query: {}, body: undefined, principal: { kind: 'anonymous' } } as never, deps))
    expect(feed.events).toMatchObject([{ kind: 'checkout', amountPhiMicro: '175000', amountUsdCents: '7', fromActor: 'cairn' }])
    expect(feed.rollup).toMatchObject({ totalCheckoutEvents: '1', totalPhiCreditMicro: '175000', totalUsdCreditCents: '0', totalUsdDebitCents: '0' })
  })

  it('sessions are visible to their owner only, expire as open sessions, and refuse a targetUsername other than the owner', async () => {
    const created = bodyOf(await connectCheckout(ada, { amountUsd: '1', currency: 'usd', mode: 'embedded' }))
    expect(created.clientSecret).toMatch(/_secret_test$/)
    const other = await status('usr_bob', created.sessionId)
    expect(E.isLeft(other) && other.left._tag).toBe('NotFound')
    deps.clock.advance(25 * 60 * 60 * 1000)
    expect(bodyOf(await status(ada, created.sessionId)).status).toBe('expired')
    const wrong = await connectCheckout(ada, { amountUsd: '1', currency: 'usd', targetUsername: 'bob' })
    expect(E.isLeft(wrong) && wrong.left._tag).toBe('InvalidInput')
  })

  it('a paid amount other than the session\'s credits nothing', async () => {
    const created = bodyOf(await connectCheckout(ada, { amountUsd: '3', currency: 'usd' }))
    const completion = deps.payments.completion(await record(created.sessionId))
    const refused = await completeCheckout(deps, deps.payments, { ...completion, amountCents: '299' })
    expect(E.isLeft(refused) && refused.left._tag).toBe('Unprocessable')
    expect(E.isRight(await completeCheckout(deps, deps.payments, { ...completion, processorSessionId: 'tps_unknown' }))).toBe(true)
    expect(bodyOf(await status(ada, created.sessionId)).status).toBe('open')
  })

  it('the library completes test sessions (cairn.completeTestCheckout): the whole flow runs offline', async () => {
    const cairn = createCairn({ clock: new FixedClock(Date.parse('2026-06-25T00:00:00Z')), logError: () => {} })
    await cairn.ready
    await createValueUser(cairn.container.get(Symbol.for('cairn.Store')), 'carol')
    const reply = await cairn.call('createEmbedCheckout', { body: { amountUsd: '4.20', currency: 'usd', targetUsername: 'carol' } })
    if (E.isLeft(reply) || reply.right.kind !== 'json') throw new Error('checkout refused')
    const sessionId = (reply.right.body as { sessionId: string }).sessionId
    const first = await cairn.completeTestCheckout(sessionId)
    expect(E.isRight(first) && first.right._tag).toBe('credited')
    const again = await cairn.completeTestCheckout(sessionId)
    expect(E.isRight(again) && again.right._tag).toBe('already-complete')
    await cairn.close()
  })
})
