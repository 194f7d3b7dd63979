/**
 * `grant_type=refresh_token` (RFC 6749 §6) with rotation: every use retires the presented
 * refresh token and issues a new one. A retired token presented again means two parties hold it,
 * so the whole grant is revoked — every access and refresh token (OAuth 2.0 Security BCP §4.14).
 * `scope` may narrow the new access token, never widen it.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ComponentType } from '../contract/components.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { refreshTokens } from './collections.js'
import { authEvent, nothingToWrite, type Decision } from './decision.js'
import { loadGrant, revokeGrantWrites } from './grants.js'
import { oauthError } from './oauth-errors.js'
import { isSubset, parseScopes } from './scopes.js'
import { secretKey } from './secrets.js'
import { issueTokenSet } from './token-set.js'

type TokenResponse = ComponentType<'OidcTokenResponse'>
type Form = ComponentType<'OidcTokenForm'>

/** @example await commitDecision(deps, () => decideRefresh(form, 'web', deps)) */
export async function decideRefresh(form: Form, clientId: string, deps: CoreDeps, dpopJkt?: string): Promise<Decision<TokenResponse>> {
  const refuse = (sentence: string) => nothingToWrite<TokenResponse>(E.left(oauthError('invalid_grant', sentence)))
  if (!form.refresh_token) return nothingToWrite(E.left(oauthError('invalid_request', 'refresh_token is required')))
  const doc = await refreshTokens.get(deps.store, secretKey(form.refresh_token))
  if (!doc) return refuse('The refresh token is not valid')
  const presented = doc.value
  if (presented.clientId !== clientId) return refuse('The refresh token was issued to another client')
  // A DPoP-bound refresh token works only with a proof by its key (RFC 9449 §5) — checked before
  // reuse, so a thief without the key cannot even revoke the grant.
  if (presented.dpopJkt !== undefined && presented.dpopJkt !== dpopJkt) return refuse('The refresh token is DPoP-bound: send a DPoP proof by its key')
  const grant = await loadGrant(deps, presented.grantId)
  if (!grant || grant.record.revokedAtMs !== null) return refuse('The refresh token has been revoked')
  const now = deps.clock.now()

  if (presented.rotatedAtMs !== null) {
    const writes = revokeGrantWrites(grant, 'refresh token reused', now)
    return {
      writes,
      actions: [authEvent('grant_revoked', presented.userId)],
      answer: E.left(oauthError('invalid_grant', 'The refresh token was already used; the whole grant is now revoked')),
    }
  }
  if (presented.expiresAtMs <= now) return refuse('The refresh token has expired')

  const asked = parseScopes(form.scope)
  if (asked.length > 0 && !isSubset(asked, presented.scopes)) {
    return nothingToWrite(E.left(oauthError('invalid_scope', 'A refresh may narrow the scopes, never widen them')))
  }
  const tokens = await issueTokenSet(deps, { grant: grant.record, accessScopes: asked.length > 0 ? asked : presented.scopes, nonce: null, dpopJkt: presented.dpopJkt ?? dpopJkt })
  return {
    writes: [
      refreshTokens.put(secretKey(form.refresh_token), { ...presented, rotatedAtMs: now }, unchangedSince(doc.version)),
      tokens.refreshWrite,
    ],
    actions: [authEvent('token_refreshed', presented.userId)],
    answer: E.right(tokens.response),
  }
}
