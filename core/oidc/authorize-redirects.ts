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

/** RFC 6749 §4.1.2.1 and OpenID Connect Core §3.1.2.6 error codes the endpoint answers. */
export type AuthorizeErrorCode =
  | 'invalid_request'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'login_required'
  | 'consent_required'
  | 'access_denied'
  | 'server_error'

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
 * To the sign-in page, carrying the authorization request as `next` (a path on this site).
 *
 * @example loginRedirect(deps, { client_id: 'web', … })
 */
export function loginRedirect(deps: Pick<CoreDeps, 'config'>, authorizeQuery: Readonly<Record<string, string>>): RedirectReply {
  const base = new URL(deps.config.baseUrl)
  const next = `${base.pathname.replace(/\/+$/, '')}/api/oidc/authorize?${new URLSearchParams(authorizeQuery).toString()}`
  const login = new URL(deps.config.deployment.loginUrl ?? LOGIN_PATH, base.origin)
  login.searchParams.set('next', next)
  return { kind: 'redirect', location: login.toString() }
}
