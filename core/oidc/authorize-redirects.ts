/**
 * Where the authorization endpoint sends the browser: back to the client with a code or an
 * error (RFC 6749 §4.1.2, with `iss` per RFC 9207), or to the site's sign-in page with the
 * request to come back to.
 */
import type { CoreDeps, RedirectReply } from '../usecases/use-case.js'

/**
 * The default sign-in page of the site Cairn is part of, at the base URL's origin (the deployment's
 * `loginUrl` replaces it). It signs the user in (Cairn ID proof, `POST /api/auth/cairn-id/continue`)
 * and then sends the browser to `next`.
 */
export const LOGIN_PATH = '/login'
/** Cairn's consent page for third-party clients, under the base path (hosts/http/pages). */
export const CONSENT_PATH = '/consent'

/** RFC 6749 §4.1.2.1 and OpenID Connect Core §3.1.2.6 error codes the endpoint answers. */
export type AuthorizeErrorCode =
  | 'invalid_request'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'login_required'
  | 'consent_required'
  | 'access_denied'
  | 'server_error'
  | 'request_not_supported'
  | 'request_uri_not_supported'

/** The client's redirect URI with `params` and `iss` added to its query. @example clientRedirect(deps, uri, { code, state }) */
export function clientRedirectUrl(deps: Pick<CoreDeps, 'config'>, redirectUri: string, params: Readonly<Record<string, string | undefined>>): string {
  const url = new URL(redirectUri)
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(name, value)
  url.searchParams.append('iss', deps.config.baseUrl)
  return url.toString()
}

/** An error redirect to the client (only ever to a registered redirect URI). @example errorRedirect(deps, uri, state, 'invalid_scope', '…') */
export function errorRedirect(deps: Pick<CoreDeps, 'config'>, redirectUri: string, state: string | undefined, error: AuthorizeErrorCode, description: string): RedirectReply {
  return { kind: 'redirect', location: clientRedirectUrl(deps, redirectUri, { error, error_description: description, state }) }
}

/**
 * To the sign-in page, carrying the authorization request as `next` — a path when the page is on
 * the base URL's origin, an absolute URL when `loginUrl` is on another origin (a path would resolve
 * against the wrong host there) — and the client's `login_hint` when it sent one.
 *
 * @example loginRedirect(deps, { client_id: 'web', … })
 */
export function loginRedirect(deps: Pick<CoreDeps, 'config'>, authorizeQuery: Readonly<Record<string, string>>): RedirectReply {
  const base = new URL(deps.config.baseUrl)
  const path = `${base.pathname.replace(/\/+$/, '')}/api/oidc/authorize?${new URLSearchParams(authorizeQuery).toString()}`
  const login = new URL(deps.config.deployment.loginUrl ?? `${base.pathname.replace(/\/+$/, '')}${LOGIN_PATH}`, base.origin)
  login.searchParams.set('next', login.origin === base.origin ? path : new URL(path, base.origin).toString())
  if (authorizeQuery.login_hint !== undefined) login.searchParams.set('login_hint', authorizeQuery.login_hint)
  return { kind: 'redirect', location: login.toString() }
}

/**
 * To Cairn's consent page with the authorization request to resume. Consent is recorded only by
 * that page's form (session cookie, anti-CSRF token, Origin check), so no client can consent for
 * the user.
 *
 * @example consentRedirect(deps, { client_id: 'partner', … })
 */
export function consentRedirect(deps: Pick<CoreDeps, 'config'>, authorizeQuery: Readonly<Record<string, string>>): RedirectReply {
  const base = new URL(deps.config.baseUrl)
  const page = new URL(`${base.pathname.replace(/\/+$/, '')}${CONSENT_PATH}`, base.origin)
  page.search = new URLSearchParams(authorizeQuery).toString()
  return { kind: 'redirect', location: page.toString() }
}
