/**
 * The test processor's hosted checkout page in headless Chromium: a person opens the checkoutUrl
 * a checkout answered, sees the amount and what it buys, presses Pay and lands on successUrl with
 * the Φ in the wallet (once, however often Pay is pressed); Cancel returns to cancelUrl and credits
 * nothing. Skipped, saying so, when no Chromium is installed.
 */
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createValueUser } from '../../../conformance/support/value-users.js'
import { createCairn, type Cairn } from '../../library/create-cairn.js'
import { loadAccount, trialBalance } from '../../../core/value/index.js'
import { TOKENS } from '../../../ports/tokens.js'
import type { Store } from '../../../ports/store.js'
import { startHttpServer, type RunningServer } from '../start-http-server.js'
import { freeLoopbackPort } from '../free-port-test-support.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const haveBrowser = existsSync(CHROMIUM)
const SCREENSHOT_DIR = process.env.CAIRN_SCREENSHOT_DIR ?? tmpdir()
if (!haveBrowser) console.warn(`[cairn] browser test skipped: no Chromium at ${CHROMIUM}`)

describe.skipIf(!haveBrowser)('the test processor\'s hosted checkout page in headless Chromium', () => {
  let cairn: Cairn
  let server: RunningServer
  let browser: Browser
  let store: Store
  let ada: string
  let base: string
  beforeAll(async () => {
    const port = await freeLoopbackPort()
    base = `http://127.0.0.1:${port}`
    cairn = createCairn({ baseUrl: base, deployment: { payments: { processor: 'test', phiPerUsd: '100' } }, logError: () => {} })
    await cairn.ready
    store = cairn.container.get<Store>(TOKENS.Store)
    ada = await createValueUser(store, 'ada')
    server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port })
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await cairn?.close()
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
