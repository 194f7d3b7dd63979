/**
 * Issue 22 §7, embedded checkout, performed over HTTP: an idempotency key is the payer's, so
 * another payer repeating it (key and body) never receives the first payer's session and its
 * `clientSecret`; `successUrl`/`cancelUrl` go only to this deployment's origin or a registered
 * client's, never an open redirect through the processor. Each refusal writes nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { createValueUser, valueBearer } from '../../conformance/support/value-users.js'
import { issueBearerToken } from '../../conformance/support/bearer-token.js'
import { signInOverHttp } from '../../hosts/cli/serve-process-test-support.js'
import { startHttpServer, type RunningServer } from '../../hosts/http/start-http-server.js'
import { PINNED_TIME } from '../../hosts/http/test-support.js'
import { createCairn, type Cairn } from '../../hosts/library/create-cairn.js'
import type { Store } from '../../ports/store.js'
import type { Principal } from '../auth/principal.js'
import { countingStore } from '../../conformance/support/counting-store.js'
import { TestPaymentProcessor } from '../../adapters/payments/index.js'
import { memoryDeps } from '../../hosts/http/describe-env.js'
import { collections } from '../usecases/collections.js'
import type { UseCase } from '../usecases/use-case.js'
import { valueUseCases } from './index.js'

const BASE_URL = 'http://cairn.checkout.test'
const SHOP = 'https://shop.example'
const DEPLOYMENT = { clients: [{ clientId: 'shop', redirectUris: [`${SHOP}/return`] }], businessAccounts: [] }
let cairn: Cairn
let server: RunningServer
let store: Store
const counted = countingStore()
const NOW = Date.now()

beforeAll(async () => {
  cairn = createCairn({
    baseUrl: BASE_URL, clock: new FixedClock(NOW), store: counted.store, logError: () => {}, logIntegration: false, sweep: false,
    deployment: DEPLOYMENT,
  })
  await cairn.ready
  store = cairn.container.get<Store>(Symbol.for('cairn.Store'))
  await createValueUser(store, 'ada')
  server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
})
afterAll(async () => {
  await server.close()
  await cairn.close()
})

const embed = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const response = await fetch(`${server.url}/api/payments/embed/checkout`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  return { status: response.status, replayed: response.headers.get('idempotent-replayed'), body: (await response.json()) as Record<string, unknown> }
}
/** Store commits so far: a refusal makes none. */
const written = () => counted.commits()
const EMBEDDED = { amountUsd: '7.00', currency: 'usd', targetUsername: 'ada', mode: 'embedded' }

describe('embedded checkout idempotency belongs to the payer', () => {
  it('another anonymous payer repeating the key and body gets 409 without the first session or its clientSecret', async () => {
    const body = { ...EMBEDDED, idempotencyKey: 'order-1001' }
    const first = await embed(body)
    expect(first).toMatchObject({ status: 200, body: { ok: true, clientSecret: expect.stringContaining('_secret_') } })
    const before = written()
    const attack = await embed(body)
    expect(attack.status).toBe(409)
    expect(attack.body).toEqual({ ok: false, error: expect.stringContaining('only answered to the payer who created it') })
    expect(JSON.stringify(attack.body)).not.toContain(first.body.clientSecret as string)
    expect(JSON.stringify(attack.body)).not.toContain(first.body.sessionId as string)
    expect(written()).toEqual(before)
  })

  it('a signed-in payer\'s key replays to that payer only; another signed-in payer with the same key gets a session of their own', async () => {
    const [payer, other] = [await signInOverHttp(server.url, BASE_URL, 'payer1'), await signInOverHttp(server.url, BASE_URL, 'payer2')]
    const body = { ...EMBEDDED, idempotencyKey: 'order-2002' }
    const first = await embed(body, { cookie: payer })
    const retry = await embed(body, { cookie: payer })
    expect(retry).toEqual({ ...first, replayed: 'true' })
    const theirs = await embed(body, { cookie: other })
    expect(theirs).toMatchObject({ status: 200, replayed: null })
    expect(theirs.body.sessionId).not.toBe(first.body.sessionId)
    expect(theirs.body.clientSecret).not.toBe(first.body.clientSecret)
    // Nor does the anonymous scope reach a signed-in payer's key.
    const anonymous = await embed(body)
    expect(anonymous.body.clientSecret).not.toBe(first.body.clientSecret)
  })
})

describe('checkout return URLs stay on registered origins', () => {
  it('refuses a successUrl or cancelUrl on any other origin (an open redirect through the processor), writing nothing', async () => {
    const before = written()
    for (const urls of [
      { successUrl: 'https://evil.example/phish' }, { cancelUrl: 'https://evil.example/' }, { successUrl: `${BASE_URL}.evil.example/` },
      { successUrl: 'http://shop.example/return' }, { successUrl: 'javascript:alert(1)' }, { cancelUrl: `${SHOP}:8443/return` },
    ]) {
      const refused = await embed({ ...EMBEDDED, ...urls, idempotencyKey: `redirect-${JSON.stringify(urls)}` })
      expect(refused).toMatchObject({ status: 400, body: { ok: false, error: expect.stringMatching(/^(successUrl|cancelUrl) must be on this deployment's origin/) } })
    }
    expect(written()).toEqual(before)
  })

  it('accepts the deployment\'s origin and a registered client\'s origin', async () => {
    const accepted = await embed({ ...EMBEDDED, successUrl: `${BASE_URL}/paid?session={CHECKOUT_SESSION_ID}`, cancelUrl: `${SHOP}/cart` })
    expect(accepted).toMatchObject({ status: 200, body: { ok: true } })
  })

  it('a Connect checkout returns only to its own client\'s origins or the deployment\'s', async () => {
    const { accessToken } = await issueBearerToken((path, init) => fetch(`${server.url}${path}`, init), BASE_URL, NOW, ['cairn:payments.create'])
    const connect = async (body: Record<string, unknown>) => {
      const response = await fetch(`${server.url}/api/connect/payments/checkout`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` }, body: JSON.stringify({ amountUsd: '1.00', currency: 'usd', ...body }),
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    }
    const before = written()
    // The token's client ('ci') registered no origin: the shop's is another client's.
    expect(await connect({ successUrl: `${SHOP}/return` })).toMatchObject({ status: 400, body: { ok: false, error: expect.stringContaining('the client\'s redirect URIs') } })
    expect(written()).toEqual(before)
    expect(await connect({ successUrl: `${BASE_URL}/done` })).toMatchObject({ status: 200, body: { ok: true } })
    // A token of the shop's own client may return to the shop (in-process: the rule reads the token's client).
    const deps = { ...memoryDeps({ baseUrl: BASE_URL, deployment: DEPLOYMENT }), payments: new TestPaymentProcessor(new FixedClock(PINNED_TIME), BASE_URL) }
    await deps.store.declare(collections)
    const owner = await createValueUser(deps.store, 'shopper')
    const shopToken = { ...(valueBearer(owner) as Extract<Principal, { kind: 'bearer' }>), clientId: 'shop' }
    const asShop = await (valueUseCases.createConnectCheckout as unknown as UseCase)(
      { params: {}, query: {}, body: { amountUsd: '1.00', currency: 'usd', successUrl: `${SHOP}/return` }, principal: shopToken }, deps,
    )
    expect(E.isRight(asShop)).toBe(true)
  })
})
