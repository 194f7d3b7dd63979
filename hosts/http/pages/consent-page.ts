/**
 * `GET` and `POST <base>/consent`: the consent page for third-party clients. The authorization
 * endpoint sends the browser here with its request; the page lists the requested scopes in words.
 * Consent is recorded only by this page's form: the session cookie (SameSite=Lax, so no
 * cross-site POST carries it), an anti-CSRF token bound to the session and the exact request, and
 * an Origin check. A client can therefore never consent on a user's behalf.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import { SCOPES, type Scope } from '../../../core/contract/scopes.js'
import { derivedSecret } from '../../../core/digest/derived-secret.js'
import { clientRedirectUrl, CONSENT_PATH, loginRedirect } from '../../../core/oidc/authorize-redirects.js'
import { findClient } from '../../../core/oidc/clients.js'
import { recordConsent } from '../../../core/oidc/consent.js'
import { parseScopes } from '../../../core/oidc/scopes.js'
import { escapeHtml, messagePage, pageDocument, pageResponse } from './html.js'
import { readPageForm, seeOther, sessionOf, type PageContext } from './page-context.js'

const CSRF_LABEL = 'cairn.consent-csrf.v1'

async function csrfToken(context: PageContext, sessionId: string, requestQuery: string): Promise<string> {
  const secret = await derivedSecret(context.env.deps.keys, CSRF_LABEL)
  return createHmac('sha256', secret).update(JSON.stringify([sessionId, requestQuery])).digest('base64url')
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** The client and request, if the request names a registered client and one of its redirect URIs. */
function requestedClient(context: PageContext, params: URLSearchParams) {
  const client = findClient(context.env.deps, params.get('client_id') ?? '')
  const redirectUri = params.get('redirect_uri') ?? ''
  return client && client.redirectUris.includes(redirectUri) ? { client, redirectUri } : undefined
}

function describeScope(scope: string): string {
  // The descriptions are Markdown-ish (`sub`); the page shows plain words.
  return scope in SCOPES ? SCOPES[scope as Scope].replace(/`/g, '') : scope
}

export async function consentPage(context: PageContext, request: Request): Promise<Response> {
  const url = new URL(request.url)
  const found = requestedClient(context, url.searchParams)
  if (!found) return messagePage('Unknown application', 'This consent request does not name a registered application and redirect URI.', context.basePath, 400)
  const session = await sessionOf(context, request)
  if (!session) {
    const reply = loginRedirect(context.env.deps, Object.fromEntries(url.searchParams))
    return seeOther(reply.kind === 'redirect' ? reply.location : `${context.basePath}/login`)
  }
  const requestQuery = url.searchParams.toString()
  const scopes = parseScopes(url.searchParams.get('scope') ?? '')
  const name = found.client.name ?? found.client.clientId
  const body = `<h1>${escapeHtml(name)} asks for access</h1>
<p><strong>${escapeHtml(name)}</strong> would like to:</p>
<ul class="scopes">${scopes.map((scope) => `<li>${escapeHtml(describeScope(scope))} <code>${escapeHtml(scope)}</code></li>`).join('')}</ul>
<form method="post" action="${escapeHtml(context.basePath)}${CONSENT_PATH}">
  <input type="hidden" name="request" value="${escapeHtml(requestQuery)}">
  <input type="hidden" name="csrf" value="${escapeHtml(await csrfToken(context, session.sessionId, requestQuery))}">
  <button type="submit" name="decision" value="allow" id="allow">Allow</button>
  <button type="submit" name="decision" value="deny" id="deny" class="secondary">Deny</button>
</form>`
  return pageResponse(pageDocument(`${name} asks for access — Cairn`, body, context.basePath), { formTargets: [new URL(found.redirectUri).origin] })
}

export async function submitConsent(context: PageContext, request: Request): Promise<Response> {
  const refuse = (message: string, status: number) => messagePage('Consent not recorded', message, context.basePath, status)
  // Browsers send Origin on every form POST; a missing or foreign one is not this page's form.
  if (request.headers.get('origin') !== context.base.origin) return refuse('This form may only be sent from Cairn\'s own consent page.', 403)
  const form = await readPageForm(request)
  if (!form) return refuse('The form could not be read.', 400)
  const session = await sessionOf(context, request)
  if (!session) return refuse('You are not signed in; start again from the application.', 401)
  const requestQuery = form.get('request') ?? ''
  if (!sameToken(form.get('csrf') ?? '', await csrfToken(context, session.sessionId, requestQuery))) {
    return refuse('The form has expired or was not issued to this session; start again from the application.', 403)
  }
  const params = new URLSearchParams(requestQuery)
  const found = requestedClient(context, params)
  if (!found) return refuse('This consent request does not name a registered application.', 400)
  const state = params.get('state') ?? undefined
  if (form.get('decision') !== 'allow') {
    return seeOther(clientRedirectUrl(context.env.deps, found.redirectUri, { error: 'access_denied', error_description: 'The user declined', state }))
  }
  const recorded = await recordConsent(context.env.deps, { userId: session.userId, clientId: found.client.clientId, scopes: parseScopes(params.get('scope') ?? '') })
  if (E.isLeft(recorded)) return refuse(recorded.left.message, 400)
  // Resume the authorization request; the consent just given answers prompt=consent.
  const prompts = (params.get('prompt') ?? '').split(' ').filter((prompt) => prompt !== '' && prompt !== 'consent')
  if (prompts.length > 0) params.set('prompt', prompts.join(' '))
  else params.delete('prompt')
  return seeOther(`${context.basePath}/api/oidc/authorize?${params.toString()}`)
}
