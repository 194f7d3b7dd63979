/**
 * Runs one test body against Cairn in-process (`cairn.fetch`) and through a real listening
 * server on 127.0.0.1 (h3's `describeMatrix` habit), so both paths stay identical.
 */
import { afterAll, beforeAll, describe } from 'vitest'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { SeededEntropy } from '../../adapters/memory/seeded-entropy.js'
import { createCairn, type Cairn } from '../library/create-cairn.js'
import type { CairnOptions } from '../library/cairn-options.js'
import { startHttpServer, type RunningServer } from './start-http-server.js'

export const PINNED_TIME = Date.parse('2026-06-25T00:00:00.000Z')

export interface HostContext {
  /** Fetch a path (relative to the base URL) from the host under test. */
  request(path: string, init?: RequestInit): Promise<Response>
  readonly cairn: () => Cairn
}

/** Options with pinned clock and entropy; `overrides` win. */
export function pinnedOptions(overrides: CairnOptions = {}): CairnOptions {
  return { clock: new FixedClock(PINNED_TIME), entropy: new SeededEntropy('cairn-tests'), logError: () => {}, ...overrides }
}

export function describeHosts(name: string, body: (ctx: HostContext) => void, overrides: CairnOptions = {}): void {
  for (const mode of ['in-process', 'listening'] as const) {
    describe(`${name} [${mode}]`, () => {
      let cairn: Cairn
      let server: RunningServer | undefined
      let base = 'http://127.0.0.1:8787'
      beforeAll(async () => {
        cairn = createCairn(pinnedOptions({ baseUrl: base, ...overrides }))
        if (mode === 'listening') {
          server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
          base = server.url
        }
      })
      afterAll(async () => {
        await server?.close()
        await cairn.close()
      })
      body({
        cairn: () => cairn,
        request: (path, init) => (mode === 'listening' ? fetch(`${base}${path}`, init) : cairn.fetch(new Request(`${base}${path}`, init))),
      })
    })
  }
}
