/**
 * Pushed authorization requests (RFC 9126). A client posts its authorization parameters to the
 * PAR endpoint (client-authenticated, so they cannot be tampered with in the browser) and sends
 * the browser to `authorize?client_id=…&request_uri=urn:ietf:params:oauth:request_uri:…`. The
 * reference is 256 random bits, stored as its SHA-256, bound to the client, and one-time (RFC 9126
 * §4): the browser may come back to it after signing in or consenting, but the commit that issues
 * its code marks it used, and a used or expired one is refused.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { OAuthClientConfig } from '../config/deployment-config.js'
import { invalidInput, type DomainError } from '../errors/domain-error.js'
import type { Write } from '../../ports/store.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { checkAuthorizeRequest } from './authorize.js'
import { pushedRequests } from './collections.js'
import { oauthError } from './oauth-errors.js'
import type { PushedRequestRecord } from './records.js'
import { newSecret, secretKey } from './secrets.js'

export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:'
/** 10 minutes: long enough to sign in and consent on the way (RFC 9126 §2.2 leaves it to the server). */
export const PUSHED_REQUEST_SECONDS = 600

/** A pushed request still to be answered: its parameters and the write that spends it. */
export interface PendingPushedRequest {
  readonly params: Readonly<Record<string, string>>
  /** Marks it used; commit it with the code, so two racing answers cannot both issue one. */
  readonly spend: (nowMs: number) => Write
}

/** The parameters a pushed request may carry: those of the authorization endpoint, minus the PAR-only ones. */
const NOT_PUSHABLE = new Set(['request_uri', 'client_secret', 'client_assertion', 'client_assertion_type', 'login_after'])

/**
 * Validate and store a pushed request of `client`.
 *
 * @example await pushAuthorizationRequest(deps, client, form) // right({ request_uri, expires_in: 600 })
 */
export async function pushAuthorizationRequest(
  deps: CoreDeps,
  client: OAuthClientConfig,
  form: Readonly<Record<string, string>>,
): Promise<Either<DomainError, { readonly request_uri: string; readonly expires_in: number }>> {
  if (form.request_uri !== undefined) return E.left(oauthError('invalid_request', 'request_uri cannot be pushed (RFC 9126 §2.1)'))
  if (form.client_id !== undefined && form.client_id !== client.clientId) return E.left(oauthError('invalid_request', 'client_id differs from the authenticated client'))
  const params: Record<string, string> = { client_id: client.clientId }
  for (const [name, value] of Object.entries(form)) if (!NOT_PUSHABLE.has(name)) params[name] = value
  if (params.redirect_uri === undefined || !client.redirectUris.includes(params.redirect_uri)) {
    return E.left(oauthError('invalid_request', 'redirect_uri must be one the client registered (exact match)'))
  }
  const checked = checkAuthorizeRequest({ ...params, client_id: client.clientId, redirect_uri: params.redirect_uri }, client)
  if (E.isLeft(checked)) return E.left({ ...invalidInput(`${checked.left.error}: ${checked.left.description}`), oauth: { code: checked.left.error, description: checked.left.description } })
  const reference = newSecret(deps)
  const requestUri = `${REQUEST_URI_PREFIX}${reference}`
  const record: PushedRequestRecord = { clientId: client.clientId, params, expiresAtMs: deps.clock.now() + PUSHED_REQUEST_SECONDS * 1000 }
  const outcome = await deps.store.commit([pushedRequests.put(secretKey(requestUri), record, { kind: 'absent' })])
  if (!outcome.ok) return E.left(oauthError('invalid_request', 'The request could not be stored; try again'))
  return E.right({ request_uri: requestUri, expires_in: PUSHED_REQUEST_SECONDS })
}

/**
 * The pushed request a `request_uri` of `clientId` stands for, or undefined (unknown, expired, used, another client's).
 *
 * @example await pendingPushedRequest(deps, 'web', 'urn:ietf:params:oauth:request_uri:…')
 */
export async function pendingPushedRequest(deps: Pick<CoreDeps, 'store' | 'clock'>, clientId: string, requestUri: string): Promise<PendingPushedRequest | undefined> {
  const doc = await pushedRequests.get(deps.store, secretKey(requestUri))
  const record = doc?.value
  if (!doc || !record || record.clientId !== clientId || record.expiresAtMs <= deps.clock.now() || (record.usedAtMs ?? null) !== null) return undefined
  return {
    params: record.params,
    spend: (nowMs) => pushedRequests.put(secretKey(requestUri), { ...record, usedAtMs: nowMs }, unchangedSince(doc.version)),
  }
}
