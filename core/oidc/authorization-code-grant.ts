/**
 * `grant_type=authorization_code` (RFC 6749 §4.1.3, RFC 7636 §4.6). The code must be known,
 * unexpired, issued to this client for this redirect URI, and answered by the PKCE verifier.
 * It works once: the exchange marks it used and creates its grant; presenting it again revokes
 * that grant — every token the code issued (RFC 6749 §4.1.2).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ComponentType } from '../contract/components.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { authorizationCodes, grants } from './collections.js'
import { authEvent, nothingToWrite, type Decision } from './decision.js'
import { loadGrant, revokeGrantWrites } from './grants.js'
import { oauthError } from './oauth-errors.js'
import { isCodeVerifier, verifiesS256 } from './pkce.js'
import type { GrantRecord } from './records.js'
import { secretKey } from './secrets.js'
import { issueTokenSet } from './token-set.js'

type TokenResponse = ComponentType<'OidcTokenResponse'>
type Form = ComponentType<'OidcTokenForm'>

/** @example await commitDecision(deps, () => decideCodeExchange(form, 'web', deps)) */
export async function decideCodeExchange(form: Form, clientId: string, deps: CoreDeps, dpopJkt?: string): Promise<Decision<TokenResponse>> {
  const refuse = (sentence: string) => nothingToWrite<TokenResponse>(E.left(oauthError('invalid_grant', sentence)))
  if (!form.code) return nothingToWrite(E.left(oauthError('invalid_request', 'code is required')))
  if (!form.redirect_uri) return nothingToWrite(E.left(oauthError('invalid_request', 'redirect_uri is required')))
  if (!form.code_verifier) return nothingToWrite(E.left(oauthError('invalid_request', 'code_verifier is required (PKCE)')))
  if (!isCodeVerifier(form.code_verifier)) return nothingToWrite(E.left(oauthError('invalid_request', 'code_verifier must be 43 to 128 unreserved characters')))

  const doc = await authorizationCodes.get(deps.store, secretKey(form.code))
  if (!doc) return refuse('The authorization code is not valid')
  const code = doc.value
  const now = deps.clock.now()

  if (code.expiresAtMs <= now) return refuse('The authorization code has expired')
  if (code.clientId !== clientId) return refuse('The authorization code was issued to another client')
  // Only the code's own client, within the code's lifetime, can revoke its grant by reuse: an old
  // code found in a history, Referer or log cannot be replayed by anyone to revoke a victim's grant.
  if (code.usedAtMs !== null) {
    const grant = await loadGrant(deps, code.grantId)
    const writes = grant ? revokeGrantWrites(grant, 'authorization code reused', now) : []
    return {
      writes,
      actions: writes.length > 0 ? [authEvent('grant_revoked', code.userId)] : [],
      answer: E.left(oauthError('invalid_grant', 'The authorization code was already used; every token it issued is now revoked')),
    }
  }
  if (code.redirectUri !== form.redirect_uri) return refuse('redirect_uri differs from the one of the authorization request')
  if (!verifiesS256(form.code_verifier, code.codeChallenge)) return refuse('The code_verifier does not match the code_challenge')
  if (code.dpopJkt !== undefined && code.dpopJkt !== dpopJkt) return refuse('The code is bound to a DPoP key (dpop_jkt): send a DPoP proof by that key')

  const grant: GrantRecord = {
    grantId: code.grantId,
    userId: code.userId,
    clientId: code.clientId,
    scopes: code.scopes,
    ...(code.authTimeMs === undefined ? {} : { authTimeMs: code.authTimeMs }),
    createdAtMs: now,
    revokedAtMs: null,
    revokedReason: null,
    revokedAccessTokens: {},
  }
  const tokens = await issueTokenSet(deps, { grant, accessScopes: grant.scopes, nonce: code.nonce, dpopJkt })
  return {
    writes: [
      authorizationCodes.put(secretKey(form.code), { ...code, usedAtMs: now }, unchangedSince(doc.version)),
      grants.put(grant.grantId, grant, { kind: 'absent' }),
      tokens.refreshWrite,
    ],
    actions: [authEvent('token_issued', code.userId)],
    answer: E.right(tokens.response),
  }
}
