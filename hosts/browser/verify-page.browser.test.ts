/**
 * The /verify page in a real headless Chromium (Debian's chromium driven by playwright-core): a
 * good, a tampered and an unsealed file are chosen, verified in the page with WebCrypto, and the
 * verdicts read back; no request leaves the page while it verifies. Skipped, saying so, when no
 * browser is installed (`.ci/run` installs one).
 */
import { existsSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromium, type Browser } from 'playwright-core'
import { pngFile } from '../../conformance/proof/payloads.js'
import { createCairn, type Cairn } from '../library/create-cairn.js'
import { pinnedOptions } from '../http/test-support.js'
import { startHttpServer, type RunningServer } from '../http/start-http-server.js'

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'
const hasBrowser = existsSync(CHROMIUM)
if (!hasBrowser) console.warn(`verify page browser test skipped: no browser found at ${CHROMIUM} (install Debian's chromium or set CHROMIUM_PATH)`)

describe.skipIf(!hasBrowser)('the /verify page in headless Chromium', () => {
  let server: RunningServer
  let cairn: Cairn
  let browser: Browser
  let base: string

  beforeAll(async () => {
    let handler: Cairn['nodeHandler'] | undefined
    server = await startHttpServer((req, res) => handler!(req, res), { host: '127.0.0.1', port: 0 })
    base = server.url
    cairn = createCairn(pinnedOptions({ baseUrl: base }))
    handler = cairn.nodeHandler
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await cairn?.close()
  })

  it('verifies a good file, refuses a tampered and an unsealed one, uploading nothing', async () => {
    const original = pngFile([new TextEncoder().encode('browser pixels')])
    const body = new FormData()
    body.append('file', new Blob([original as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'photo.png')
    const sealedResponse = await fetch(`${base}/api/document-seal`, { method: 'POST', body, headers: { accept: 'application/octet-stream' } })
    const sealed = new Uint8Array(await sealedResponse.arrayBuffer())
    const tampered = sealed.slice()
    tampered[tampered.indexOf(0x62)] = 0x42 // "browser" → "Browser" inside the image data

    const page = await browser.newPage()
    await page.goto(`${base}/verify`)
    await page.waitForSelector('body[data-ready="true"]')
    const requests: string[] = []
    page.on('request', (request) => requests.push(`${request.method()} ${request.url()}`))

    const verdictOf = async (name: string, bytes: Uint8Array) => {
      await page.setInputFiles('#file', { name, mimeType: 'image/png', buffer: Buffer.from(bytes) })
      await page.waitForFunction((file) => document.querySelector('[data-testid=file]')?.textContent === file, name)
      return page.evaluate(() => ({
        status: document.querySelector('[data-testid=status]')?.textContent,
        kind: document.querySelector('[data-testid=kind]')?.textContent,
        time: document.querySelector('[data-testid=time]')?.textContent ?? null,
        log: document.querySelector('[data-testid=log]')?.textContent ?? null,
        errors: [...document.querySelectorAll('[data-testid=errors] li')].map((item) => item.textContent),
      }))
    }

    const good = await verdictOf('photo.png', sealed)
    expect(good).toMatchObject({ status: 'Verified', kind: 'integrity-seal', time: expect.stringMatching(/^2026-06-25T00:00:00\.000Z · Kai pulse \d+$/), log: expect.stringMatching(/^leaf 0 of 1 in /) })
    const dir = join(tmpdir(), 'cairn-screenshots')
    mkdirSync(dir, { recursive: true })
    await page.screenshot({ path: join(dir, 'verify-good.png'), fullPage: true })

    const bad = await verdictOf('tampered.png', tampered)
    expect(bad.status).toBe('Not verified')
    expect(bad.errors[0]).toMatch(/^Payload digest/)
    await page.screenshot({ path: join(dir, 'verify-tampered.png'), fullPage: true })

    const unsealed = await verdictOf('plain.png', original)
    expect(unsealed).toMatchObject({ status: 'Not verified', kind: 'unknown', errors: [expect.stringMatching(/^No proof found/)] })
    expect(requests).toEqual([])

    // Each seal's verify path is the same page, naming the seal it expects.
    const pathPage = await browser.newPage()
    const verifyUrl = sealedResponse.headers.get('x-cairn-verify-url')!
    await pathPage.goto(verifyUrl)
    expect(await pathPage.textContent('h1')).toMatch(/^Seal [0-9a-f]{20}$/)
  }, 60_000)
})
