/**
 * The client side of an ID proof, for Node SDKs and tests: build and sign a CairnIdContinueRequest
 * exactly as docs/identity.md describes, with a key from `node:crypto` (Ed25519 or P-256).
 */
import { createPublicKey, sign, type KeyObject } from 'node:crypto'
import { fromBase64Url, toBase64Url } from '../encoding/base64url.js'
import { idProofMessageBytes, type IdContinueRequest, type IdProofFields } from './id-proof-message.js'
import { jwkThumbprint, type IdProofAlg, type PublicKeyJwk } from './public-key.js'

/** What a person chooses; the key material, challenge and time are supplied separately. */
export interface IdProofDraft {
  readonly username: string
  readonly displayName: string
  readonly localUid: string
  readonly email?: string
  readonly origin?: 'sdk-created' | 'artifact-restored'
  readonly artifactSha256?: string
}

export interface IdProofSigning {
  /** An Ed25519 or P-256 private key. */
  readonly privateKey: KeyObject
  /** At least 16 fresh random bytes. */
  readonly challenge: Uint8Array
  /** ISO 8601, the client's now. */
  readonly createdAt: string
  /** The service's base URL. */
  readonly audience: string
}

/**
 * The raw public key and its algorithm: 32 bytes for Ed25519, the 65-byte uncompressed point for P-256.
 *
 * @example rawPublicKeyOf(generateKeyPairSync('ed25519').privateKey) // { alg: 'EdDSA', raw: Uint8Array(32) }
 */
export function rawPublicKeyOf(key: KeyObject): { readonly alg: IdProofAlg; readonly raw: Uint8Array; readonly jwk: PublicKeyJwk } {
  const jwk = createPublicKey(key).export({ format: 'jwk' })
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && jwk.x) return { alg: 'EdDSA', raw: fromBase64Url(jwk.x)!, jwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x } }
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && jwk.x && jwk.y) {
    const raw = new Uint8Array(65)
    raw[0] = 0x04
    raw.set(fromBase64Url(jwk.x)!, 1)
    raw.set(fromBase64Url(jwk.y)!, 33)
    return { alg: 'ES256', raw, jwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } }
  }
  throw new TypeError('ID proofs use Ed25519 or P-256 keys')
}

/**
 * A complete, signed request body for `POST /api/auth/cairn-id/continue`.
 *
 * @example
 * const { privateKey } = generateKeyPairSync('ed25519')
 * const body = signIdContinueRequest({ username: 'ada', displayName: 'Ada', localUid: 'device-1' },
 *   { privateKey, challenge: randomBytes(32), createdAt: new Date().toISOString(), audience: 'https://cairn.example' })
 */
export function signIdContinueRequest(draft: IdProofDraft, signing: IdProofSigning): IdContinueRequest {
  const { alg, raw, jwk } = rawPublicKeyOf(signing.privateKey)
  const fields: IdProofFields = {
    keyId: jwkThumbprint(jwk),
    alg,
    publicKeyRawB64u: toBase64Url(raw),
    localUid: draft.localUid,
    username: draft.username,
    displayName: draft.displayName,
    createdAt: signing.createdAt,
    challengeB64Url: toBase64Url(signing.challenge),
    ...(draft.email !== undefined ? { email: draft.email } : {}),
    ...(draft.origin !== undefined ? { origin: draft.origin } : {}),
    ...(draft.artifactSha256 !== undefined ? { artifactSha256: draft.artifactSha256 } : {}),
  }
  return { ...fields, signatureB64Url: toBase64Url(signIdProofMessage(alg, signing.privateKey, idProofMessageBytes(fields, signing.audience))) }
}

/** A JWS-form signature: Ed25519 (64 bytes) or ES256 raw r‖s (64 bytes, never DER). */
export function signIdProofMessage(alg: IdProofAlg, privateKey: KeyObject, message: Uint8Array): Uint8Array {
  return new Uint8Array(alg === 'EdDSA' ? sign(null, message, privateKey) : sign('sha256', message, { key: privateKey, dsaEncoding: 'ieee-p1363' }))
}
