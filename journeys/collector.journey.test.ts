/**
 * Journey 2, a collector and two buyers: a sports card is recorded and listed at a fixed price; a
 * buyer funds Φ by checkout (the test processor's page, clicked in Chromium), buys, and the new
 * owner and the sale show in the public feeds; the buyer auctions it on, a second buyer (funded by
 * the operator's `cairn value issue`) outbids the first, and the settlement moves value exactly
 * once. Over HTTP, the browser and the CLI only, on `cairn serve --data-dir`.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardImageOf, cardManifestFor } from '../conformance/support/signal-cards-test-support.js'
import { haveBrowser, launchChromium, SCREENSHOT_DIR, warnWithoutBrowser } from '../hosts/http/pages/browser-test-support.js'
import { agentToken, call, expectConserved, phiBalance, publicWalletLedger, runCli, signIn, startJourneyServer, type JourneyServer, type Person } from './journey-server.js'

warnWithoutBrowser('the collector journey')

const PHI = 1_000_000n
/** Long enough for the four market calls that must land before the close, on a busy machine; the deployment allows it. */
const AUCTION_SECONDS = 10
let server: JourneyServer
beforeAll(async () => {
  server = await startJourneyServer({ payments: { processor: 'test', phiPerUsd: '100' }, cards: { auctionMinSeconds: AUCTION_SECONDS } })
}, 60_000)
afterAll(async () => server?.stop())

async function recordCard(person: Person, seed: number): Promise<string> {
  const image = cardImageOf(seed)
  const form = new FormData()
  form.append('file', new Blob([image as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'card.png')
  const sealed = await fetch(`${server.url}/api/sdk/v1/assets/seal`, { method: 'POST', body: form, headers: { cookie: person.cookie } })
  expect(sealed.status).toBe(200)
  const { sealedBytesB64u } = (await sealed.json()) as { sealedBytesB64u: string }
  const recorded = await call(server, 'POST', '/api/game/signal-run/cards/record', { cookie: person.cookie, body: { manifest: cardManifestFor(image, `journey-${seed}`), sealedImageB64u: sealedBytesB64u } })
  expect(recorded.status).toBe(200)
  return recorded.body.card.cardId
}

const market = (person: Person, cardId: string, body: unknown) => call(server, 'POST', `/api/game/signal-run/cards/${cardId}/auction`, { cookie: person.cookie, body })

/** Bea opens the checkout page in a browser, sees the amount and presses Pay. */
async function payInBrowser(checkoutUrl: string): Promise<void> {
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    await page.goto(checkoutUrl)
    await expect(page.textContent('#amount')).resolves.toBe('$1.00')
    await expect(page.textContent('#buys')).resolves.toBe('100 Φ')
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'cairn-journey-checkout.png') })
    await page.click('#pay')
    await page.waitForURL((url) => url.pathname.startsWith('/after-checkout'))
  } finally {
    await browser.close()
  }
}

describe.skipIf(!haveBrowser)('journey 2: a collector sells a card, the buyer funds Φ by checkout, buys and auctions it on', () => {
  it('record → list → fund by checkout → buy → public feeds → auction → outbid → settled exactly once', async () => {
    const [sam, bea, cy] = [await signIn(server, 'sam'), await signIn(server, 'bea'), await signIn(server, 'cyra')] as const
    const walletToken = (person: Person) => agentToken(server, person, ['cairn:wallet.read', 'cairn:payments.create'])
    const [samWallet, beaWallet, cyWallet] = [await walletToken(sam), await walletToken(bea), await walletToken(cy)]

    const cardId = await recordCard(sam, 41)
    expect(await market(sam, cardId, { action: 'list', pricePhiMicro: String(60n * PHI) })).toMatchObject({ status: 200 })
    const terms = await call(server, 'GET', `/api/game/signal-run/cards/${cardId}/purchase`)
    expect(terms.body).toMatchObject({ ok: true, forSale: true, owner: { username: 'sam' }, sale: { kind: 'sale', pricePhiMicro: String(60n * PHI) } })

    // Bea cannot pay yet.
    const broke = await market(bea, cardId, { action: 'buy', pricePhiMicro: String(60n * PHI) })
    expect(broke.status).toBe(422)
    expect(broke.body.error).toMatch(/balance/)

    // Bea funds $1.00 → 100 Φ on the test processor's page, and comes back to the shop's page.
    const checkout = await call(server, 'POST', '/api/connect/payments/checkout', {
      token: beaWallet, body: { amountUsd: '1.00', currency: 'usd', successUrl: `${server.url}/after-checkout`, cancelUrl: `${server.url}/after-checkout?cancelled` },
    })
    expect(checkout.status).toBe(200)
    await payInBrowser(checkout.body.checkoutUrl)
    expect(await phiBalance(server, beaWallet)).toBe(100n * PHI)

    const bought = await market(bea, cardId, { action: 'buy', pricePhiMicro: String(60n * PHI) })
    expect(bought.status).toBe(200)
    expect(bought.body).toMatchObject({ ok: true, cardId, market: { phase: 'sold' } })
    expect([await phiBalance(server, samWallet), await phiBalance(server, beaWallet)]).toEqual([60n * PHI, 40n * PHI])

    // The public feeds: the card's owner is bea now, and the sale is a wallet ledger transfer.
    expect((await call(server, 'GET', `/api/game/signal-run/cards/${cardId}/purchase`)).body).toMatchObject({ owner: { username: 'bea', via: 'sale' }, forSale: false })
    const afterSale = await publicWalletLedger(server)
    expect(afterSale.events.map((event) => [event.kind, event.amountPhiMicro, event.amountUsdCents])).toEqual([['checkout', String(100n * PHI), '100'], ['transfer', String(60n * PHI), '0']])
    expect(afterSale.events[1].fromActor).toBe(afterSale.events[0].toActor)

    // The operator funds cy from the command line, against the data dir the server uses.
    const issued = await runCli(['value', 'issue', '--user', 'cyra', '--phi', '80', '--key', 'cy-grant', '--data-dir', server.dataDir, '--config', server.configFile])
    expect(issued).toMatchObject({ code: 0, stdout: expect.stringContaining('Issued 80 Φ to cyra') })

    // Bea auctions the card on; sam bids, cy outbids.
    const opened = await market(bea, cardId, { action: 'open', startingBidPhiMicro: String(10n * PHI), durationSeconds: AUCTION_SECONDS })
    expect(opened.status).toBe(200)
    expect((await market(sam, cardId, { action: 'bid', amountPhiMicro: String(20n * PHI) })).status).toBe(200)
    expect((await market(cy, cardId, { action: 'bid', amountPhiMicro: String(15n * PHI) })).status).toBe(422) // below the next minimum
    expect((await market(cy, cardId, { action: 'bid', amountPhiMicro: String(30n * PHI) })).status).toBe(200)
    expect((await market(sam, cardId, { action: 'settle' })).status).toBe(409) // not closed yet

    // After the close anyone may settle; two settlers at once move the value once.
    const closesAt = Date.parse(opened.body.market.closesAt)
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, closesAt - Date.now()) + 500))
    const settlements = await Promise.all([market(sam, cardId, { action: 'settle' }), market(cy, cardId, { action: 'settle' })])
    expect(settlements.map((settled) => settled.status).sort()).toEqual([200, 409])
    const auction = await call(server, 'GET', `/api/game/signal-run/cards/${cardId}/auction`)
    expect(auction.body).toMatchObject({ owner: { username: 'cyra', via: 'auction' } })
    expect(await Promise.all([samWallet, beaWallet, cyWallet].map((token) => phiBalance(server, token)))).toEqual([60n * PHI, 70n * PHI, 50n * PHI])

    const { events } = await publicWalletLedger(server)
    expect(events.map((event) => event.kind)).toEqual(['checkout', 'transfer', 'issuance', 'transfer'])
    expect(events[3]).toMatchObject({ amountPhiMicro: String(30n * PHI), fromActor: events[2].toActor, toActor: afterSale.events[0].toActor })
    await expectConserved(server, await Promise.all([samWallet, beaWallet, cyWallet].map((token) => phiBalance(server, token))))
  }, 180_000)
})
