/**
 * `GET`/`POST <base>/logout`: RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0), the
 * metadata's `end_session_endpoint`. It ends the Cairn session, revokes the grants that sign-in
 * issued (every access and refresh token of them) and clears the cookie, then sends
 * the browser to `post_logout_redirect_uri` (exactly one the client registered) with `state`, or
 * shows "signed out".
 *
 * A logout request carrying an `id_token_hint` that names the signed-in user is carried out at
 * once. Without one (or with one naming someone else), anyone could link a user to a logout, so
 * the page asks the user to confirm with a form (session cookie, anti-CSRF token, Origin check).
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { OAuthClientConfig } from '../../../core/config/deployment-config.js'
import { derivedSecret } from '../../../core/digest/derived-secret.js'
import { clearedSessionCookie } from '../../../core/identity/session-cookie.js'
import { endSession } from '../../../core/identity/sessions.js'
import { sessionCookieName } from '../../../core/identity/session-cookie.js'
import { findClient } from '../../../core/oidc/clients.js'
import { subjectOfIdTokenHint } from '../../../core/oidc/id-token-hint.js'
import { revokeSessionGrants } from '../../../core/oidc/session-grants.js'
import { readCredentials } from '../read-credentials.js'
import { escapeHtml, messagePage, pageDocument, pageResponse } from './html.js'
import { readPageForm, sessionOf, type PageContext } from './page-context.js'

const CSRF_LABEL = 'cairn.logout-csrf.v1'
const PARAMS = ['id_token_hint', 'post_logout_redirect_uri', 'state', 'client_id'] as const

type LogoutParams = Partial<Record<(typeof PARAMS)[number], string>>

function paramsOf(source: URLSearchParams): LogoutParams {
  const params: LogoutParams = {}
  for (const name of PARAMS) {
    const value = source.get(name)
    if (value !== null && value !== '') params[name] = value
  }
  return params
}

async function csrfToken(context: PageContext, sessionId: string, params: LogoutParams): Promise<string> {
  const secret = await derivedSecret(context.env.deps.keys, CSRF_LABEL)
  return createHmac('sha256', secret).update(JSON.stringify([sessionId, params])).digest('base64url')
}

interface Checked {
  readonly client: OAuthClientConfig | undefined
  /** The user the hint names, when it is an ID token of this provider. */
  readonly hintedUser: string | undefined
  readonly redirect: string | undefined
}

async function check(context: PageContext, params: LogoutParams): Promise<Checked | string> {
  const hint = params.id_token_hint === undefined ? undefined : await subjectOfIdTokenHint(context.env.deps, params.id_token_hint)
  if (params.id_token_hint !== undefined && hint === undefined) return 'id_token_hint is not an ID token this provider issued.'
  const clientId = params.client_id ?? hint?.aud[0]
  if (params.client_id !== undefined && hint !== undefined && !hint.aud.includes(params.client_id)) return 'client_id is not the audience of id_token_hint.'
  const client = clientId === undefined ? undefined : findClient(context.env.deps, clientId)
  if (clientId !== undefined && client === undefined) return 'The client is not registered.'
  if (params.post_logout_redirect_uri !== undefined) {
    if (!client) return 'post_logout_redirect_uri needs id_token_hint or client_id to name the client.'
    if (!(client.postLogoutRedirectUris ?? []).includes(params.post_logout_redirect_uri)) return 'post_logout_redirect_uri is not one the client registered (exact match).'
  }
  return { client, hintedUser: hint?.sub, redirect: params.post_logout_redirect_uri }
}

function signedOut(context: PageContext, checked: Checked, params: LogoutParams): Response {
  const cookie = clearedSessionCookie(context.env.deps.config)
  const setCookie = [`${cookie.name}=`, `Path=${cookie.path}`, 'Max-Age=0', `SameSite=${cookie.sameSite}`, 'HttpOnly', ...(cookie.secure ? ['Secure'] : [])].join('; ')
  if (checked.redirect !== undefined) {
    const target = new URL(checked.redirect)
    if (params.state !== undefined) target.searchParams.set('state', params.state)
    return new Response(null, { status: 303, headers: { location: target.toString(), 'set-cookie': setCookie, 'cache-control': 'no-store' } })
  }
  const page = messagePage('Signed out', 'You are signed out of Cairn.', context.basePath)
  page.headers.set('set-cookie', setCookie)
  return page
}

/** End the session and revoke the grants its sign-in issued (core/oidc/session-grants.ts). */
async function endCallerSession(context: PageContext, request: Request): Promise<void> {
  const session = await sessionOf(context, request)
  const { sessionCookie } = readCredentials(request.headers, undefined, sessionCookieName(context.env.deps.config.baseUrl))
  if (session !== undefined) await revokeSessionGrants(context.env.deps, session.userId, session.authTimeMs)
  if (sessionCookie !== undefined) await endSession(context.env.deps, sessionCookie)
}

/** GET (and a relying party's POST without our form): log out, or ask to confirm. */
export async function logoutRequest(context: PageContext, request: Request, source: URLSearchParams): Promise<Response> {
  const params = paramsOf(source)
  const checked = await check(context, params)
  if (typeof checked === 'string') return messagePage('Cannot sign out this way', checked, context.basePath, 400)
  const session = await sessionOf(context, request)
  if (session === undefined || (checked.hintedUser !== undefined && checked.hintedUser === session.userId)) {
    await endCallerSession(context, request)
    return signedOut(context, checked, params)
  }
  const hidden = Object.entries(params).map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('\n  ')
  const from = checked.client ? ` ${escapeHtml(checked.client.name ?? checked.client.clientId)} asks you to sign out.` : ''
  const body = `<h1>Sign out of Cairn?</h1>
<p>${from} Signing out ends your Cairn session in this browser.</p>
<form method="post" action="${escapeHtml(context.basePath)}/logout">
  ${hidden}
  <input type="hidden" name="csrf" value="${escapeHtml(await csrfToken(context, session.sessionId, params))}">
  <input type="hidden" name="confirm" value="yes">
  <button type="submit" id="confirm-logout">Sign out</button>
</form>`
  return pageResponse(pageDocument('Sign out — Cairn', body, context.basePath), { formTargets: checked.redirect ? [new URL(checked.redirect).origin] : [] })
}

export async function submitLogout(context: PageContext, request: Request): Promise<Response> {
  const form = await readPageForm(request)
  if (!form) return messagePage('Cannot sign out this way', 'The form could not be read.', context.basePath, 400)
  if (form.get('confirm') !== 'yes') return logoutRequest(context, request, form) // a relying party's POST (RP-Initiated Logout §2)
  if (request.headers.get('origin') !== context.base.origin) return messagePage('Not signed out', 'This form may only be sent from Cairn\'s own page.', context.basePath, 403)
  const params = paramsOf(form)
  const checked = await check(context, params)
  if (typeof checked === 'string') return messagePage('Cannot sign out this way', checked, context.basePath, 400)
  const session = await sessionOf(context, request)
  if (session !== undefined) {
    const expected = Buffer.from(await csrfToken(context, session.sessionId, params))
    const sent = Buffer.from(form.get('csrf') ?? '')
    if (expected.length !== sent.length || !timingSafeEqual(expected, sent)) return messagePage('Not signed out', 'The form has expired; start again.', context.basePath, 403)
    await endCallerSession(context, request)
  }
  return signedOut(context, checked, params)
}
