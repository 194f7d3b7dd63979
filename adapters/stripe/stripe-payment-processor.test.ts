/**
 * Checkout through Stripe end to end, offline: the official SDK talks to a local stub of the
 * Stripe API, and completion events are signed with the SDK's own test-header helper and delivered
 * to Cairn's webhook route through a listening server.
 */
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FixedClock } from '../memory/fixed-clock.js'
import { startHttpServer, type RunningServer } from '../../hosts/http/start-http-server.js'
import { createCairn, type Cairn } from '../../hosts/library/create-cairn.js'
import { createValueUser } from '../../conformance/support/value-users.js'
import { trialBalance, walletAccount } from '../../core/value/index.js'
import { VALUE_ENTRIES, type LedgerEntry } from '../../core/value/ledger-entry.js'
import type { Store } from '../../ports/store.js'
import { selectPaymentProcessor } from '../../hosts/library/select-payment-processor.js'
import { startLocalStripeStub, type LocalStripeStub, type StubCheckoutSession } from './local-stripe-stub.js'
import { StripePaymentProcessor } from './stripe-payment-processor.js'

const SECRET_KEY = 'sk_test_cairn_local_stub'
const WEBHOOK_SECRET = 'whsec_cairn_local_stub'
const sdk = new Stripe(SECRET_KEY)

let stub: LocalStripeStub
let cairn: Cairn
let server: RunningServer
let adaId: string

beforeAll(async () => {
  stub = await startLocalStripeStub(SECRET_KEY)
  cairn = createCairn({
    clock: new FixedClock(Date.parse('2026-06-25T00:00:00.000Z')), logError: () => {},
    payments: new StripePaymentProcessor({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiBaseUrl: stub.url }),
  })
  await cairn.ready
  adaId = await createValueUser(cairn.container.get(Symbol.for('cairn.Store')), 'ada')
  server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
})
afterAll(async () => {
  await server.close()
  await cairn.close()
  await stub.close()
})

const post = (path: string, body: string, headers: Record<string, string>) => fetch(`${server.url}${path}`, { method: 'POST', headers, body })
const checkout = async (body: Record<string, unknown>) => post('/api/payments/embed/checkout', JSON.stringify(body), { 'content-type': 'application/json' })
const usdBalance = async () => {
  const store = cairn.container.get<import('../../ports/store.js').Store>(Symbol.for('cairn.Store'))
  return (await store.get<{ balance: string }>('value.accounts', `usd:wallet:${adaId}`))?.value.balance ?? '0'
}
function signedCompletion(session: StubCheckoutSession, override: Partial<StubCheckoutSession> = {}, type = 'checkout.session.completed') {
  const payload = JSON.stringify({
    id: `evt_${session.id}`, object: 'event', api_version: '2025-01-01', created: 1782345600, type, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null },
    data: { object: { ...session, status: 'complete', payment_status: 'paid', ...override } },
  })
  return { payload, headers: { 'content-type': 'application/json', 'stripe-signature': sdk.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) } }
}

describe('Stripe checkout', () => {
  it('creates a hosted Checkout Session for the exact amount in cents through the SDK', async () => {
    const response = await checkout({ amountUsd: '12.50', currency: 'usd', targetUsername: 'ada', idempotencyKey: 'top-up-1' })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({ ok: true, mode: 'hosted', checkoutUrl: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//), sessionId: expect.stringMatching(/^cks_/) })
    const sent = stub.requests.at(-1)!
    expect(sent.authorization).toBe(`Bearer ${SECRET_KEY}`)
    expect(sent.idempotencyKey).toMatch(/^cairn-checkout-/)
    expect(Object.fromEntries(sent.form)).toMatchObject({
      mode: 'payment', ui_mode: 'hosted_page', client_reference_id: body.sessionId,
      'line_items[0][price_data][unit_amount_decimal]': '1250', 'line_items[0][price_data][currency]': 'usd', 'line_items[0][quantity]': '1',
    })
    // An anonymous payer's key never replays the session (another payer could repeat it: 409); the same key with another body is 422.
    expect((await checkout({ amountUsd: '12.50', currency: 'usd', targetUsername: 'ada', idempotencyKey: 'top-up-1' })).status).toBe(409)
    expect((await checkout({ amountUsd: '12.51', currency: 'usd', targetUsername: 'ada', idempotencyKey: 'top-up-1' })).status).toBe(422)
  })

  it('an embedded session answers the client secret', async () => {
    const body = await (await checkout({ amountUsd: '5', currency: 'usd', targetUsername: 'ada', mode: 'embedded' })).json()
    expect(body).toMatchObject({ ok: true, mode: 'embedded', clientSecret: expect.stringContaining('_secret_') })
    expect(body.checkoutUrl).toBeUndefined()
  })

  it('refuses amounts that are not positive, have more than two decimals or exceed the bound, and unknown targets', async () => {
    const before = stub.requests.length
    for (const amountUsd of ['0', '0.00', '1.234', '1000000', '-5', '1e2']) expect((await checkout({ amountUsd, currency: 'usd', targetUsername: 'ada' })).status).toBe(400)
    expect((await checkout({ amountUsd: '1', currency: 'eur', targetUsername: 'ada' })).status).toBe(400)
    expect((await checkout({ amountUsd: '1', currency: 'usd', targetUsername: 'nobody' })).status).toBe(404)
    expect((await checkout({ amountUsd: '1', currency: 'usd' })).status).toBe(400)
    expect(stub.requests.length).toBe(before) // nothing reached Stripe
  })

  it('a signed completion credits the wallet exactly once, even delivered twice and concurrently', async () => {
    const { sessionId } = await (await checkout({ amountUsd: '20.00', currency: 'usd', targetUsername: 'ada' })).json()
    const session = [...stub.sessions.values()].find((s) => s.client_reference_id === sessionId)!
    const before = BigInt(await usdBalance())
    const event = signedCompletion(session)
    const deliveries = await Promise.all(Array.from({ length: 6 }, () => post('/webhooks/payments/stripe', event.payload, event.headers)))
    expect(deliveries.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200])
    const credited = (await Promise.all(deliveries.map((r) => r.json()))).filter((b) => b.credited)
    expect(credited).toHaveLength(1)
    expect((await post('/webhooks/payments/stripe', event.payload, event.headers)).status).toBe(200)
    expect(BigInt(await usdBalance()) - before).toBe(2000n)
    const trial = await trialBalance({ store: cairn.container.get(Symbol.for('cairn.Store')) })
    expect(trial.sums).toEqual({ phi: 0n, usd: 0n })
    expect(trial.accounts.find((a) => a.account === 'clearing:stripe')?.balance).toBe('-2000')
  })

  it('refuses forged, stale and mismatched events and credits nothing', async () => {
    const { sessionId } = await (await checkout({ amountUsd: '7.00', currency: 'usd', targetUsername: 'ada' })).json()
    const session = [...stub.sessions.values()].find((s) => s.client_reference_id === sessionId)!
    const before = await usdBalance()
    const good = signedCompletion(session)
    const forged = { ...good.headers, 'stripe-signature': sdk.webhooks.generateTestHeaderString({ payload: good.payload, secret: 'whsec_someone_else' }) }
    expect((await post('/webhooks/payments/stripe', good.payload, forged)).status).toBe(400)
    expect((await post('/webhooks/payments/stripe', good.payload.replace('"700"', '"1"'), { ...good.headers, 'stripe-signature': 't=1,v1=00' })).status).toBe(400)
    const stale = { ...good.headers, 'stripe-signature': sdk.webhooks.generateTestHeaderString({ payload: good.payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 }) }
    expect((await post('/webhooks/payments/stripe', good.payload, stale)).status).toBe(400)
    const underpaid = signedCompletion(session, { amount_total: 1 })
    expect((await post('/webhooks/payments/stripe', underpaid.payload, underpaid.headers)).status).toBe(422)
    const unpaid = signedCompletion(session, { payment_status: 'unpaid' })
    expect(await (await post('/webhooks/payments/stripe', unpaid.payload, unpaid.headers)).json()).toMatchObject({ ok: true, credited: false })
    expect((await post('/webhooks/payments/test', good.payload, good.headers)).status).toBe(404)
    expect(await usdBalance()).toBe(before)
  })

  it('answers 503 and records nothing when Stripe refuses or cannot be reached', async () => {
    const unreachable = createCairn({ logError: () => {}, payments: new StripePaymentProcessor({ secretKey: 'sk_test_wrong', webhookSecret: WEBHOOK_SECRET, apiBaseUrl: stub.url }) })
    await unreachable.ready
    await createValueUser(unreachable.container.get(Symbol.for('cairn.Store')), 'ada')
    const response = await unreachable.fetch(new Request('http://127.0.0.1:8787/api/payments/embed/checkout', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amountUsd: '1', currency: 'usd', targetUsername: 'ada', idempotencyKey: 'x' }),
    }))
    expect(response.status).toBe(503)
    const store = unreachable.container.get<import('../../ports/store.js').Store>(Symbol.for('cairn.Store'))
    expect(await store.get('value.idempotency', `checkout:embed:usr_ada:x`)).toBeUndefined()
    await unreachable.close()
  })

  it('is chosen by the deployment configuration with secrets from the environment only', () => {
    expect(selectPaymentProcessor({ baseUrl: 'http://127.0.0.1:1', deployment: {} }, new FixedClock(0), {}).name).toBe('test')
    expect(() => selectPaymentProcessor({ baseUrl: 'http://127.0.0.1:1', deployment: { payments: { processor: 'stripe' } } }, new FixedClock(0), {})).toThrow(/STRIPE_SECRET_KEY/)
    expect(selectPaymentProcessor({ baseUrl: 'http://127.0.0.1:1', deployment: { payments: { processor: 'stripe' } } }, new FixedClock(0), { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }).name).toBe('stripe')
  })
})

describe('Stripe checkout with a Φ price (`payments.phiPerUsd`)', () => {
  let priced: Cairn
  let pricedServer: RunningServer
  let beaId: string
  const storeOf = () => priced.container.get<Store>(Symbol.for('cairn.Store'))
  const postPriced = (path: string, body: string, headers: Record<string, string>) => fetch(`${pricedServer.url}${path}`, { method: 'POST', headers, body })

  beforeAll(async () => {
    priced = createCairn({
      clock: new FixedClock(Date.parse('2026-06-25T00:00:00.000Z')), logError: () => {}, sweep: false,
      deployment: { payments: { processor: 'stripe', phiPerUsd: '2.5' } },
      payments: new StripePaymentProcessor({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiBaseUrl: stub.url }),
    })
    await priced.ready
    beaId = await createValueUser(storeOf(), 'bea')
    pricedServer = await startHttpServer(priced.nodeHandler, { host: '127.0.0.1', port: 0 })
  })
  afterAll(async () => {
    await pricedServer.close()
    await priced.close()
  })

  it('a signed completion credits exactly the Φ the price promised, in one two-legged entry shown in the public feed, once', async () => {
    const created = await postPriced('/api/payments/embed/checkout', JSON.stringify({ amountUsd: '12.34', currency: 'usd', targetUsername: 'bea' }), { 'content-type': 'application/json' })
    expect(created.status).toBe(200)
    const { sessionId } = await created.json()
    // Stripe is asked for the dollars; the Φ is Cairn's promise, priced when the session was made.
    const session = [...stub.sessions.values()].find((s) => s.client_reference_id === sessionId)!
    expect(session.amount_total).toBe(1234)
    const event = signedCompletion(session)
    const delivered = await postPriced('/webhooks/payments/stripe', event.payload, event.headers)
    expect(delivered.status).toBe(200)
    expect(await delivered.json()).toMatchObject({ ok: true, credited: true })

    // 1234 cents at 2.5 Φ per dollar = 30.85 Φ = 30 850 000 µΦ, exactly.
    const phi = 30_850_000n
    const entries = (await storeOf().query(VALUE_ENTRIES, { index: 'byCreatedAt', limit: 100 })).items.map((d) => d.value as unknown as LedgerEntry)
    expect(entries.map(({ kind, unit, amount, debit, credit, exchange }) => ({ kind, unit, amount, debit, credit, exchange }))).toEqual([{
      kind: 'checkout', unit: 'phi', amount: String(phi), debit: 'issuance', credit: walletAccount(beaId),
      exchange: { unit: 'usd', amount: '1234', debit: 'clearing:stripe', credit: 'sales:phi' },
    }])
    const balance = async (unit: 'phi' | 'usd') => (await storeOf().get<{ balance: string }>('value.accounts', `${unit}:wallet:${beaId}`))?.value.balance ?? '0'
    expect([await balance('phi'), await balance('usd')]).toEqual([String(phi), '0'])
    const feed = await (await fetch(`${pricedServer.url}/api/wallet/ledger/public`)).json()
    expect(feed.events).toMatchObject([{ kind: 'checkout', amountPhiMicro: String(phi), amountUsdCents: '1234', fromActor: 'cairn' }])

    // Stripe redelivers (its retries, or a replayed event): acknowledged, nothing more is credited.
    const again = await postPriced('/webhooks/payments/stripe', event.payload, event.headers)
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ ok: true, credited: false })
    expect((await storeOf().query(VALUE_ENTRIES, { index: 'byCreatedAt', limit: 100 })).items).toHaveLength(1)
    expect(await balance('phi')).toBe(String(phi))
    const trial = await trialBalance({ store: storeOf() })
    expect(trial.sums).toEqual({ phi: 0n, usd: 0n })
    expect(trial.accounts).toEqual(expect.arrayContaining([
      expect.objectContaining({ unit: 'usd', account: 'sales:phi', balance: '1234' }), expect.objectContaining({ unit: 'usd', account: 'clearing:stripe', balance: '-1234' }),
      expect.objectContaining({ unit: 'phi', account: 'issuance', balance: String(-phi) }),
    ]))
  })
})
