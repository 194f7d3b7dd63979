/**
 * What a successful token request answers (RFC 6749 §5.1): an access token, a fresh refresh
 * token and, when `openid` was granted, an ID token — plus the Store write of the refresh token.
 */
import type { ComponentType } from '../contract/components.js'
import type { Write } from '../../ports/store.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { issueAccessToken } from './access-token.js'
import { refreshTokens } from './collections.js'
import { issueIdToken } from './id-token.js'
import { ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS } from './lifetimes.js'
import type { GrantRecord, RefreshTokenRecord } from './records.js'
import { newSecret, REFRESH_TOKEN_PREFIX, secretKey } from './secrets.js'

export interface TokenSetInput {
  readonly grant: GrantRecord
  /** Scopes of this access token: the grant's, or fewer on a narrowing refresh. */
  readonly accessScopes: readonly string[]
  /** Set on the code exchange only (OpenID Connect Core §12.2: refreshed ID tokens carry none). */
  readonly nonce: string | null
  /** Bind the access and refresh tokens to this DPoP key (RFC 9449 `cnf.jkt`). */
  readonly dpopJkt?: string | undefined
}

export interface TokenSet {
  readonly response: ComponentType<'OidcTokenResponse'>
  readonly refreshWrite: Write
  readonly accessTokenId: string
}

/** @example const { response, refreshWrite } = await issueTokenSet(deps, { grant, accessScopes: grant.scopes, nonce }) */
export async function issueTokenSet(deps: CoreDeps, input: TokenSetInput): Promise<TokenSet> {
  const { grant } = input
  const access = await issueAccessToken(deps, { userId: grant.userId, clientId: grant.clientId, scopes: input.accessScopes, grantId: grant.grantId, dpopJkt: input.dpopJkt })
  const refreshToken = newSecret(deps, REFRESH_TOKEN_PREFIX)
  const now = deps.clock.now()
  const refresh: RefreshTokenRecord = {
    grantId: grant.grantId,
    clientId: grant.clientId,
    userId: grant.userId,
    // RFC 6749 §6: a rotated refresh token keeps the scope of the one it replaces.
    scopes: grant.scopes,
    issuedAtMs: now,
    expiresAtMs: now + REFRESH_TOKEN_SECONDS * 1000,
    rotatedAtMs: null,
    ...(input.dpopJkt === undefined ? {} : { dpopJkt: input.dpopJkt }),
  }
  const idToken = input.accessScopes.includes('openid')
    ? await issueIdToken(deps, { userId: grant.userId, clientId: grant.clientId, nonce: input.nonce, accessToken: access.token, authTimeMs: grant.authTimeMs })
    : undefined
  return {
    response: {
      access_token: access.token,
      token_type: input.dpopJkt === undefined ? 'Bearer' : 'DPoP',
      expires_in: ACCESS_TOKEN_SECONDS,
      refresh_token: refreshToken,
      scope: input.accessScopes.join(' '),
      ...(idToken === undefined ? {} : { id_token: idToken }),
    },
    refreshWrite: refreshTokens.put(secretKey(refreshToken), refresh, { kind: 'absent' }),
    accessTokenId: access.claims.jti,
  }
}
