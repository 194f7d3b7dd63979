/**
 * The test processor's hosted checkout page in headless Chromium: a person opens the checkoutUrl
 * a checkout answered, sees the amount and what it buys, presses Pay and lands on successUrl with
 * the Φ in the wallet (once, however often Pay is pressed); Cancel returns to cancelUrl and credits
 * nothing. Skipped, saying so, when no Chromium is installed.
 */
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createValueUser } from '../../../conformance/support/value-users.js'
import { loadAccount, trialBalance } from '../../../core/value/index.js'
import { TOKENS } from '../../../ports/tokens.js'
import type { Store } from '../../../ports/store.js'
import { haveBrowser, launchChromium, SCREENSHOT_DIR, startLoopbackCairn, warnWithoutBrowser, type LoopbackCairn } from './browser-test-support.js'

warnWithoutBrowser('the test checkout page test')

describe.skipIf(!haveBrowser)('the test processor\'s hosted checkout page in headless Chromium', () => {
  let host: LoopbackCairn
  let browser: Browser
  let store: Store
  let ada: string
  let base: string
  beforeAll(async () => {
    // The shop is a registered client: checkout returns only to the deployment's or a client's origin.
    host = await startLoopbackCairn({ deployment: { clients: [{ clientId: 'shop', redirectUris: ['https://shop.example/return'] }], payments: { processor: 'test', phiPerUsd: '100' } } })
    base = host.base
    store = host.cairn.container.get<Store>(TOKENS.Store)
    ada = await createValueUser(store, 'ada')
    browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await host?.close()
  })

  const checkout = async (amountUsd: string) => {
    const response = await fetch(`${base}/api/payments/embed/checkout`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amountUsd, currency: 'usd', targetUsername: 'ada', successUrl: 'https://shop.example/paid', cancelUrl: 'https://shop.example/cancelled' }),
    })
    expect(response.status).toBe(200)
    return (await response.json()) as { sessionId: string; checkoutUrl: string }
  }
  /** The shop is not a real site: the browser hands its pages to the test. */
  const shopPage = async (): Promise<Page> => {
    const page = await (await browser.newContext()).newPage()
    await page.route('https://shop.example/**', (route) => route.fulfill({ contentType: 'text/html', body: '<p>back at the shop</p>' }))
    return page
  }
  const phiOf = async () => (await loadAccount({ store }, 'phi', `wallet:${ada}`)).balance

  it('Pay credits the Φ the price buys, exactly once, and returns to successUrl', async () => {
    const { sessionId, checkoutUrl } = await checkout('12.50')
    expect(checkoutUrl).toBe(`${base}/checkout/test/${sessionId}`)
    const page = await shopPage()
    await page.goto(checkoutUrl)
    await expect(page.textContent('#amount')).resolves.toBe('$12.50')
    await expect(page.textContent('#buys')).resolves.toBe('1250 Φ')
    await expect(page.textContent('#target')).resolves.toBe('ada')
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'cairn-test-checkout-page.png') })
    await page.click('#pay')
    await page.waitForURL('https://shop.example/paid')
    expect(await phiOf()).toBe(1_250_000_000n)
    // Back and Pay again (a resubmitted form): the session is already paid, nothing more moves.
    await page.goto(checkoutUrl)
    await expect(page.textContent('h1')).resolves.toBe('Already paid')
    const again = await fetch(checkoutUrl, { method: 'POST', redirect: 'manual', headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=pay' })
    expect(again.headers.get('location')).toBe('https://shop.example/paid')
    expect(again.status).toBe(303)
    expect(await phiOf()).toBe(1_250_000_000n)
    const feed = (await (await fetch(`${base}/api/wallet/ledger/public`)).json()) as { events: { kind: string; amountPhiMicro: string; amountUsdCents: string }[] }
    expect(feed.events).toMatchObject([{ kind: 'checkout', amountPhiMicro: '1250000000', amountUsdCents: '1250' }])
    expect((await trialBalance({ store })).sums).toEqual({ phi: 0n, usd: 0n })
  }, 60_000)

  it('Cancel returns to cancelUrl and credits nothing; a form from elsewhere or an unknown session is refused', async () => {
    const before = await phiOf()
    const { checkoutUrl } = await checkout('5')
    const page = await shopPage()
    await page.goto(checkoutUrl)
    await page.click('#cancel')
    await page.waitForURL('https://shop.example/cancelled')
    expect(await phiOf()).toBe(before)
    const forged = await fetch(checkoutUrl, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=pay' })
    expect(forged.status).toBe(403)
    const bare = await fetch(checkoutUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=pay' })
    expect(bare.status).toBe(403)
    expect(await phiOf()).toBe(before)
    expect((await fetch(`${base}/checkout/test/cks_nothing`)).status).toBe(404)
  }, 60_000)
})
