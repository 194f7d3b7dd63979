/**
 * The pages a person lives with, in headless Chromium: `GET /` says what the server is and links
 * onwards, `/favicon.ico` exists, and signing in on `/login` without `next` lands on the account
 * page — who they are, Φ and US balances, ID keys, sessions, agent tokens — where an agent token
 * is revoked and sign-out is one link away. Skipped, saying so, when no Chromium is installed.
 */
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { haveBrowser, launchChromium, SCREENSHOT_DIR, startLoopbackCairn, warnWithoutBrowser, type LoopbackCairn } from './browser-test-support.js'

warnWithoutBrowser('the landing and account page tests')

describe.skipIf(!haveBrowser)('landing and account pages in headless Chromium', () => {
  let host: LoopbackCairn
  let browser: Browser
  let base: string
  beforeAll(async () => {
    host = await startLoopbackCairn()
    base = host.base
    browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await host?.close()
  })

  it('GET / links to verify, sign-in, the OpenAPI document and the docs; the favicon and docs answer', async () => {
    const page = await (await browser.newContext()).newPage()
    await page.goto(`${base}/`)
    await expect(page.textContent('h1')).resolves.toBe('Cairn')
    for (const [id, path] of [['verify', '/verify'], ['login', '/login'], ['openapi', '/openapi.json'], ['docs', '/docs']]) {
      expect(await page.getAttribute(`#${id}`, 'href')).toBe(path)
      expect((await fetch(`${base}${path}`)).status).toBe(200)
    }
    const icon = await fetch(`${base}/favicon.ico`)
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml'])
    expect(await (await fetch(`${base}/docs/value.md`)).text()).toContain('# Value')
    expect((await fetch(`${base}/docs/..%2Fpackage.json`)).status).toBe(404)
  })

  it('signing in without next lands on the account page, where an agent token is revoked', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const consoleErrors: string[] = []
    page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()) })
    await page.goto(`${base}/login`)
    await page.fill('#username', 'ada')
    await page.fill('#display-name', 'Ada Lovelace')
    await page.click('button[type=submit]')
    await page.waitForURL(`${base}/account`, { timeout: 15_000 })
    await expect(page.textContent('h1')).resolves.toBe('Ada Lovelace')
    await expect(page.textContent('#username')).resolves.toBe('ada')
    await expect(page.textContent('#balance-phi')).resolves.toBe('0 Φ')
    await expect(page.textContent('#balance-usd')).resolves.toBe('$0.00')
    expect(await page.locator('#keys li').count()).toBe(1)
    await expect(page.textContent('#sessions')).resolves.toContain('(this browser)')

    // A program's token, minted with this browser's session, shows up and is revoked here.
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ')
    const minted = await fetch(`${base}/api/oidc/agent-tokens`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ clientId: 'ci', scopes: ['cairn:wallet.read'], label: 'nightly build' }) })
    const { accessToken } = (await minted.json()) as { accessToken: string }
    expect((await fetch(`${base}/api/connect/wallet/me`, { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(200)
    await page.reload()
    await expect(page.textContent('#agent-tokens')).resolves.toContain('nightly build')
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'cairn-account-page.png'), fullPage: true })
    await page.click('#agent-tokens button')
    await page.waitForURL(`${base}/account`)
    await expect(page.textContent('#agent-tokens')).resolves.toBe('None.')
    expect((await fetch(`${base}/api/connect/wallet/me`, { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(401)

    // The revocation form from anywhere else, or without its token, changes nothing.
    const forged = await fetch(`${base}/account`, { method: 'POST', headers: { origin: 'https://evil.example', cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=revoke-token&clientId=ci&tokenId=x' })
    expect(forged.status).toBe(403)
    const noCsrf = await fetch(`${base}/account`, { method: 'POST', headers: { origin: base, cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=revoke-token&clientId=ci&tokenId=x' })
    expect(noCsrf.status).toBe(403)

    expect(await page.getAttribute('#sign-out', 'href')).toBe('/logout')
    // Signed out, the account page sends the browser to sign in.
    const anonymous = await fetch(`${base}/account`, { redirect: 'manual' })
    expect([anonymous.status, anonymous.headers.get('location')]).toEqual([303, '/login?next=%2Faccount'])
    expect(consoleErrors).toEqual([])
  }, 60_000)

  it('a browser without the key gets back in with a one-time code made on a signed-in device', async () => {
    const signInAs = async (username: string) => {
      const page = await (await browser.newContext()).newPage()
      await page.goto(`${base}/login`)
      await page.fill('#username', username)
      await page.click('#sign-in button[type=submit]')
      return page
    }
    // The old device: signed in just now, it makes a code.
    const old = await signInAs('grace')
    await old.waitForURL(`${base}/account`)
    await old.click('#make-link-code')
    const code = (await old.textContent('#link-code'))!.trim()
    expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/)

    // A new browser: the username is taken, and the page offers the way back instead of a dead end.
    const fresh = await signInAs('grace')
    await fresh.waitForSelector('#link:not([hidden])')
    await expect(fresh.textContent('#status')).resolves.toContain('already has an account')
    await fresh.fill('#link-code', 'WRONG-CODE0')
    await fresh.click('#link button[type=submit]')
    await expect.poll(() => fresh.textContent('#status')).toContain('wrong, used or expired')
    await fresh.fill('#link-code', code.toLowerCase())
    await fresh.screenshot({ path: join(SCREENSHOT_DIR, 'cairn-link-browser.png') })
    await fresh.click('#link button[type=submit]')
    await fresh.waitForURL(`${base}/account`, { timeout: 15_000 })
    expect(await fresh.locator('#keys li').count()).toBe(2)

    // The code worked once: a third browser cannot use it again.
    const third = await signInAs('grace')
    await third.waitForSelector('#link:not([hidden])')
    await third.fill('#link-code', code)
    await third.click('#link button[type=submit]')
    await expect.poll(() => third.textContent('#status')).toContain('wrong, used or expired')
    // And the second browser now signs in with its own key, no code needed.
    await fresh.goto(`${base}/login`)
    await fresh.click('#sign-in button[type=submit]')
    await fresh.waitForURL(`${base}/account`)
  }, 90_000)
})
