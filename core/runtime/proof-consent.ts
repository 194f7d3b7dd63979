/**
 * ProofConsent: what the runtime accepts as a person's in-application consent. An identity proof
 * object (exact sealed bytes this deployment verifies, a proof object naming its owner) plus a
 * fresh challenge — audience, one-use nonce, Kai window, the consent statement and scopes — signed
 * by one of the owner's bound ID keys over the RFC 8785 bytes of the challenge without `proof`.
 * Verified here without writing; the caller claims the nonce (`claimNonceWrite`) in the same
 * commit as whatever the consent buys, so a replayed challenge writes nothing even when two race.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { sha256Hex } from '../digest/sha256.js'
import { fromBase64Url, toBase64Url } from '../encoding/base64url.js'
import { forbidden, invalidInput, unauthenticated, unprocessable, type DomainError } from '../errors/domain-error.js'
import { getIdentity } from '../identity/identities.js'
import { publicKeyFromRaw } from '../identity/public-key.js'
import { verifyKeySignature } from '../identity/verify-key-signature.js'
import { nodeSha256Parts } from '../proof/node-digest.js'
import { serviceTrust } from '../proof/service-trust.js'
import { verifyArtifact } from '../proof/verify.js'
import { epochMsAtMicroPulse, kaiMomentAt } from '../time/kai.js'
import type { Write } from '../../ports/store.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { usedChallenges } from './used-challenge-record.js'
import { challengeSigningBytes, type ProofAuthorityChallenge } from './challenge-signing.js'

export { challengeSigningBytes, type ProofAuthorityChallenge }

/** The longest window a challenge may state (issued to expiry), and how far ahead of the clock it may be issued. */
export const CHALLENGE_MAX_WINDOW_MS = 10 * 60 * 1000
export const CHALLENGE_CLOCK_SKEW_MS = 30 * 1000

/** A sealed identity proof object that verified: whose it is and which exact bytes. */
export interface VerifiedIdentityArtifact {
  readonly ownerUserId: string
  /** SHA-256 of the exact sealed bytes. */
  readonly artifactSha256: string
  /** SHA-256 of the payload the proof covers. */
  readonly payloadSha256: string
  /** The payload's media type, as the proof states it. */
  readonly mediaType: string
}

/** What a verified consent establishes. */
export interface VerifiedConsent extends VerifiedIdentityArtifact {
  readonly ownerUsername: string
  readonly identityKeyId: string
  readonly nonce: string
  readonly statement: string
  readonly scopes: readonly string[]
  readonly audience: string
  /** When the challenge stops being acceptable (epoch ms); its nonce is remembered until then. */
  readonly challengeExpiresAtMs: number
}

/**
 * Verifies sealed bytes as a proof object this deployment issued, naming an owner (`what` names the
 * artifact in refusals). An integrity-only seal names nobody and is refused.
 *
 * @example await verifyOwnedArtifact(deps, bytes, 'The identity artifact')
 */
export async function verifyOwnedArtifact(deps: CoreDeps, bytes: Uint8Array, what: string): Promise<Either<DomainError, VerifiedIdentityArtifact>> {
  if (bytes.length === 0) return E.left(invalidInput(`${what} must be the exact sealed bytes as unpadded base64url`))
  const verdict = await verifyArtifact(bytes, await serviceTrust(deps), { digest: nodeSha256Parts })
  if (!verdict.ok) return E.left(unprocessable(`${what} is not a sealed proof object this deployment verifies: ${verdict.errors.join('; ')}`))
  const owner = verdict.details?.owner
  if (verdict.kind !== 'proof-object' || !owner) return E.left(unprocessable(`${what} is an integrity-only seal; a proof object naming its owner is required`))
  return E.right({ ownerUserId: owner.userId, artifactSha256: sha256Hex(bytes), payloadSha256: verdict.sha256!, mediaType: verdict.details?.mediaType ?? 'application/octet-stream' })
}

/**
 * Everything about a challenge that needs no stored state but the clock: the audience it names,
 * its window, and that `challengeB64Url` carries exactly the signed bytes.
 */
export function checkChallengeShape(challenge: ProofAuthorityChallenge, expectedAudience: string, nowMs: number): Either<DomainError, void> {
  if (challenge.audience !== expectedAudience) return E.left(forbidden('The challenge was signed for another audience'))
  if (challenge.expiresAtKai <= challenge.issuedAtKai) return E.left(invalidInput('challenge.expiresAtKai must be after challenge.issuedAtKai'))
  if (challenge.issuedAtKai > kaiMomentAt(nowMs + CHALLENGE_CLOCK_SKEW_MS).uPulse) return E.left(unauthenticated('The challenge is issued in the future'))
  if (challenge.expiresAtKai <= kaiMomentAt(nowMs).uPulse) return E.left(unauthenticated('The challenge has expired; sign a fresh one'))
  if (challenge.expiresAtKai > kaiMomentAt(nowMs + CHALLENGE_MAX_WINDOW_MS).uPulse) {
    return E.left(invalidInput(`challenge.expiresAtKai must be at most ${CHALLENGE_MAX_WINDOW_MS / 60000} minutes ahead`))
  }
  if (challenge.proof.challengeB64Url !== toBase64Url(challengeSigningBytes(challenge))) {
    return E.left(invalidInput('challenge.proof.challengeB64Url must be the RFC 8785 bytes of the challenge without proof, as unpadded base64url'))
  }
  return E.right(undefined)
}

/**
 * The whole consent: challenge shape and window, the identity artifact, the signature by a key
 * bound to the artifact's owner, and the nonce not used before.
 *
 * @example await verifyProofConsent(deps, { artifactBytes, challenge, audience: 'com.example.notes' })
 */
export async function verifyProofConsent(
  deps: CoreDeps,
  input: { readonly artifactBytes: Uint8Array; readonly challenge: ProofAuthorityChallenge; readonly audience: string; readonly artifactName?: string },
): Promise<Either<DomainError, VerifiedConsent>> {
  const { challenge } = input
  const now = deps.clock.now()
  const shape = checkChallengeShape(challenge, input.audience, now)
  if (E.isLeft(shape)) return shape
  const artifact = await verifyOwnedArtifact(deps, input.artifactBytes, input.artifactName ?? 'The identity artifact')
  if (E.isLeft(artifact)) return artifact
  const identity = await getIdentity(deps, artifact.right.ownerUserId)
  const key = identity?.record.keys.find((bound) => bound.keyId === challenge.proof.keyId)
  if (!key || key.alg !== challenge.proof.alg) return E.left(unauthenticated('The challenge is not signed by an ID key bound to the identity the artifact names'))
  const publicKey = publicKeyFromRaw(key.alg, fromBase64Url(key.publicKeyRawB64u) ?? new Uint8Array())
  const signature = fromBase64Url(challenge.proof.signatureB64Url)
  if (E.isLeft(publicKey) || !signature || !verifyKeySignature(publicKey.right, challengeSigningBytes(challenge), signature)) {
    return E.left(unauthenticated('The challenge signature does not verify with the identity\'s key'))
  }
  if (await deps.store.get(usedChallenges.name, nonceKey(challenge.nonce))) return E.left(unauthenticated(CHALLENGE_USED))
  return E.right({
    ...artifact.right,
    ownerUsername: identity!.record.username,
    identityKeyId: key.keyId,
    nonce: challenge.nonce,
    statement: challenge.consent.statement,
    scopes: [...new Set(challenge.consent.scopes)],
    audience: challenge.audience,
    challengeExpiresAtMs: epochMsAtMicroPulse(BigInt(challenge.expiresAtKai)),
  })
}

export const CHALLENGE_USED = 'The challenge was used already; sign a fresh one'

const nonceKey = (nonce: string): string => sha256Hex(`cairn.v124.challenge_nonce:${nonce}`)

/** The write that uses a challenge's nonce; a commit carrying it fails if the nonce was used. */
export function claimNonceWrite(consent: VerifiedConsent, use: { readonly applicationId: string; readonly operation: string; readonly nowMs: number }): Write {
  const value = { applicationId: use.applicationId, operation: use.operation, identityKeyId: consent.identityKeyId, usedAtMs: use.nowMs, expiresAtMs: consent.challengeExpiresAtMs }
  return usedChallenges.put(nonceKey(consent.nonce), value, { kind: 'absent' })
}
