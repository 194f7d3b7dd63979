/**
 * Cairn's own pages, outside the 108-operation contract (like /releases): sign-in, consent and
 * their static files, under the base path. They answer HTML with a strict CSP.
 */
import type { OperationEnvironment } from '../../../core/usecases/execute-operation.js'
import { ASSET_NAMES, assetResponse } from './assets.js'
import { consentPage, submitConsent } from './consent-page.js'
import { loginPage } from './login-page.js'
import { pageContext } from './page-context.js'

export interface InteractionRoute {
  readonly method: 'GET' | 'POST'
  /** Relative to the base path. */
  readonly path: string
  handle(request: Request): Response | Promise<Response>
}

export function interactionRoutes(env: OperationEnvironment): InteractionRoute[] {
  const context = pageContext(env)
  return [
    { method: 'GET', path: '/login', handle: (request) => loginPage(context, request) },
    { method: 'GET', path: '/consent', handle: (request) => consentPage(context, request) },
    { method: 'POST', path: '/consent', handle: (request) => submitConsent(context, request) },
    ...ASSET_NAMES.map((name): InteractionRoute => ({ method: 'GET', path: `/assets/${name}`, handle: () => assetResponse(name) })),
  ]
}
