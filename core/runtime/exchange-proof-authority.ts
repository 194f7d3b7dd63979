/**
 * `POST /api/sdk/v1/identity/proof-authority/exchange` (ProofConsent): a sealed identity proof
 * object plus a fresh challenge its owner's ID key signed — carrying the exact consent statement
 * and scopes — buys a short-lived, non-refreshable access token for exactly the scopes asked, which
 * must lie within the consent. The token is an RFC 9068 JWT of its own grant, so the bearer
 * boundary honours it like any other; the grant and the used nonce are one commit, and every
 * refusal writes nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Principal } from '../auth/principal.js'
import type { OAuthClientConfig } from '../config/deployment-config.js'
import { RUNTIME_AUTHORITY } from '../contract/schemas/runtime/authority.js'
import { sha256Hex, sha256OfJson } from '../digest/sha256.js'
import { fromBase64Url } from '../encoding/base64url.js'
import { conflict, forbidden, invalidInput, unauthenticated, unprocessable, type DomainError } from '../errors/domain-error.js'
import { quoteInput } from '../errors/quote-input.js'
import { isBusinessTier } from '../identity/identities.js'
import { commitWithActions } from '../ledger/action-ledger.js'
import { issueAccessToken } from '../oidc/access-token.js'
import { findClient, isConfidential } from '../oidc/clients.js'
import { grants } from '../oidc/collections.js'
import type { GrantRecord } from '../oidc/records.js'
import { refusedScopes, unknownScopes } from '../oidc/scopes.js'
import { newId } from '../oidc/secrets.js'
import { json, type UseCaseFor } from '../usecases/use-case.js'
import { CHALLENGE_USED, claimNonceWrite, verifyProofConsent } from './proof-consent.js'

/** Lifetime of an exchanged token: five minutes, never refreshed (docs/runtime.md). */
export const PROOF_AUTHORITY_TOKEN_SECONDS = 5 * 60

const APPLICATION_ID = /^[a-z0-9](?:[a-z0-9._-]{0,126}[a-z0-9])?$/

/**
 * The exchange binds to the application by the one thing only it holds: its client secret (HTTP
 * Basic). A public client holds none — anyone could send its `client_id` — so it is refused here and
 * gets tokens only through its own authorization-code + PKCE flow, which its registered redirect
 * URI binds to it (docs/runtime.md, "Who is the application").
 */
function checkCallingApplication(principal: Principal, applicationId: string, client: OAuthClientConfig): Either<DomainError, void> {
  if (principal.kind !== 'client') {
    return E.left(unauthenticated('The exchange is called by the application itself: authenticate as its OAuth client (HTTP Basic, client_secret_basic)'))
  }
  if (principal.clientId !== applicationId) return E.left(forbidden('applicationId must be the client that authenticated'))
  if (!isConfidential(client)) {
    return E.left(forbidden(`${quoteInput(applicationId)} is a public client, which holds no secret to prove it is the application; it gets tokens through its own authorization-code + PKCE flow`))
  }
  return E.right(undefined)
}

/** @example await exchangeProofAuthority({ body: { artifact, challenge, applicationId: 'com.example.notes', scopes: ['cairn:runtime.read'] }, … }, deps) */
export const exchangeProofAuthority: UseCaseFor<'exchangeProofAuthority'> = async (request, deps) => {
  const body = request.body
  const { applicationId } = body
  if (!APPLICATION_ID.test(applicationId)) return E.left(invalidInput('applicationId must be a runtime application id (lowercase slug or reverse-DNS)'))
  const client = findClient(deps, applicationId)
  if (!client) return E.left(forbidden(`${quoteInput(applicationId)} is not an application registered with this deployment`))
  const bound = checkCallingApplication(request.principal, applicationId, client)
  if (E.isLeft(bound)) return bound
  if (body.audience !== undefined && body.audience !== applicationId) return E.left(forbidden('audience must be the application the token is for'))
  const scopes = [...new Set(body.scopes)]
  if (scopes.length === 0) return E.left(invalidInput('scopes must name at least one scope'))
  const unknown = unknownScopes(scopes)
  if (unknown.length > 0) return E.left(invalidInput(`scopes names scopes Cairn does not know: ${unknown.map((scope) => quoteInput(scope)).join(', ')}`))
  if (scopes.some((scope) => !body.challenge.consent.scopes.includes(scope))) return E.left(forbidden('scopes must lie within the scopes the person consented to (challenge.consent.scopes)'))

  const bytes = fromBase64Url(body.artifact.exactBytesB64u)
  if (!bytes || sha256Hex(bytes) !== body.artifact.artifactSha256) return E.left(invalidInput('artifact.artifactSha256 must be the SHA-256 of artifact.exactBytesB64u'))
  const consent = await verifyProofConsent(deps, { artifactBytes: bytes, challenge: body.challenge, audience: applicationId })
  if (E.isLeft(consent)) return consent
  if (consent.right.payloadSha256 !== body.artifact.payloadSha256) return E.left(unprocessable('artifact.payloadSha256 is not the SHA-256 of the payload the proof covers'))
  const refused = refusedScopes(scopes, client, { businessTier: isBusinessTier(deps, consent.right.ownerUsername) })
  if (refused.length > 0) return E.left(forbidden(`This application or identity may not hold ${refused.join(', ')}`))

  const now = deps.clock.now()
  const grant: GrantRecord = {
    grantId: newId(deps, 'grt_'),
    userId: consent.right.ownerUserId,
    clientId: applicationId,
    scopes,
    createdAtMs: now,
    revokedAtMs: null,
    revokedReason: null,
    revokedAccessTokens: {},
    expiresAtMs: now + PROOF_AUTHORITY_TOKEN_SECONDS * 1000,
  }
  // Signed before the commit: a signing failure then writes nothing, and a committed grant always has its token.
  // Sender-constrained when the application sent a DPoP proof with its client authentication (RFC 9449).
  const dpopJkt = request.principal.kind === 'client' ? request.principal.dpopJkt : undefined
  const issued = await issueAccessToken(deps, { userId: grant.userId, clientId: applicationId, scopes, grantId: grant.grantId, lifetimeSeconds: PROOF_AUTHORITY_TOKEN_SECONDS, dpopJkt })
  const outcome = await commitWithActions(
    deps,
    [
      claimNonceWrite(consent.right, { applicationId, operation: 'exchangeProofAuthority', nowMs: now }),
      grants.put(grant.grantId, grant, { kind: 'absent' }),
    ],
    [{ kind: 'auth', action: 'proof_authority_exchanged', actorUserId: grant.userId }],
  )
  if (!outcome.ok) {
    if (outcome.conflict.writeIndex === 0) return E.left(unauthenticated(CHALLENGE_USED))
    return E.left(conflict('The exchange could not be recorded at this moment; sign a fresh challenge and try again'))
  }
  const authorityDigest = sha256OfJson({
    schema: 'cairn.v124.proof_authority_grant',
    applicationId,
    audience: applicationId,
    artifactSha256: consent.right.artifactSha256,
    identityKeyId: consent.right.identityKeyId,
    consentStatementSha256: sha256Hex(consent.right.statement),
    grantedScopes: scopes,
    tokenId: issued.claims.jti,
    expiresAt: issued.claims.exp,
  })
  return E.right(json({
    schema: 'cairn.proof_authority_exchange.v1' as const,
    applicationId,
    audience: applicationId,
    artifactDigest: consent.right.artifactSha256,
    grantedScopes: scopes,
    authorityDigest,
    accessToken: issued.token,
    tokenType: dpopJkt === undefined ? 'Bearer' as const : 'DPoP' as const,
    expiresIn: PROOF_AUTHORITY_TOKEN_SECONDS,
    refreshable: false as const,
    authority: RUNTIME_AUTHORITY,
  }, { 'cache-control': 'no-store' }))
}
