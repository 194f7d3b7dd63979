/**
 * Everything about an ID proof that needs no stored state: encodings, the key, that `keyId` is
 * the key's thumbprint, the time window and the signature. What remains (has the challenge been
 * used, who owns the username and the key) is decided against the Store in the same commit.
 *
 * Refusals: malformed members are 400 (fix the request); a stale time or a signature that does not
 * verify is 401 (the proof does not authenticate anyone; sign again with a fresh challenge).
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { toBase64Url, fromBase64Url } from '../encoding/base64url.js'
import { invalidInput, unauthenticated, type DomainError } from '../errors/domain-error.js'
import { sha256Hex } from '../digest/sha256.js'
import { idProofMessageBytes, type IdContinueRequest } from './id-proof-message.js'
import { checkProfileFields } from './profile-fields.js'
import { jwkThumbprint, publicKeyFromRaw, type IdProofAlg } from './public-key.js'
import { normaliseUsername } from './username.js'
import { ID_PROOF_SIGNATURE_BYTES, verifyKeySignature } from './verify-key-signature.js'

/** How old `createdAt` may be by the server clock. */
export const ID_PROOF_MAX_SKEW_MS = 10 * 60 * 1000
/** How far ahead of the server clock `createdAt` may be: ordinary drift only, so a proof signed
 * "in the future" is not valid for longer than one signed now. */
export const ID_PROOF_MAX_FUTURE_SKEW_MS = 60 * 1000
/** A challenge carries at least 128 random bits. */
export const ID_PROOF_CHALLENGE_MIN_BYTES = 16
export const ID_PROOF_CHALLENGE_MAX_BYTES = 512

/** A proof whose signature verified, with the values the service will store. */
export interface VerifiedIdProof {
  readonly keyId: string
  readonly alg: IdProofAlg
  readonly publicKeyRawB64u: string
  /** Lowercase. */
  readonly username: string
  readonly displayName: string
  readonly email: string | null
  readonly localUid: string
  /** SHA-256 (hex) of the challenge bytes: the key of its replay record. */
  readonly challengeSha256: string
}

export interface IdProofContext {
  /** Server time, ms. */
  readonly now: number
  /** The deployment's base URL, the message's `audience`. */
  readonly audience: string
}

/**
 * @example verifyIdProof(request, { now: clock.now(), audience: config.baseUrl }) // right({ keyId, username, … })
 */
export function verifyIdProof(request: IdContinueRequest, context: IdProofContext): Either<DomainError, VerifiedIdProof> {
  return pipe(
    E.Do,
    E.bind('publicKeyRaw', () => exactBase64Url(request.publicKeyRawB64u, 'publicKeyRawB64u')),
    E.bind('challenge', () => exactBase64Url(request.challengeB64Url, 'challengeB64Url')),
    E.bind('signature', () => exactBase64Url(request.signatureB64Url, 'signatureB64Url')),
    E.chainFirst(({ challenge }) =>
      challenge.length >= ID_PROOF_CHALLENGE_MIN_BYTES && challenge.length <= ID_PROOF_CHALLENGE_MAX_BYTES
        ? E.right(challenge)
        : E.left(invalidInput(`challengeB64Url must encode ${ID_PROOF_CHALLENGE_MIN_BYTES} to ${ID_PROOF_CHALLENGE_MAX_BYTES} random bytes`)),
    ),
    E.chainFirst(({ signature }) =>
      signature.length === ID_PROOF_SIGNATURE_BYTES ? E.right(signature) : E.left(invalidInput(`signatureB64Url must encode the ${ID_PROOF_SIGNATURE_BYTES}-byte JWS signature`)),
    ),
    E.bind('key', ({ publicKeyRaw }) => publicKeyFromRaw(request.alg, publicKeyRaw)),
    E.chainFirst(({ key }) =>
      jwkThumbprint(key.jwk) === request.keyId ? E.right(key) : E.left(invalidInput('keyId must be the RFC 7638 JWK thumbprint (SHA-256, base64url) of the public key')),
    ),
    E.bind('username', () => normaliseUsername(request.username)),
    E.bind('profile', () => checkProfileFields({ displayName: request.displayName, email: request.email ?? null, localUid: request.localUid })),
    E.chainFirst(() => checkFreshness(request.createdAt, context.now)),
    E.bind('message', () => signedMessage(request, context.audience)),
    E.chainFirst(({ key, signature, message }) =>
      verifyKeySignature(key, message, signature)
        ? E.right(signature)
        : E.left(unauthenticated('The ID proof signature does not verify with the given key')),
    ),
    E.map(({ key, challenge, username, profile }) => ({
      keyId: request.keyId,
      alg: key.alg,
      publicKeyRawB64u: request.publicKeyRawB64u,
      username,
      displayName: profile.displayName,
      email: profile.email,
      localUid: profile.localUid,
      challengeSha256: sha256Hex(challenge),
    })),
  )
}

/** The canonical bytes; a member RFC 8785 cannot serialise (a lone surrogate) is the client's mistake: 400. */
function signedMessage(request: IdContinueRequest, audience: string): Either<DomainError, Uint8Array> {
  try {
    return E.right(idProofMessageBytes(request, audience))
  } catch {
    return E.left(invalidInput('The request members cannot be serialised as RFC 8785 canonical JSON (a lone UTF-16 surrogate?)'))
  }
}

/**
 * Strict unpadded base64url in its one canonical spelling: two spellings of the same bytes (unused
 * trailing bits set) would otherwise be two "different" challenges or keys.
 */
function exactBase64Url(text: string, field: string): Either<DomainError, Uint8Array> {
  const bytes = fromBase64Url(text)
  return bytes !== undefined && toBase64Url(bytes) === text ? E.right(bytes) : E.left(invalidInput(`${field} must be unpadded base64url`))
}

function checkFreshness(createdAt: string, now: number): Either<DomainError, number> {
  const at = Date.parse(createdAt)
  if (Number.isNaN(at)) return E.left(invalidInput('createdAt must be an ISO 8601 time'))
  return now - at <= ID_PROOF_MAX_SKEW_MS && at - now <= ID_PROOF_MAX_FUTURE_SKEW_MS
    ? E.right(at)
    : E.left(unauthenticated('The ID proof is stale: createdAt must be within the last 10 minutes (and at most 1 minute ahead) of the server time'))
}
