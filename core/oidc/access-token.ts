/**
 * Access tokens: JWTs in the RFC 9068 profile (`typ: at+jwt`), signed with the KeyStore's ES256
 * key, or RS256 for clients configured with `accessTokenSigningAlg: 'RS256'`. `aud` is the base URL — Cairn's API is the one resource server — and `grant_id` names the
 * grant whose revocation ends the token.
 */
import type { CoreDeps } from '../usecases/use-case.js'
import { ACCESS_TOKEN_SECONDS } from './lifetimes.js'
import { newId } from './secrets.js'
import { signJwt } from './sign-jwt.js'
import { findClient } from './clients.js'
import { TOKEN_SIGNING_ALG } from './verification-keys.js'

export const ACCESS_TOKEN_TYP = 'at+jwt'

/** The claims of an access token (RFC 9068 §2.2, plus `grant_id`). */
export interface AccessTokenClaims {
  readonly iss: string
  readonly aud: string
  readonly sub: string
  readonly client_id: string
  /** Space-separated granted scopes. */
  readonly scope: string
  readonly jti: string
  readonly iat: number
  readonly exp: number
  readonly grant_id: string
  /** RFC 9449 §6: the SHA-256 thumbprint of the DPoP key the token is bound to. */
  readonly cnf?: { readonly jkt: string }
}

export interface IssuedAccessToken {
  readonly token: string
  readonly claims: AccessTokenClaims
}

/**
 * @example const { token } = await issueAccessToken(deps, { userId, clientId, scopes: ['openid'], grantId })
 */
export async function issueAccessToken(
  deps: Pick<CoreDeps, 'keys' | 'clock' | 'entropy' | 'config'>,
  grant: { readonly userId: string; readonly clientId: string; readonly scopes: readonly string[]; readonly grantId: string; readonly dpopJkt?: string | undefined; readonly lifetimeSeconds?: number },
): Promise<IssuedAccessToken> {
  const iat = Math.floor(deps.clock.now() / 1000)
  const claims: AccessTokenClaims = {
    iss: deps.config.baseUrl,
    aud: deps.config.baseUrl,
    sub: grant.userId,
    client_id: grant.clientId,
    scope: grant.scopes.join(' '),
    jti: newId(deps, 'at_'),
    iat,
    exp: iat + (grant.lifetimeSeconds ?? ACCESS_TOKEN_SECONDS),
    grant_id: grant.grantId,
    ...(grant.dpopJkt === undefined ? {} : { cnf: { jkt: grant.dpopJkt } }),
  }
  const alg = findClient(deps, grant.clientId)?.accessTokenSigningAlg ?? TOKEN_SIGNING_ALG
  return { token: await signJwt(deps, ACCESS_TOKEN_TYP, { ...claims }, alg), claims }
}
