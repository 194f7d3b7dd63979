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
import { json, type CoreDeps, type RedirectReply, type ReplyOf, type UseCaseFor } from '../usecases/use-case.js'
import { clientRedirectUrl, errorRedirect, loginRedirect, type AuthorizeErrorCode } from './authorize-redirects.js'
import { findClient } from './clients.js'
import { AUTHORIZATION_CODES } from './collections.js'
import { hasConsent } from './consent.js'
import { AUTHORIZATION_CODE_SECONDS } from './lifetimes.js'
import { isS256Challenge } from './pkce.js'
import { asJson, type AuthorizationCodeRecord } from './records.js'
import { parseScopes, refusedScopes, unknownScopes } from './scopes.js'
import { newId, newSecret, secretKey } from './secrets.js'

/** The decoded query (contract: core/contract/operations/query-parameters.ts `authorizeQuery`). */
export interface AuthorizeQuery {
  readonly response_type?: string
  readonly client_id: string
  readonly redirect_uri: string
  readonly scope?: string
  readonly state?: string
  readonly nonce?: string
  readonly code_challenge?: string
  readonly code_challenge_method?: string
  readonly prompt?: string
}

const PROMPTS = new Set(['none', 'login', 'consent', 'select_account'])

/** A request that passed every check that needs no session. */
export interface ValidAuthorization {
  readonly client: OAuthClientConfig
  readonly scopes: readonly string[]
  readonly codeChallenge: string
  readonly prompts: ReadonlySet<string>
}

type Refusal = { readonly error: AuthorizeErrorCode; readonly description: string }
const refuse = (error: AuthorizeErrorCode, description: string): Either<Refusal, never> => E.left({ error, description })

/**
 * The checks that need only the request and the client, in RFC order.
 *
 * @example checkAuthorizeRequest(query, client) // right({ scopes, codeChallenge, prompts })
 */
export function checkAuthorizeRequest(query: AuthorizeQuery, client: OAuthClientConfig): Either<Refusal, ValidAuthorization> {
  if (query.response_type !== 'code') return refuse('unsupported_response_type', 'Only response_type=code is supported')
  if (query.code_challenge_method === undefined) return refuse('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256')
  if (query.code_challenge_method !== 'S256') return refuse('invalid_request', 'Only the S256 PKCE method is supported; plain is refused')
  if (query.code_challenge === undefined || !isS256Challenge(query.code_challenge)) {
    return refuse('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the code verifier')
  }
  const prompts = new Set((query.prompt ?? '').split(' ').filter(Boolean))
  if ([...prompts].some((prompt) => !PROMPTS.has(prompt))) return refuse('invalid_request', 'prompt may contain only none, login, consent and select_account')
  if (prompts.has('none') && prompts.size > 1) return refuse('invalid_request', 'prompt=none cannot be combined with other prompt values')
  const scopes = parseScopes(query.scope)
  if (scopes.length === 0) return refuse('invalid_scope', 'Name the scopes the client asks for in scope')
  const unknown = unknownScopes(scopes)
  if (unknown.length > 0) return refuse('invalid_scope', `Unknown scope: ${unknown.join(' ')}`)
  const notAllowed = refusedScopes(scopes, client, { businessTier: true })
  if (notAllowed.length > 0) return refuse('invalid_scope', `The client may not ask for: ${notAllowed.join(' ')}`)
  return E.right({ client, scopes, codeChallenge: query.code_challenge, prompts })
}

/**
 * @example await authorize({ query, principal: sessionPrincipal, params: {}, body: undefined }, deps) // right(302 to redirect_uri?code=…)
 */
export const authorize: UseCaseFor<'authorize'> = async (request, deps) => {
  const { query } = request
  const client = findClient(deps, query.client_id)
  if (!client) return E.left(invalidInput(`The client_id ${query.client_id} is not registered; Cairn will not redirect`))
  if (!client.redirectUris.includes(query.redirect_uri)) {
    return E.left(invalidInput('The redirect_uri is not one the client registered (exact match); Cairn will not redirect there'))
  }
  const fail = (refusal: Refusal) => E.right(errorRedirect(deps, query.redirect_uri, query.state, refusal.error, refusal.description))

  const checked = checkAuthorizeRequest(query, client)
  if (E.isLeft(checked)) return fail(checked.left)
  const valid = checked.right
  const { principal } = request

  if (principal.kind !== 'session' || valid.prompts.has('login') || valid.prompts.has('select_account')) {
    if (valid.prompts.has('none')) return fail({ error: 'login_required', description: 'No one is signed in, and prompt=none forbids asking' })
    return E.right(loginRedirect(deps, withoutPrompts(query, ['login', 'select_account'])))
  }
  const refused = refusedScopes(valid.scopes, undefined, principal)
  if (refused.length > 0) return fail({ error: 'invalid_scope', description: `This account may not grant: ${refused.join(' ')} (Business tier only)` })

  if (!client.firstParty && (valid.prompts.has('consent') || !(await hasConsent(deps, principal.userId, client.clientId, valid.scopes)))) {
    const description = `${client.name ?? client.clientId} asks for consent to: ${valid.scopes.join(' ')}`
    if (valid.prompts.has('none')) return fail({ error: 'consent_required', description })
    return E.right(consentRequired(deps, query, description))
  }
  return issueCode(deps, query, valid, principal)
}

/**
 * The JSON answer when a third-party client needs consent: the embedding application asks the
 * user, records a yes with `recordConsent` and repeats the request without `prompt=consent`; on
 * a no it sends the browser to `redirectTo` (the client learns `consent_required`).
 */
function consentRequired(deps: CoreDeps, query: AuthorizeQuery, description: string): ReplyOf<'authorize'> {
  return json({
    ok: false,
    error: 'consent_required',
    error_description: description,
    ...(query.state === undefined ? {} : { state: query.state }),
    iss: deps.config.baseUrl,
    redirectTo: clientRedirectUrl(deps, query.redirect_uri, { error: 'consent_required', error_description: description, state: query.state }),
  })
}

async function issueCode(deps: CoreDeps, query: AuthorizeQuery, valid: ValidAuthorization, principal: Extract<Principal, { kind: 'session' }>) {
  const code = newSecret(deps)
  const now = deps.clock.now()
  const record: AuthorizationCodeRecord = {
    clientId: valid.client.clientId,
    redirectUri: query.redirect_uri,
    codeChallenge: valid.codeChallenge,
    nonce: query.nonce ?? null,
    scopes: valid.scopes,
    userId: principal.userId,
    grantId: newId(deps, 'grt_'),
    issuedAtMs: now,
    expiresAtMs: now + AUTHORIZATION_CODE_SECONDS * 1000,
    usedAtMs: null,
  }
  const outcome = await deps.store.commit([{ kind: 'put', collection: AUTHORIZATION_CODES, key: secretKey(code), value: asJson(record), expect: { kind: 'absent' } }])
  if (!outcome.ok) return E.left(conflict('The authorization code could not be stored; try again'))
  return E.right<never, RedirectReply>({ kind: 'redirect', location: clientRedirectUrl(deps, query.redirect_uri, { code, state: query.state }) })
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
