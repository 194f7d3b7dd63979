/**
 * Ed25519 checks on Node, native where @noble's pure JavaScript takes about a millisecond per
 * signature: libsodium when `sodium-native` is installed (libsodium.ts), else node:crypto (OpenSSL,
 * RFC 8032). Both give the same verdicts on every signature a key's holder makes the usual way;
 * libsodium also refuses degenerate ones (a small-order R), and keys OpenSSL would accept but
 * libsodium refuses — small-order or non-canonical ones, under which a "signature" verifies for
 * every message — are refused on the OpenSSL path too. Keys are checked and imported once and
 * reused: a verifier sees the same few service keys over and over.
 */
import { Buffer } from 'node:buffer'
import { createPublicKey, verify, type KeyObject } from 'node:crypto'
import { isPrimeOrderPoint } from '../identity/public-key.js'
import type { Ed25519Verify } from '../tlog/signed-note.js'
import { libsodium } from './libsodium.js'

const MAX_KEYS = 64
/** Imported keys by their base64url bytes; `null`: a key refused (not a point of the prime-order subgroup). */
const keys = new Map<string, KeyObject | null>()

function publicKeyOf(raw: Uint8Array): KeyObject | null {
  // The key's exact bytes name its entry (Buffer's native encoder: this runs for every signature checked).
  const x = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64url')
  let key = keys.get(x)
  if (key === undefined) {
    if (keys.size >= MAX_KEYS) keys.clear()
    // The same strict check ID keys meet at registration (RFC 8032 §5.1.3 decoding, prime-order subgroup).
    key = isPrimeOrderPoint('EdDSA', raw) ? createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' }) : null
    keys.set(x, key)
  }
  return key
}

/** node:crypto's check, with the keys libsodium refuses refused. */
export const opensslEd25519Verify: Ed25519Verify = (signature, message, publicKey) => {
  try {
    const key = publicKey.length === 32 ? publicKeyOf(publicKey) : null
    return key !== null && verify(null, message, key, signature)
  } catch {
    return false
  }
}

/** libsodium's check; undefined where sodium-native is not installed. */
export const libsodiumEd25519Verify: Ed25519Verify | undefined = libsodium && ((signature, message, publicKey) => {
  try {
    return signature.length === 64 && publicKey.length === 32 && libsodium!.crypto_sign_verify_detached(signature, message, publicKey)
  } catch {
    return false
  }
})

/** The check a Node verifier uses: libsodium's where installed, node:crypto's otherwise. */
export const nodeEd25519Verify: Ed25519Verify = libsodiumEd25519Verify ?? opensslEd25519Verify
