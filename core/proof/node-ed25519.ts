/**
 * Ed25519 checks on Node: node:crypto (OpenSSL, RFC 8032), native where @noble's pure JavaScript
 * takes about a millisecond per signature. Public keys are imported once and reused: a verifier
 * sees the same few service keys over and over.
 */
import { Buffer } from 'node:buffer'
import { createPublicKey, verify, type KeyObject } from 'node:crypto'
import type { Ed25519Verify } from '../tlog/signed-note.js'

const MAX_KEYS = 64
const keys = new Map<string, KeyObject>()

function publicKeyOf(raw: Uint8Array): KeyObject {
  // The key's exact bytes name its entry (Buffer's native encoder: this runs for every signature checked).
  const x = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64url')
  let key = keys.get(x)
  if (!key) {
    if (keys.size >= MAX_KEYS) keys.clear()
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' })
    keys.set(x, key)
  }
  return key
}

export const nodeEd25519Verify: Ed25519Verify = (signature, message, publicKey) => {
  try {
    return verify(null, message, publicKeyOf(publicKey), signature)
  } catch {
    return false
  }
}
