/**
 * Routes outside the 108-operation contract (like /releases), under the base path: Cairn's own
 * pages (landing, docs, sign-in, account, consent, sign-out, the test processor's checkout; HTML with a strict CSP) and their static files, and the
 * OAuth endpoints the spec does not list (pushed authorization requests).
 */
import type { OperationEnvironment } from '../../../core/usecases/execute-operation.js'
import { ASSET_NAMES, assetResponse } from './assets.js'
import { consentPage, submitConsent } from './consent-page.js'
import { loginPage } from './login-page.js'
import { logoutRequest, submitLogout } from './logout-page.js'
import { pushedAuthorizationRequest } from './par-endpoint.js'
import { pageContext } from './page-context.js'
import { submitTestCheckout, TEST_CHECKOUT_PATH, testCheckoutPage } from './test-checkout-page.js'
import { ACCOUNT_PATH, accountPage, submitAccount } from './account-page.js'
import { docsIndex, docsPage, favicon, landingPage } from './landing-page.js'
import { LINK_PATH, linkBrowser } from './link-browser.js'

export interface InteractionRoute {
  readonly method: 'GET' | 'POST'
  /** Relative to the base path. */
  readonly path: string
  handle(request: Request): Response | Promise<Response>
}

export function interactionRoutes(env: OperationEnvironment): InteractionRoute[] {
  const context = pageContext(env)
  return [
    { method: 'GET', path: '/', handle: () => landingPage(context) },
    { method: 'GET', path: '/favicon.ico', handle: () => favicon() },
    { method: 'GET', path: '/docs', handle: () => docsIndex(context) },
    { method: 'GET', path: '/docs/{name}', handle: (request) => docsPage(context, request) },
    { method: 'GET', path: '/login', handle: (request) => loginPage(context, request) },
    { method: 'POST', path: LINK_PATH, handle: (request) => linkBrowser(context, request) },
    { method: 'GET', path: ACCOUNT_PATH, handle: (request) => accountPage(context, request) },
    { method: 'POST', path: ACCOUNT_PATH, handle: (request) => submitAccount(context, request) },
    { method: 'GET', path: '/consent', handle: (request) => consentPage(context, request) },
    { method: 'POST', path: '/consent', handle: (request) => submitConsent(context, request) },
    { method: 'GET', path: '/logout', handle: (request) => logoutRequest(context, request, new URL(request.url).searchParams) },
    { method: 'POST', path: '/logout', handle: (request) => submitLogout(context, request) },
    { method: 'GET', path: TEST_CHECKOUT_PATH, handle: (request) => testCheckoutPage(context, request) },
    { method: 'POST', path: TEST_CHECKOUT_PATH, handle: (request) => submitTestCheckout(context, request) },
    { method: 'POST', path: '/api/oidc/par', handle: (request) => pushedAuthorizationRequest(context, request) },
    ...ASSET_NAMES.map((name): InteractionRoute => ({ method: 'GET', path: `/assets/${name}`, handle: () => assetResponse(name) })),
  ]
}
