/**
 * The bearer check: is this access token one Cairn issued, for Cairn, still valid and not
 * revoked? JWT access tokens are verified with jose against the KeyStore's keys (cached); opaque
 * agent tokens (`cairn_at_…`) are looked up by their SHA-256. Either way the answer is the grant
 * the authentication boundary turns into a bearer principal.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { decodeProtectedHeader, errors, jwtVerify } from 'jose'
import type { AccessGrant } from '../auth/access-grant.js'
import { unauthenticated, type DomainError } from '../errors/domain-error.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { ACCESS_TOKEN_TYP, type AccessTokenClaims } from './access-token.js'
import { findClient } from './clients.js'
import { agentTokens } from './collections.js'
import { accessTokenStands, loadGrant, type LoadedGrant } from './grants.js'
import type { AgentTokenRecord } from './records.js'
import { AGENT_TOKEN_PREFIX, secretKey } from './secrets.js'
import { rememberClaims, rememberedClaims } from './verified-tokens.js'
import { TOKEN_SIGNING_ALGS, verificationKey } from './verification-keys.js'

/** What a valid access token allows (`tokenId`: the `jti` of a JWT, the `tokenId` of an agent token). */
export type { AccessGrant }

const NOT_VALID = 'The access token is not valid'
const REVOKED = 'The access token has been revoked'
const EXPIRED = 'The access token has expired'

/**
 * @example
 * const grant = await verifyAccessToken(request.bearerToken, deps)
 * if (E.isRight(grant)) console.log(grant.right.subject, grant.right.scopes)
 * // It is the boundary's VerifyBearer: createCairnAuthenticator({ deps, verifyBearer: verifyAccessToken })
 */
export async function verifyAccessToken(token: string, deps: CoreDeps): Promise<Either<DomainError, AccessGrant>> {
  if (token.startsWith(AGENT_TOKEN_PREFIX)) {
    const agent = await verifyAgentToken(token, deps)
    return E.map((record: AgentTokenRecord) => ({
      subject: record.userId, clientId: record.clientId, scopes: record.scopes, tokenId: record.tokenId,
      // A signed-in user minted it naming the client; the client never took part, unless it admits agents.
      actsAsClient: findClient(deps, record.clientId)?.agentTokensActAsApplication === true,
    }))(agent)
  }
  const verified = await verifyJwtAccessToken(token, deps)
  if (E.isLeft(verified)) return verified
  const { claims } = verified.right
  const jkt = claims.cnf?.jkt
  return E.right({
    subject: claims.sub, clientId: claims.client_id, scopes: claims.scope.split(' ').filter(Boolean), tokenId: claims.jti, ...(typeof jkt === 'string' ? { dpopJkt: jkt } : {}),
    // JWT access tokens are issued only to an authenticated client: at the token endpoint (secret, or
    // PKCE for the client's own registered redirect) and at the ProofConsent exchange (secret).
    actsAsClient: true,
  })
}

/** A JWT access token that passed every check, with the grant that still stands behind it. */
export interface VerifiedJwtAccessToken {
  readonly claims: AccessTokenClaims
  readonly grant: LoadedGrant
}

/**
 * Signature, header and claims (`checkSignedAccessToken`), then revocation: the grant must stand
 * and must not list this token's `jti`.
 *
 * @example const verified = await verifyJwtAccessToken(jwt, deps)
 */
export async function verifyJwtAccessToken(token: string, deps: CoreDeps): Promise<Either<DomainError, VerifiedJwtAccessToken>> {
  const checked = await checkSignedAccessToken(token, deps)
  if (E.isLeft(checked)) return checked
  const claims = checked.right
  const grant = await loadGrant(deps, claims.grant_id)
  if (!grant || grant.record.clientId !== claims.client_id || grant.record.userId !== claims.sub) return E.left(unauthenticated(NOT_VALID))
  if (!accessTokenStands(grant.record, claims.jti)) return E.left(unauthenticated(REVOKED))
  return E.right({ claims, grant })
}

/**
 * Everything but revocation: `alg` ES256 only (never `none`), a `kid` of Cairn's KeyStore, a valid
 * signature, `typ: at+jwt`, Cairn's issuer and audience, not expired, every claim present and of
 * its type, and a client the deployment still registers. A token verified before is not checked
 * against its signature again (verified-tokens.ts); everything else is, every time.
 *
 * @example const claims = await checkSignedAccessToken(jwt, deps)
 */
export async function checkSignedAccessToken(token: string, deps: CoreDeps): Promise<Either<DomainError, AccessTokenClaims>> {
  let kid: unknown
  let alg: unknown
  try {
    const header = decodeProtectedHeader(token)
    if (!TOKEN_SIGNING_ALGS.includes(header.alg as never)) return E.left(unauthenticated(NOT_VALID))
    alg = header.alg
    kid = header.kid
  } catch {
    return E.left(unauthenticated(NOT_VALID))
  }
  if (typeof kid !== 'string') return E.left(unauthenticated(NOT_VALID))
  const key = await verificationKey(deps, kid)
  if (!key) return E.left(unauthenticated('The access token was not signed by this Cairn'))
  // The kid's key decides the algorithm: an RS256 header on an ES256 key (or the reverse) is refused.
  if (key.alg !== alg) return E.left(unauthenticated(NOT_VALID))
  const now = deps.clock.now()
  // Verified before, byte for byte: only expiry has changed since (jose's rule: valid while exp > now in whole seconds).
  let claims = rememberedClaims(deps.keys, deps.config.baseUrl, token)
  if (claims === undefined || claims.exp <= Math.floor(now / 1000)) {
    let payload: Record<string, unknown>
    try {
      ;({ payload } = await jwtVerify(token, key.key, {
        algorithms: [key.alg],
        typ: ACCESS_TOKEN_TYP,
        issuer: deps.config.baseUrl,
        audience: deps.config.baseUrl,
        currentDate: new Date(now),
        requiredClaims: ['sub', 'client_id', 'scope', 'jti', 'iat', 'exp', 'grant_id'],
      }))
    } catch (error) {
      return E.left(unauthenticated(error instanceof errors.JWTExpired ? EXPIRED : NOT_VALID))
    }
    if (!isAccessTokenClaims(payload)) return E.left(unauthenticated(NOT_VALID))
    claims = payload
    rememberClaims(deps.keys, deps.config.baseUrl, token, claims)
  }
  if (!findClient(deps, claims.client_id)) return E.left(unauthenticated('The access token was issued to a client that is no longer registered'))
  return E.right(claims)
}

function isAccessTokenClaims(payload: Record<string, unknown>): payload is AccessTokenClaims & Record<string, unknown> {
  const strings = ['iss', 'aud', 'sub', 'client_id', 'scope', 'jti', 'grant_id'] as const
  return strings.every((name) => typeof payload[name] === 'string') && Number.isInteger(payload.iat) && Number.isInteger(payload.exp)
}

/**
 * An opaque agent token: found by its SHA-256, not revoked, not expired.
 *
 * @example const record = await verifyAgentToken('cairn_at_…', deps)
 */
export async function verifyAgentToken(token: string, deps: CoreDeps): Promise<Either<DomainError, AgentTokenRecord>> {
  const doc = await agentTokens.get(deps.store, secretKey(token))
  if (!doc) return E.left(unauthenticated(NOT_VALID))
  const record = doc.value
  if (record.revokedAtMs !== null) return E.left(unauthenticated(REVOKED))
  if (record.expiresAtMs <= deps.clock.now()) return E.left(unauthenticated(EXPIRED))
  return E.right(record)
}
