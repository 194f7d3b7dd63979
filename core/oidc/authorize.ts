/**
 * `GET /api/oidc/authorize`: Authorization Code with PKCE (RFC 6749 §4.1, RFC 7636, OpenID
 * Connect Core §3.1.2). The client and its redirect URI are checked first — a bad one is shown,
 * never redirected to; every later refusal goes back to the client as an error redirect. With a
 * signed-in session and (for third-party clients) recorded consent, a single-use code is stored
 * by its hash and the browser is sent back with `code`, `state` and `iss`.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Principal } from '../auth/principal.js'
import type { OAuthClientConfig } from '../config/deployment-config.js'
import { conflict, invalidInput } from '../errors/domain-error.js'
import { quoteInput } from '../errors/quote-input.js'
import { type CoreDeps, type RedirectReply, type ReplyOf, type UseCaseFor } from '../usecases/use-case.js'
import { clientRedirectUrl, consentRedirect, errorRedirect, loginRedirect, type AuthorizeErrorCode } from './authorize-redirects.js'
import { findClient } from './clients.js'
import { authorizationCodes } from './collections.js'
import { hasConsent } from './consent.js'
import { AUTHORIZATION_CODE_SECONDS } from './lifetimes.js'
import { isS256Challenge } from './pkce.js'
import type { AuthorizationCodeRecord } from './records.js'
import { parseScopes, refusedScopes, unknownScopes } from './scopes.js'
import { newId, newSecret, secretKey } from './secrets.js'
import { subjectOfIdTokenHint } from './id-token-hint.js'
import { pendingPushedRequest, REQUEST_URI_PREFIX, type PendingPushedRequest } from './pushed-requests.js'

/** The decoded query (contract: core/contract/operations/query-parameters.ts `authorizeQuery`). */
export interface AuthorizeQuery {
  readonly response_type?: string
  readonly client_id: string
  /** Required, unless `request_uri` names a pushed request that carries it. */
  readonly redirect_uri?: string
  readonly scope?: string
  readonly state?: string
  readonly nonce?: string
  readonly code_challenge?: string
  readonly code_challenge_method?: string
  readonly prompt?: string
  readonly response_mode?: string
  readonly max_age?: string
  readonly id_token_hint?: string
  readonly login_hint?: string
  readonly acr_values?: string
  readonly request?: string
  readonly request_uri?: string
  readonly dpop_jkt?: string
  /** Set by Cairn in the sign-in page's `next`: the sign-in must be at or after this (epoch milliseconds). */
  readonly login_after?: string
}

const PROMPTS = new Set(['none', 'login', 'consent', 'select_account'])

/** A request that passed every check that needs no session. */
export interface ValidAuthorization {
  readonly client: OAuthClientConfig
  readonly scopes: readonly string[]
  readonly codeChallenge: string
  readonly prompts: ReadonlySet<string>
  /** `max_age` in seconds, when asked. */
  readonly maxAgeSeconds: number | undefined
}

type Refusal = { readonly error: AuthorizeErrorCode; readonly description: string }
const refuse = (error: AuthorizeErrorCode, description: string): Either<Refusal, never> => E.left({ error, description })

/**
 * The checks that need only the request and the client, in RFC order.
 *
 * @example checkAuthorizeRequest(query, client) // right({ scopes, codeChallenge, prompts })
 */
export function checkAuthorizeRequest(query: AuthorizeQuery, client: OAuthClientConfig): Either<Refusal, ValidAuthorization> {
  if (query.request !== undefined) return refuse('request_not_supported', 'Request objects (request) are not supported; send the parameters in the query')
  if (query.request_uri !== undefined) return refuse('request_uri_not_supported', 'Only request_uri values of pushed authorization requests (RFC 9126) are supported')
  // Only the query mode exists: a code must never silently land in a mode the client did not ask for.
  if (query.response_mode !== undefined && query.response_mode !== 'query') {
    return refuse('invalid_request', `response_mode ${query.response_mode} is not supported; only query is`)
  }
  if (query.response_type !== 'code') return refuse('unsupported_response_type', 'Only response_type=code is supported')
  if (query.code_challenge_method === undefined) return refuse('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256')
  if (query.code_challenge_method !== 'S256') return refuse('invalid_request', 'Only the S256 PKCE method is supported; plain is refused')
  if (query.code_challenge === undefined || !isS256Challenge(query.code_challenge)) {
    return refuse('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the code verifier')
  }
  const prompts = new Set((query.prompt ?? '').split(' ').filter(Boolean))
  if ([...prompts].some((prompt) => !PROMPTS.has(prompt))) return refuse('invalid_request', 'prompt may contain only none, login, consent and select_account')
  if (prompts.has('none') && prompts.size > 1) return refuse('invalid_request', 'prompt=none cannot be combined with other prompt values')
  if (query.max_age !== undefined && !/^(0|[1-9][0-9]{0,9})$/.test(query.max_age)) return refuse('invalid_request', 'max_age must be a non-negative whole number of seconds')
  if (query.dpop_jkt !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(query.dpop_jkt)) return refuse('invalid_request', 'dpop_jkt must be a base64url SHA-256 JWK thumbprint')
  if (query.login_after !== undefined && !/^[0-9]{1,15}$/.test(query.login_after)) return refuse('invalid_request', 'login_after must be a time in epoch milliseconds')
  const scopes = parseScopes(query.scope)
  if (scopes.length === 0) return refuse('invalid_scope', 'Name the scopes the client asks for in scope')
  const unknown = unknownScopes(scopes)
  if (unknown.length > 0) return refuse('invalid_scope', `Unknown scope: ${unknown.join(' ')}`)
  const notAllowed = refusedScopes(scopes, client, { businessTier: true })
  if (notAllowed.length > 0) return refuse('invalid_scope', `The client may not ask for: ${notAllowed.join(' ')}`)
  return E.right({ client, scopes, codeChallenge: query.code_challenge, prompts, maxAgeSeconds: query.max_age === undefined ? undefined : Number(query.max_age) })
}

/**
 * @example await authorize({ query, principal: sessionPrincipal, params: {}, body: undefined }, deps) // right(302 to redirect_uri?code=…)
 */
export const authorize: UseCaseFor<'authorize'> = async (request, deps) => {
  const sent = request.query as AuthorizeQuery
  const client = findClient(deps, sent.client_id)
  if (!client) return E.left(invalidInput(`The client_id ${quoteInput(sent.client_id)} is not registered; Cairn will not redirect`))
  const resolved = await resolvePushedRequest(deps, client, sent)
  if (E.isLeft(resolved)) return resolved
  const { query, resume, pushed } = resolved.right
  if (query.redirect_uri === undefined || !client.redirectUris.includes(query.redirect_uri)) {
    return E.left(invalidInput('The redirect_uri is missing or not one the client registered (exact match); Cairn will not redirect there'))
  }
  const redirectUri = query.redirect_uri
  const fail = (refusal: Refusal) => E.right(errorRedirect(deps, redirectUri, query.state, refusal.error, refusal.description))
  if (resume.request_uri === undefined && (client.requirePushedAuthorizationRequests || deps.config.deployment.requirePushedAuthorizationRequests)) {
    return fail({ error: 'invalid_request', description: 'This client must push its authorization requests first (RFC 9126 pushed_authorization_request_endpoint)' })
  }

  const checked = checkAuthorizeRequest(query, client)
  if (E.isLeft(checked)) return fail(checked.left)
  const valid = checked.right
  const { principal } = request

  const signIn = await signInNeeded(deps, query, valid, principal)
  if (signIn !== undefined || principal.kind !== 'session') {
    if (valid.prompts.has('none')) return fail({ error: 'login_required', description: signIn ?? 'No one is signed in, and prompt=none forbids asking' })
    return E.right(loginRedirect(deps, loginNext(deps, query, resume, principal.kind === 'session' && signIn !== undefined)))
  }
  const refused = refusedScopes(valid.scopes, undefined, principal)
  if (refused.length > 0) return fail({ error: 'invalid_scope', description: `This account may not grant: ${refused.join(' ')} (Business tier only)` })

  if (!client.firstParty && (valid.prompts.has('consent') || !(await hasConsent(deps, principal.userId, client.clientId, valid.scopes)))) {
    const description = `${client.name ?? client.clientId} asks for consent to: ${valid.scopes.join(' ')}`
    if (valid.prompts.has('none')) return fail({ error: 'consent_required', description })
    // The page shows the effective request; it resumes the one sent (a pushed request stays pushed).
    return E.right(consentRedirect(deps, { ...stringEntries(query), ...resume }))
  }
  return issueCode(deps, { ...query, redirect_uri: redirectUri }, valid, principal, pushed)
}

/**
 * A `request_uri` of a pushed request (RFC 9126) stands for the parameters pushed; anything else
 * is used as sent. `resume` is what a later step sends back to this endpoint.
 */
async function resolvePushedRequest(deps: CoreDeps, client: OAuthClientConfig, sent: AuthorizeQuery) {
  const requestUri = sent.request_uri
  if (requestUri === undefined || !requestUri.startsWith(REQUEST_URI_PREFIX)) return E.right({ query: sent, resume: {} as Record<string, string>, pushed: undefined })
  const pushed = await pendingPushedRequest(deps, client.clientId, requestUri)
  if (pushed === undefined) return E.left(invalidInput(REQUEST_URI_GONE))
  const query: AuthorizeQuery = { ...pushed.params, client_id: client.clientId, ...(sent.login_after === undefined ? {} : { login_after: sent.login_after }) }
  return E.right({ query, resume: { client_id: client.clientId, request_uri: requestUri } as Record<string, string>, pushed })
}

const REQUEST_URI_GONE = 'The request_uri is unknown, expired, used already or another client\'s; push the authorization request again'

/**
 * Why the signed-in session cannot answer this request (undefined: it can). A sign-in at or after
 * the request's `login_after` (the moment Cairn sent the browser to sign in) satisfies `prompt=login`,
 * `prompt=select_account` and `max_age`; otherwise those need a newer sign-in than the session's.
 */
async function signInNeeded(deps: CoreDeps, query: AuthorizeQuery, valid: ValidAuthorization, principal: Principal): Promise<string | undefined> {
  if (principal.kind !== 'session') return undefined
  if (query.id_token_hint !== undefined) {
    const hinted = await subjectOfIdTokenHint(deps, query.id_token_hint)
    if (hinted === undefined) return 'id_token_hint is not an ID token this provider issued'
    if (hinted.sub !== principal.userId) return 'The signed-in user is not the one id_token_hint names'
  }
  if (query.login_after !== undefined && principal.authTimeMs >= Number(query.login_after)) return undefined
  if (asksForNewSignIn(query)) return 'prompt (or max_age=0) asks for a new sign-in'
  if (valid.maxAgeSeconds !== undefined && deps.clock.now() - principal.authTimeMs > valid.maxAgeSeconds * 1000) return 'The sign-in is older than max_age'
  if (query.login_after !== undefined) return 'A sign-in newer than the request is required'
  return undefined
}

/**
 * The request to resume after signing in. When a newer sign-in is what is missing, `login_after`
 * pins the moment, so the old cookie cannot complete the request and a new sign-in can (a
 * relative max_age alone could never be met once the sign-in took a second).
 */
function loginNext(deps: CoreDeps, query: AuthorizeQuery, resume: Readonly<Record<string, string>>, needsNewerSignIn: boolean): Record<string, string> {
  const next = resume.request_uri !== undefined ? { ...resume } : withoutPrompts(query, [])
  if (needsNewerSignIn || asksForNewSignIn(query)) next.login_after ??= String(deps.clock.now())
  return next
}

/** prompt=login/select_account or max_age=0 need a sign-in newer than the request even without a session. */
function asksForNewSignIn(query: AuthorizeQuery): boolean {
  const prompts = (query.prompt ?? '').split(' ')
  return prompts.includes('login') || prompts.includes('select_account') || query.max_age === '0'
}

async function issueCode(
  deps: CoreDeps, query: AuthorizeQuery & { readonly redirect_uri: string }, valid: ValidAuthorization, principal: Extract<Principal, { kind: 'session' }>,
  pushed: PendingPushedRequest | undefined,
) {
  const code = newSecret(deps)
  const now = deps.clock.now()
  const record: AuthorizationCodeRecord = {
    clientId: valid.client.clientId,
    redirectUri: query.redirect_uri,
    codeChallenge: valid.codeChallenge,
    nonce: query.nonce ?? null,
    scopes: valid.scopes,
    userId: principal.userId,
    authTimeMs: principal.authTimeMs,
    ...(query.dpop_jkt === undefined ? {} : { dpopJkt: query.dpop_jkt }),
    grantId: newId(deps, 'grt_'),
    issuedAtMs: now,
    expiresAtMs: now + AUTHORIZATION_CODE_SECONDS * 1000,
    usedAtMs: null,
  }
  // A pushed request is spent by the commit that answers it (RFC 9126 §4: one-time request_uri).
  const outcome = await deps.store.commit([
    authorizationCodes.put(secretKey(code), record, { kind: 'absent' }),
    ...(pushed === undefined ? [] : [pushed.spend(now)]),
  ])
  if (!outcome.ok) return E.left(outcome.conflict.writeIndex === 1 ? invalidInput(REQUEST_URI_GONE) : conflict('The authorization code could not be stored; try again'))
  return E.right<never, RedirectReply>({ kind: 'redirect', location: clientRedirectUrl(deps, query.redirect_uri, { code, state: query.state }) })
}

/** The query's parameters as strings (to resume it elsewhere). */
function stringEntries(query: AuthorizeQuery): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
}

/** The query with some prompt values removed (and `prompt` dropped when none remain). */
function withoutPrompts(query: AuthorizeQuery, drop: readonly string[]): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(query)) if (typeof value === 'string') kept[name] = value
  const prompts = (query.prompt ?? '').split(' ').filter((prompt) => prompt !== '' && !drop.includes(prompt))
  if (prompts.length > 0) kept.prompt = prompts.join(' ')
  else delete kept.prompt
  return kept
}
