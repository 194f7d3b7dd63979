/**
 * What the OpenID provider stores. Times a rule compares are epoch milliseconds (`…Ms`); every
 * record is plain JSON so any Store adapter keeps it byte for byte.
 */
import type { Json } from '../../ports/store.js'

/** One authorization code, bound to everything the token request must repeat or prove. */
export interface AuthorizationCodeRecord {
  readonly clientId: string
  readonly redirectUri: string
  /** BASE64URL(SHA-256(code_verifier)) (RFC 7636 S256). */
  readonly codeChallenge: string
  readonly nonce: string | null
  readonly scopes: readonly string[]
  readonly userId: string
  /** When the user signed in (epoch ms): the ID token's `auth_time`. Absent on codes stored before it existed. */
  readonly authTimeMs?: number
  /** RFC 9449 §10 `dpop_jkt`: the code is redeemed only with a DPoP proof by this key. */
  readonly dpopJkt?: string
  /** The grant the code's exchange creates; a reused code revokes it. */
  readonly grantId: string
  readonly issuedAtMs: number
  readonly expiresAtMs: number
  /** Set by the one exchange a code allows. */
  readonly usedAtMs: number | null
}

/** What one authorization allowed. Revoking it ends every access and refresh token it issued. */
export interface GrantRecord {
  readonly grantId: string
  readonly userId: string
  readonly clientId: string
  readonly scopes: readonly string[]
  /** The sign-in behind the grant (epoch ms): `auth_time` of refreshed ID tokens too. */
  readonly authTimeMs?: number
  readonly createdAtMs: number
  readonly revokedAtMs: number | null
  /** Why, in a few words (`code reused`, `refresh token reused`, `refresh token revoked`). */
  readonly revokedReason: string | null
  /** Individually revoked access tokens: jti → their `exp` (seconds); pruned once expired. */
  readonly revokedAccessTokens: Readonly<Record<string, number>>
  /** Grants that back one short-lived token (proof-authority exchange): nothing of it stands after this (epoch ms); the sweeper removes it then. */
  readonly expiresAtMs?: number
}

/** A refresh token. Rotation marks it `rotatedAtMs`; presenting it again revokes the grant. */
export interface RefreshTokenRecord {
  readonly grantId: string
  readonly clientId: string
  readonly userId: string
  readonly scopes: readonly string[]
  readonly issuedAtMs: number
  readonly expiresAtMs: number
  readonly rotatedAtMs: number | null
  /** RFC 9449: the DPoP key thumbprint the token is bound to (its rotations stay bound). */
  readonly dpopJkt?: string
}

/** The scopes a user allowed a third-party client. */
export interface ConsentRecord {
  readonly userId: string
  readonly clientId: string
  readonly scopes: readonly string[]
  readonly grantedAtMs: number
}

/** A delegated agent token (MCP, CI, local agents). The token itself is never stored. */
export interface AgentTokenRecord {
  readonly tokenId: string
  readonly userId: string
  readonly clientId: string
  readonly scopes: readonly string[]
  readonly label: string
  readonly auditLabels: Readonly<Record<string, string>>
  readonly createdAtMs: number
  readonly expiresAtMs: number
  readonly revokedAtMs: number | null
}

/** A record as a Store value. @example { kind: 'put', collection: GRANTS, key, value: asJson(grant), expect } */
export function asJson(record: object): Json {
  return record as unknown as Json
}
