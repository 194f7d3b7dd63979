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
import { probeDependencies } from '../../core/health/dependency-health.js'
import type { OperationEnvironment } from '../../core/usecases/execute-operation.js'
import type { PublicRoute } from '../../core/releases/routes.js'

const alive = E.right(json(deepFreeze({ ok: true, status: 'alive' })))

export function operatingRoutes(env: OperationEnvironment, report: (error: unknown, context: string) => void): PublicRoute[] {
  // The event bus has no read to probe without side effects; its failures surface on use.
  return [
    { method: 'GET', path: '/healthz', handle: () => alive },
    {
      method: 'GET',
      path: '/readyz',
      handle: async () => {
        // Collections the Store could not declare make every operation fail: the store is not ready.
        const declared = await (env.ready ?? Promise.resolve()).then(() => true, (error: unknown) => (report(error, 'readiness of store'), false))
        // A slow port is degraded but ready; one that fails or hangs past the budget is not.
        const health = await probeDependencies(env.deps, undefined, (port, error) => report(error, `readiness of ${port}`))
        const failed = Object.entries(health).filter(([port, probe]) => probe.status === 'unavailable' || (port === 'store' && !declared)).map(([port]) => port)
        if (failed.length > 0) return E.left(unavailable(`Not ready: ${failed.join(', ')} unavailable`))
        return E.right(json({ ok: true, status: 'ready', ports: Object.keys(health) }, { 'cache-control': 'no-store' }))
      },
    },
  ]
}
