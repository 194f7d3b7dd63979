/**
 * What the OpenID provider stores. Times a rule compares are epoch milliseconds (`…Ms`); every
 * record is plain JSON so any Store adapter keeps it byte for byte.
 */
import * as t from 'io-ts'
import { nullableNumber, nullableString } from '../usecases/typed-collection.js'

const Scopes = t.readonlyArray(t.string)

/**
 * One authorization code, bound to everything the token request must repeat or prove.
 * `codeChallenge`: BASE64URL(SHA-256(code_verifier)) (RFC 7636 S256). `authTimeMs`: when the user
 * signed in, the ID token's `auth_time` (absent on codes stored before it existed). `dpopJkt`: RFC
 * 9449 §10 `dpop_jkt`, the code is redeemed only with a DPoP proof by this key. `grantId`: the grant
 * the code's exchange creates; a reused code revokes it. `usedAtMs`: set by the one exchange a code allows.
 */
export const AuthorizationCodeRecordCodec = t.readonly(t.intersection([
  t.type({
    clientId: t.string, redirectUri: t.string, codeChallenge: t.string, nonce: nullableString, scopes: Scopes, userId: t.string,
    grantId: t.string, issuedAtMs: t.number, expiresAtMs: t.number, usedAtMs: nullableNumber,
  }),
  t.partial({ authTimeMs: t.number, dpopJkt: t.string }),
]))
export type AuthorizationCodeRecord = t.TypeOf<typeof AuthorizationCodeRecordCodec>

/**
 * What one authorization allowed. Revoking it ends every access and refresh token it issued.
 * `authTimeMs`: the sign-in behind the grant, `auth_time` of refreshed ID tokens too. `revokedReason`:
 * why, in a few words (`code reused`, `refresh token reused`, `refresh token revoked`).
 * `revokedAccessTokens`: individually revoked access tokens, jti → their `exp` (seconds), pruned once
 * expired. `expiresAtMs`: grants that back one short-lived token (proof-authority exchange) — nothing
 * of it stands after this; the sweeper removes it then.
 */
export const GrantRecordCodec = t.readonly(t.intersection([
  t.type({
    grantId: t.string, userId: t.string, clientId: t.string, scopes: Scopes, createdAtMs: t.number, revokedAtMs: nullableNumber, revokedReason: nullableString,
    revokedAccessTokens: t.readonly(t.record(t.string, t.number)),
  }),
  t.partial({ authTimeMs: t.number, expiresAtMs: t.number }),
]))
export type GrantRecord = t.TypeOf<typeof GrantRecordCodec>

/**
 * A refresh token. Rotation marks it `rotatedAtMs`; presenting it again revokes the grant.
 * `dpopJkt`: RFC 9449, the DPoP key thumbprint the token is bound to (its rotations stay bound).
 */
export const RefreshTokenRecordCodec = t.readonly(t.intersection([
  t.type({ grantId: t.string, clientId: t.string, userId: t.string, scopes: Scopes, issuedAtMs: t.number, expiresAtMs: t.number, rotatedAtMs: nullableNumber }),
  t.partial({ dpopJkt: t.string }),
]))
export type RefreshTokenRecord = t.TypeOf<typeof RefreshTokenRecordCodec>

/** The scopes a user allowed a third-party client. */
export const ConsentRecordCodec = t.readonly(t.type({ userId: t.string, clientId: t.string, scopes: Scopes, grantedAtMs: t.number }))
export type ConsentRecord = t.TypeOf<typeof ConsentRecordCodec>

/** A delegated agent token (MCP, CI, local agents). The token itself is never stored. */
export const AgentTokenRecordCodec = t.readonly(t.type({
  tokenId: t.string, userId: t.string, clientId: t.string, scopes: Scopes, label: t.string, auditLabels: t.readonly(t.record(t.string, t.string)),
  createdAtMs: t.number, expiresAtMs: t.number, revokedAtMs: nullableNumber,
}))
export type AgentTokenRecord = t.TypeOf<typeof AgentTokenRecordCodec>

/**
 * A pushed authorization request (RFC 9126). `usedAtMs`: set in the commit that issued its
 * authorization code; absent on records stored before it existed.
 */
export const PushedRequestRecordCodec = t.readonly(t.intersection([
  t.type({ clientId: t.string, params: t.readonly(t.record(t.string, t.string)), expiresAtMs: t.number }),
  t.partial({ usedAtMs: nullableNumber }),
]))
export type PushedRequestRecord = t.TypeOf<typeof PushedRequestRecordCodec>
