/**
 * Test support for pages in a real browser: Debian Chromium, headless, driven by playwright-core,
 * and a Cairn listening on a loopback port its base URL names (so links and redirects a browser
 * follows lead back to it). Tests skip, saying so, when no Chromium is installed.
 */
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { chromium, type Browser } from 'playwright-core'
import { createCairn, type Cairn } from '../../library/create-cairn.js'
import type { CairnOptions } from '../../library/cairn-options.js'
import { freeLoopbackPort } from '../free-port-test-support.js'
import { startHttpServer, type RunningServer } from '../start-http-server.js'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const haveBrowser = existsSync(CHROMIUM)
/** Where screenshots go (outside the repository). */
export const SCREENSHOT_DIR = process.env.CAIRN_SCREENSHOT_DIR ?? tmpdir()

/** Warns once per file that its browser tests are skipped. */
export function warnWithoutBrowser(what: string): void {
  if (!haveBrowser) console.warn(`[cairn] ${what} skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`)
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}

export interface LoopbackCairn {
  readonly cairn: Cairn
  readonly server: RunningServer
  /** The base URL: http://127.0.0.1:<port>. */
  readonly base: string
  close(): Promise<void>
}

/** @example const { base, close } = await startLoopbackCairn({ deployment: { payments: { phiPerUsd: '100' } } }) */
export async function startLoopbackCairn(options: Omit<CairnOptions, 'baseUrl'> = {}): Promise<LoopbackCairn> {
  const port = await freeLoopbackPort()
  const base = `http://127.0.0.1:${port}`
  const cairn = createCairn({ logError: () => {}, ...options, baseUrl: base })
  await cairn.ready
  const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port })
  return { cairn, server, base, close: async () => { await server.close(); await cairn.close() } }
}
