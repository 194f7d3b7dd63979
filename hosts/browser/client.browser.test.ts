/**
 * `cairn/client` bundled by esbuild and loaded in a real headless Chromium, on the origin of a
 * live Cairn: it creates a non-extractable ID key kept in IndexedDB, signs in with it (the
 * browser keeps the HttpOnly session cookie), finds the same key after a reload, seals a file as
 * the signed-in owner and verifies it offline against the pinned keys. Skipped, saying so, when
 * no browser is installed.
 */
import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromium, type Browser } from 'playwright-core'
import { createCairn, type Cairn } from '../library/create-cairn.js'
import { startHttpServer, type RunningServer } from '../http/start-http-server.js'
import { bundleForBrowser } from './client-bundle.js'

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'
const hasBrowser = existsSync(CHROMIUM)
if (!hasBrowser) console.warn(`client browser test skipped: no browser found at ${CHROMIUM} (install Debian's chromium or set CHROMIUM_PATH)`)

/** What the page runs: only the client's public entry point. */
const ENTRY = `
import { createCairnClient, fetchTrust, indexedDbKeyKeeper, loadOrCreateIdKey, sealFile, signIn, unwrap, verifySealedFile } from './index.js'
const client = createCairnClient({ baseUrl: location.origin })
window.signInAndSeal = async () => {
  const key = await loadOrCreateIdKey(indexedDbKeyKeeper())
  const signedIn = unwrap(await signIn(client, key, { username: 'grace', displayName: 'Grace', localUid: 'browser-1' }))
  const trust = await fetchTrust(client)
  const sealed = unwrap(await sealFile(client, { bytes: new TextEncoder().encode('{"from":"the browser"}'), filename: 'note.json', mimeType: 'application/json' }, { owned: true }))
  const verdict = await verifySealedFile(sealed.bytes, trust)
  const tampered = sealed.bytes.slice()
  tampered[tampered.indexOf(0x62)] ^= 0x20
  return {
    extractable: key.privateKey.extractable, keyId: key.keyId, username: signedIn.session.username,
    verdict: { ok: verdict.ok, kind: verdict.kind, owner: verdict.details?.owner?.username }, tamperedOk: (await verifySealedFile(tampered, trust)).ok,
  }
}
window.keyIdAgain = async () => (await loadOrCreateIdKey(indexedDbKeyKeeper())).keyId
window.ready = true
`

describe.skipIf(!hasBrowser)('cairn/client in headless Chromium', () => {
  let server: RunningServer
  let cairn: Cairn
  let browser: Browser
  let bundle: Uint8Array

  beforeAll(async () => {
    let handler: Cairn['nodeHandler'] | undefined
    server = await startHttpServer((req, res) => handler!(req, res), { host: '127.0.0.1', port: 0 })
    // The browser signs with its own clock: the server runs on real time.
    cairn = createCairn({ baseUrl: server.url, logError: () => {} })
    handler = cairn.nodeHandler
    bundle = await bundleForBrowser(ENTRY)
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      // Playwright gives every launch a fresh profile of its own (it refuses --user-data-dir here).
    })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await cairn?.close()
  })

  it('signs in with a non-extractable key from IndexedDB and verifies a sealed file', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    // The test page and the bundle are served on the Cairn origin; every other request reaches the real server.
    await page.route(`${server.url}/client-test/**`, (route) => {
      const path = new URL(route.request().url()).pathname
      if (path.endsWith('.js')) return route.fulfill({ status: 200, contentType: 'text/javascript', body: Buffer.from(bundle) })
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><script type="module" src="/client-test/client.js"></script>' })
    })
    await page.goto(`${server.url}/client-test/`)
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true)
    const result = await page.evaluate(() => (window as unknown as { signInAndSeal(): Promise<Record<string, unknown>> }).signInAndSeal())
    expect(result).toMatchObject({ extractable: false, username: 'grace', verdict: { ok: true, kind: 'proof-object', owner: 'grace' }, tamperedOk: false })
    // The session cookie is the browser's own, HttpOnly: the page cannot read it.
    expect(await page.evaluate(() => document.cookie)).toBe('')
    expect((await context.cookies()).map((cookie) => [cookie.name, cookie.httpOnly])).toEqual([['cairn_session', true]])
    // After a reload the same key comes back from IndexedDB.
    await page.reload()
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true)
    expect(await page.evaluate(() => (window as unknown as { keyIdAgain(): Promise<string> }).keyIdAgain())).toBe(result.keyId)
    await context.close()
  }, 60_000)
})
