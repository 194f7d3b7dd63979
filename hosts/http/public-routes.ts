/**
 * Read-only routes outside the 108-operation contract: the OpenAPI document itself and the
 * static release archive, and the transparency log (docs/transparency-log.md).
 */
import * as E from 'fp-ts/lib/Either.js'
import { buildOpenApiDocument } from '../../core/contract/openapi.js'
import { json } from '../../core/usecases/use-case.js'
import { deepFreeze } from '../../core/encoding/deep-freeze.js'
import type { OperationEnvironment } from '../../core/usecases/execute-operation.js'
import { releaseRoutes, type PublicRoute } from '../../core/releases/routes.js'
import { logRoutes } from '../../core/tlog/routes.js'
import { verifyPageRoutes } from './verify-page.js'

export type { PublicRoute }

export function publicRoutes(env: OperationEnvironment): PublicRoute[] {
  let document: Record<string, unknown> | undefined
  // Frozen once, so the host serialises the (large) document once too.
  const openapi = () => E.right(json((document ??= deepFreeze(buildOpenApiDocument({ baseUrl: env.deps.config.baseUrl })))))
  return [
    { method: 'GET', path: '/api/openapi', handle: openapi },
    { method: 'GET', path: '/openapi.json', handle: openapi },
    ...releaseRoutes,
    ...logRoutes(env.deps, env.ready),
    ...verifyPageRoutes(env.deps, env.ready),
  ]
}
