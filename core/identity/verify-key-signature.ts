/**
 * JWS-form signatures (RFC 7515/7518): 64 bytes for Ed25519 (RFC 8037) and raw r‖s for ES256
 * (RFC 7518 §3.4), never DER — the form WebCrypto produces, so browser SDKs need no conversion.
 */
import { verify } from 'node:crypto'
import type { IdProofPublicKey } from './public-key.js'

/** Both algorithms' signatures are 64 bytes. */
export const ID_PROOF_SIGNATURE_BYTES = 64

/**
 * True only when `signature` is `key`'s valid signature over exactly `message`.
 *
 * @example verifyKeySignature(key, idProofMessageBytes(fields, audience), signature)
 */
export function verifyKeySignature(key: IdProofPublicKey, message: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== ID_PROOF_SIGNATURE_BYTES) return false
  try {
    return key.alg === 'EdDSA'
      ? verify(null, message, key.keyObject, signature)
      : verify('sha256', message, { key: key.keyObject, dsaEncoding: 'ieee-p1363' }, signature)
  } catch {
    return false
  }
}
