/**
 * The sign-in and consent pages in a real browser (Debian Chromium, headless, driven by
 * playwright-core): a relying party using openid-client starts the code flow, the browser signs up
 * with a WebCrypto key kept in IndexedDB, consents on Cairn's page, and the relying party receives
 * and checks tokens. Skipped, saying so, when no Chromium is installed.
 */
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as client from 'openid-client'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REDIRECT_URI, startOidcTestHost, TEST_CLIENTS, type OidcTestHost } from '../oidc-test-support.js'
import { CONSENTS } from '../../../core/oidc/collections.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const haveBrowser = existsSync(CHROMIUM)
if (!haveBrowser) console.warn(`[cairn] browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`)

/** Where the screenshots go (outside the repository). */
export const SCREENSHOT_DIR = process.env.CAIRN_SCREENSHOT_DIR ?? tmpdir()

describe.skipIf(!haveBrowser)('sign-in and consent pages in headless Chromium', () => {
  let host: OidcTestHost
  let browser: Browser
  beforeAll(async () => {
    host = await startOidcTestHost()
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await host?.close()
  })

  it('an openid-client relying party gets tokens after the browser signs up and consents', async () => {
    const config = await client.discovery(new URL(host.url), TEST_CLIENTS.partner.clientId, undefined, client.ClientSecretBasic(TEST_CLIENTS.partner.secret), {
      execute: [client.allowInsecureRequests],
    })
    const codeVerifier = client.randomPKCECodeVerifier()
    const state = client.randomState()
    const nonce = client.randomNonce()
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI, scope: 'openid profile cairn:record', state, nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: 'S256', login_hint: 'grace',
    })

    const page = await (await browser.newContext()).newPage()
    const consoleErrors: string[] = []
    page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()) })
    // The relying party's callback is not a real site: the browser hands the redirect to the test.
    let callback: URL | undefined
    await page.route('https://rp.example/**', async (route) => {
      callback = new URL(route.request().url())
      await route.fulfill({ contentType: 'text/html', body: '<p>relying party received the code</p>' })
    })

    await page.goto(authorizationUrl.href)
    expect(new URL(page.url()).pathname).toBe('/login')
    expect(await page.inputValue('#username')).toBe('grace') // login_hint reached the page
    await page.fill('#display-name', 'Grace Hopper')
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'cairn-login-page.png') })
    await page.click('button[type=submit]')

    await page.waitForURL((url) => url.pathname === '/consent', { timeout: 15_000 })
    await expect(page.textContent('h1')).resolves.toContain('Partner asks for access')
    const listed = await page.locator('ul.scopes li').allTextContents()
    expect(listed).toEqual([expect.stringContaining('OpenID Connect sign-in'), expect.stringContaining('Username and display name'), expect.stringContaining('Record on the owner')])
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'cairn-consent-page.png') })
    await page.click('#allow')

    await page.waitForURL((url) => url.hostname === 'rp.example', { timeout: 15_000 })
    expect(callback?.searchParams.get('code')).toBeTruthy()
    const tokens = await client.authorizationCodeGrant(config, callback!, { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce })
    expect(tokens.claims()).toMatchObject({ iss: host.url, aud: 'partner', amr: ['pop'] })
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub)
    expect(userinfo).toMatchObject({ preferred_username: 'grace', name: 'Grace Hopper' })

    // The private key stayed non-extractable in IndexedDB.
    await page.goto(`${host.url}/login`)
    const stored = await page.evaluate(() => new Promise<{ extractable: boolean; type: string; algorithm: string }>((resolve, reject) => {
      const open = indexedDB.open('cairn-id', 1)
      open.onerror = () => reject(open.error)
      open.onsuccess = () => {
        const get = open.result.transaction('keys').objectStore('keys').get('grace')
        get.onsuccess = () => resolve({ extractable: get.result.privateKey.extractable, type: get.result.privateKey.type, algorithm: get.result.privateKey.algorithm.name })
      }
    }))
    expect(stored).toEqual({ extractable: false, type: 'private', algorithm: 'ECDSA' })
    expect((await host.deps.store.query(CONSENTS, { index: 'byUser', limit: 10 })).items).toHaveLength(1)
    expect(consoleErrors).toEqual([])
    expect(host.unexpectedErrors).toEqual([])
  }, 60_000)
})
