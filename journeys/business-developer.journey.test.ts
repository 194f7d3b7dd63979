/**
 * Journey 3, a Business developer: mints an agent token, creates a webhook endpoint, funds the
 * wallet by checkout on the test processor's page, runs a metered Creator run, receives the
 * delivery and verifies it with the standardwebhooks library, and finds the charge in the ledger.
 * Over HTTP only, on `cairn serve --data-dir` with a deployment file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReceiver } from '../hosts/http/webhook-receiver-test-support.js'
import { agentToken, call, expectConserved, phiBalance, publicWalletLedger, signIn, startJourneyServer, type JourneyServer } from './journey-server.js'

let server: JourneyServer
let receiver: Awaited<ReturnType<typeof startReceiver>>
let secret = ''
beforeAll(async () => {
  receiver = await startReceiver(() => [secret])
  server = await startJourneyServer({ businessAccounts: ['bea'], payments: { processor: 'test', phiPerUsd: '100' }, webhooks: { allowHttpLoopback: true, allowPrivateNetworks: true } })
}, 60_000)
afterAll(async () => {
  await server?.stop()
  await new Promise((resolve) => receiver?.server.close(resolve))
})

/** Pays a checkout on its hosted page, as the browser submits the page's form. */
async function payOnHostedPage(checkoutUrl: string): Promise<string | null> {
  const page = await fetch(checkoutUrl)
  expect(page.status).toBe(200)
  expect(await page.text()).toContain('Pay $')
  const paid = await fetch(checkoutUrl, { method: 'POST', redirect: 'manual', headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=pay' })
  expect(paid.status).toBe(303)
  return paid.headers.get('location')
}

describe('journey 3: a Business developer pays for a metered Creator run and receives its webhook', () => {
  it('agent token → webhook endpoint → fund → Creator run → verified delivery → charge in the ledger', async () => {
    const bea = await signIn(server, 'bea')
    const token = await agentToken(server, bea, ['cairn:production', 'cairn:wallet.read', 'cairn:payments.create', 'cairn:payments.read'])

    const endpoint = await call(server, 'POST', '/api/developers/webhooks', { token, body: { url: receiver.url, eventTypes: ['creator.run.completed'], description: 'journey' } })
    expect(endpoint.body.error).toBeUndefined()
    expect(endpoint.status).toBe(200)
    expect(endpoint.body).toMatchObject({ ok: true, secret: expect.stringMatching(/^whsec_/), endpoint: { url: receiver.url, enabled: true } })
    secret = endpoint.body.secret

    // Before funding, a run is refused for its quote and nothing is charged.
    const quoteExpiresAt = () => new Date(Date.now() + 10 * 60_000).toISOString()
    const broke = await call(server, 'POST', '/api/developers/creator/run', { token, body: { requestId: 'run-0', quoteExpiresAt: quoteExpiresAt(), prompt: 'A haiku about cairns' } })
    expect(broke.status).toBe(422)
    expect(broke.body.error).toMatch(/balance/)

    // Fund: $2.00 at 100 Φ per dollar, paid on the hosted page.
    const checkout = await call(server, 'POST', '/api/connect/payments/checkout', { token, body: { amountUsd: '2.00', currency: 'usd', idempotencyKey: 'fund-1' } })
    expect(checkout.status).toBe(200)
    expect(checkout.body.checkoutUrl).toBe(`${server.url}/checkout/test/${checkout.body.sessionId}`)
    expect(await payOnHostedPage(checkout.body.checkoutUrl)).toBe(server.url)
    const session = await call(server, 'GET', `/api/connect/payments/session?sessionId=${checkout.body.sessionId}`, { token })
    expect(session.body).toMatchObject({ status: 'complete', amountUsd: '2.00' })
    expect(await phiBalance(server, token)).toBe(200_000_000n)

    const run = await call(server, 'POST', '/api/developers/creator/run', { token, body: { requestId: 'run-1', quoteExpiresAt: quoteExpiresAt(), prompt: 'A haiku about cairns' } })
    expect(run.status).toBe(200)
    expect(run.body).toMatchObject({ ok: true, run: { requestId: 'run-1', chargedPhiMicro: expect.stringMatching(/^[1-9][0-9]*$/), entryId: expect.stringMatching(/^ent_/) } })
    const charged = BigInt(run.body.run.chargedPhiMicro)
    expect(charged).toBeLessThanOrEqual(BigInt(run.body.run.quotePhiMicro))
    expect(await phiBalance(server, token)).toBe(200_000_000n - charged)

    // The delivery arrives, verified with the endpoint's secret by the standardwebhooks library.
    await expect.poll(() => receiver.received.length, { timeout: 30_000, interval: 200 }).toBe(1)
    const [delivery] = receiver.received
    expect(delivery!.verifiedWith).toBe(secret)
    expect(delivery!.event).toMatchObject({ type: 'creator.run.completed', data: { requestId: 'run-1', creditsUsed: String(charged), entryId: run.body.run.entryId } })

    // The charge is in the public action ledger; the checkout in the public wallet ledger, both units exact.
    const actions = await call(server, 'GET', '/api/ledger/actions/public?limit=200')
    expect(actions.body.events.filter((event: { kind: string; action: string }) => event.kind === 'wallet').map((event: { action: string }) => event.action)).toEqual(['checkout', 'production_usage'])
    const { events } = await publicWalletLedger(server)
    expect(events).toMatchObject([{ kind: 'checkout', amountPhiMicro: '200000000', amountUsdCents: '200', fromActor: 'cairn' }])
    await expectConserved(server, [await phiBalance(server, token)], charged)
  }, 120_000)
})
