/**
 * Runs one test body against an h3 app built from a given operation environment, in-process and
 * through a real listening server (as test-support.ts does for a whole Cairn). For use cases not
 * yet wired into the registry: the test chooses the use cases, the authenticator and the ports,
 * and can read the Store directly.
 */
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { toNodeHandler } from 'h3'
import type { OperationEnvironment } from '../../core/usecases/execute-operation.js'
import type { CoreDeps } from '../../core/usecases/use-case.js'
import type { DeploymentConfig } from '../../core/config/deployment-config.js'
import type { KeyStore } from '../../ports/key-store.js'
import { DeterministicTextGenerator, ProceduralArtGenerator, MemoryBlobStore, MemoryEventBus, MemoryKeyStore, MemoryStore } from '../../adapters/memory/index.js'
import type { TextGenerator } from '../../ports/text-generator.js'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { SeededEntropy } from '../../adapters/memory/seeded-entropy.js'
import { createHttpApp } from './create-http-app.js'
import { startHttpServer, type RunningServer } from './start-http-server.js'

import { PINNED_TIME } from './test-support.js'

/** In-memory ports with a pinned clock and seeded entropy, for a test's own environment. */
export interface MemoryDeps extends CoreDeps {
  readonly clock: FixedClock
  readonly store: MemoryStore
}

/** @example const deps = memoryDeps({ baseUrl: 'https://cairn.example' }) */
export function memoryDeps(
  options: { baseUrl?: string; deployment?: DeploymentConfig; seed?: string; store?: MemoryStore; clock?: FixedClock; keys?: KeyStore; text?: TextGenerator } = {},
): MemoryDeps {
  return {
    clock: options.clock ?? new FixedClock(PINNED_TIME),
    entropy: new SeededEntropy(options.seed ?? 'cairn-tests'),
    store: options.store ?? new MemoryStore(),
    blobs: new MemoryBlobStore(),
    events: new MemoryEventBus(),
    keys: options.keys ?? new MemoryKeyStore(),
    text: options.text ?? new DeterministicTextGenerator(),
    images: new ProceduralArtGenerator(),
    config: { baseUrl: options.baseUrl ?? 'http://127.0.0.1:8787', deployment: options.deployment ?? {} },
  }
}

export interface EnvHostContext<Env extends OperationEnvironment = OperationEnvironment> {
  /** Fetch a path (relative to the base URL) from the host under test. */
  request(path: string, init?: RequestInit): Promise<Response>
  /** The environment of the current mode (fresh per mode). */
  readonly env: () => Env
}

/**
 * @example describeEnv('continue', () => ({ deps, authenticator, useCases, ready }), ({ request, env }) => { it(…) })
 */
export function describeEnv<Env extends OperationEnvironment>(name: string, makeEnv: () => Env, body: (ctx: EnvHostContext<Env>) => void): void {
  for (const mode of ['in-process', 'listening'] as const) {
    describe(`${name} [${mode}]`, () => {
      let env: Env
      let app: ReturnType<typeof createHttpApp>
      let server: RunningServer | undefined
      // An unexpected failure (a 500) is a bug in the code under test: the run fails at the end.
      const unexpected: unknown[] = []
      beforeAll(async () => {
        env = makeEnv()
        app = createHttpApp({ env, logError: (error) => unexpected.push(error) })
        if (mode === 'listening') server = await startHttpServer(toNodeHandler(app) as Parameters<typeof startHttpServer>[0], { host: '127.0.0.1', port: 0 })
      })
      afterAll(async () => {
        await server?.close()
        expect(unexpected).toEqual([])
      })
      body({
        env: () => env,
        request: (path, init) => {
          const basePath = new URL(env.deps.config.baseUrl).pathname.replace(/\/+$/, '')
          return server ? fetch(`${server.url}${basePath}${path}`, init) : Promise.resolve(app.fetch(new Request(`${env.deps.config.baseUrl}${path}`, init)))
        },
      })
    })
  }
}
