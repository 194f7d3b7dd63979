/**
 * Probes for whoever runs Cairn (orchestrators, load balancers), served beside the operations like
 * `/releases`: `GET /healthz` answers while the process can answer at all (liveness); `GET /readyz`
 * answers 200 only when every port with state can be read now (readiness), else 503 naming them.
 * Probes only read: a probe that wrote would fill the store at the scrape interval.
 */
import * as E from 'fp-ts/lib/Either.js'
import { unavailable } from '../../core/errors/domain-error.js'
import { json } from '../../core/usecases/use-case.js'
import { deepFreeze } from '../../core/encoding/deep-freeze.js'
import type { OperationEnvironment } from '../../core/usecases/execute-operation.js'
import type { PublicRoute } from '../../core/releases/routes.js'

/** SHA-256 of no bytes: a valid address no probe depends on. */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
/** A probe slower than this counts as unavailable: a hung database is not ready. */
export const READINESS_TIMEOUT_MS = 2_000

const alive = E.right(json(deepFreeze({ ok: true, status: 'alive' })))

export function operatingRoutes(env: OperationEnvironment, report: (error: unknown, context: string) => void): PublicRoute[] {
  const { store, blobs, keys } = env.deps
  // The event bus has no read to probe without side effects; its failures surface on use.
  const probes: Record<string, () => Promise<unknown>> = {
    store: async () => {
      await env.ready
      return store.streamHead('cairn.readyz')
    },
    blobs: () => blobs.has(EMPTY_SHA256),
    keys: () => keys.jwks(),
  }
  return [
    { method: 'GET', path: '/healthz', handle: () => alive },
    {
      method: 'GET',
      path: '/readyz',
      handle: async () => {
        const results = await Promise.all(
          Object.entries(probes).map(async ([port, probe]) => {
            try {
              await withTimeout(probe(), READINESS_TIMEOUT_MS, port)
              return undefined
            } catch (error) {
              report(error, `readiness of ${port}`)
              return port
            }
          }),
        )
        const failed = results.filter((port): port is string => port !== undefined)
        if (failed.length > 0) return E.left(unavailable(`Not ready: ${failed.join(', ')} unavailable`))
        return E.right(json({ ok: true, status: 'ready', ports: Object.keys(probes) }, { 'cache-control': 'no-store' }))
      },
    },
  ]
}

function withTimeout<T>(promise: Promise<T>, ms: number, port: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${port} did not answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
