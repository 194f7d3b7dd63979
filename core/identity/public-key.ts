/**
 * The public keys an ID proof may use, from their raw wire form: Ed25519 (`EdDSA`, 32 bytes) and
 * P-256 (`ES256`, the 65-byte uncompressed point 0x04‖X‖Y). Both become a public JWK, which names
 * the key (RFC 7638 thumbprint) and verifies its signatures.
 */
import { createPublicKey, type KeyObject } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import { p256 } from '@noble/curves/nist.js'
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { canonicalJson } from '../digest/canonical-json.js'
import { sha256Base64Url } from './sha256-base64url.js'
import { toBase64Url } from '../encoding/base64url.js'
import { invalidInput, type DomainError } from '../errors/domain-error.js'

export type IdProofAlg = 'EdDSA' | 'ES256'

/** The members RFC 7638 §3.2 hashes, in the JWK's own names. */
export type PublicKeyJwk =
  | { readonly kty: 'OKP'; readonly crv: 'Ed25519'; readonly x: string }
  | { readonly kty: 'EC'; readonly crv: 'P-256'; readonly x: string; readonly y: string }

export interface IdProofPublicKey {
  readonly alg: IdProofAlg
  readonly jwk: PublicKeyJwk
  readonly keyObject: KeyObject
}

/**
 * A usable public key from raw bytes; refuses a wrong length, a point that is not on the curve,
 * and (Ed25519) a non-canonical encoding or a point outside the prime-order subgroup: a
 * small-order key has signatures that verify for every message (docs/decisions.md).
 *
 * @example publicKeyFromRaw('EdDSA', new Uint8Array(32).fill(7))
 */
export function publicKeyFromRaw(alg: IdProofAlg, raw: Uint8Array): Either<DomainError, IdProofPublicKey> {
  const jwk = jwkFromRaw(alg, raw)
  if (jwk === undefined) {
    return E.left(invalidInput(alg === 'EdDSA'
      ? 'publicKeyRawB64u must be a 32-byte Ed25519 public key for EdDSA'
      : 'publicKeyRawB64u must be a 65-byte uncompressed P-256 point (0x04, X, Y) for ES256'))
  }
  const refused = invalidInput(`publicKeyRawB64u is not a valid ${alg === 'EdDSA' ? 'Ed25519' : 'P-256'} public key`)
  if (!isPrimeOrderPoint(alg, raw)) return E.left(refused)
  try {
    return E.right({ alg, jwk, keyObject: createPublicKey({ key: { ...jwk }, format: 'jwk' }) })
  } catch {
    return E.left(refused)
  }
}

/**
 * True for a canonically encoded point of the curve's prime-order subgroup, other than the
 * identity. Ed25519 (RFC 8032 §5.1.3 decoding, strict): refuses y ≥ p, x = 0 with the sign bit,
 * the 8 small-order points and mixed-order points. P-256 (SEC 1 §3.2.2.1): the point lies on the
 * curve with coordinates below p; the group has cofactor 1, so that is the whole check.
 */
export function isPrimeOrderPoint(alg: IdProofAlg, raw: Uint8Array): boolean {
  try {
    if (alg === 'EdDSA') {
      const point = ed25519.Point.fromBytes(raw, false)
      return !point.isSmallOrder() && point.isTorsionFree()
    }
    const point = p256.Point.fromBytes(raw)
    point.assertValidity()
    return !point.is0()
  } catch {
    return false
  }
}

function jwkFromRaw(alg: IdProofAlg, raw: Uint8Array): PublicKeyJwk | undefined {
  if (alg === 'EdDSA') return raw.length === 32 ? { kty: 'OKP', crv: 'Ed25519', x: toBase64Url(raw) } : undefined
  if (raw.length !== 65 || raw[0] !== 0x04) return undefined
  return { kty: 'EC', crv: 'P-256', x: toBase64Url(raw.subarray(1, 33)), y: toBase64Url(raw.subarray(33)) }
}

/**
 * RFC 7638 JWK thumbprint (SHA-256, base64url): the only keyId an ID proof may claim for a key,
 * so a keyId can never be claimed for another key. The required members in lexicographic order
 * without whitespace are exactly their RFC 8785 canonical JSON.
 *
 * @example jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' })
 * // 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k' (RFC 8037 Appendix A.3)
 */
export function jwkThumbprint(jwk: PublicKeyJwk): string {
  const members = jwk.kty === 'OKP' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x } : { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
  return sha256Base64Url(canonicalJson(members))
}
