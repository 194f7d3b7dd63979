/**
 * Digests and signature checks through WebCrypto (`globalThis.crypto.subtle`), present in Node 20
 * and every current browser, so the verifier is the same code on the server, the CLI and /verify.
 * Ed25519 falls back to @noble/curves where a browser's WebCrypto does not offer it yet.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import type { Ed25519Verify } from '../tlog/signed-note.js'
import { fromBase64Url, toBase64Url, toHex } from './bytes.js'

const subtle = () => globalThis.crypto.subtle

export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest('SHA-256', bytes as Uint8Array<ArrayBuffer>))
}

export async function sha256HexOf(bytes: Uint8Array): Promise<string> {
  return toHex(await sha256(bytes))
}

/** A public key as a JWK (RFC 7517): OKP Ed25519, EC P-256 or RSA. */
export type VerificationJwk = { readonly kty: string; readonly crv?: string; readonly x?: string; readonly y?: string; readonly n?: string; readonly e?: string }

/** RFC 7638 thumbprint, base64url: SHA-256 over the canonical JSON of the key's required members. */
export async function jwkThumbprintOf(jwk: VerificationJwk): Promise<string> {
  const members =
    jwk.kty === 'OKP' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x } : jwk.kty === 'RSA' ? { e: jwk.e, kty: jwk.kty, n: jwk.n } : { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
  return toBase64Url(await sha256(canonicalJsonBytes(members)))
}

/**
 * Whether `signature` (JWS form, base64url) by `jwk` under `alg` covers `data`. Never throws.
 * `ed25519`: a native synchronous check Node callers pass for EdDSA (no key import round trip);
 * its answer comes back synchronously too, so a verifier on Node awaits nothing per signature.
 */
export function verifySignature(alg: string, jwk: VerificationJwk, data: Uint8Array, signature: string, ed25519?: Ed25519Verify): boolean | Promise<boolean> {
  const sig = fromBase64Url(signature)
  if (!sig) return false
  try {
    if (alg === 'EdDSA' && jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return verifyEd25519(jwk, data, sig, ed25519)
    if (alg === 'ES256' && jwk.kty === 'EC' && jwk.crv === 'P-256') return verifyWith({ name: 'ECDSA', namedCurve: 'P-256' }, { name: 'ECDSA', hash: 'SHA-256' }, jwk, data, sig)
    if (alg === 'RS256' && jwk.kty === 'RSA') return verifyWith({ name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, { name: 'RSASSA-PKCS1-v1_5' }, jwk, data, sig)
    return false
  } catch {
    return false
  }
}

/** Rejects when WebCrypto refuses the key or the algorithm. */
async function webCryptoVerify(importAlg: object, verifyAlg: object, jwk: VerificationJwk, data: Uint8Array, sig: Uint8Array): Promise<boolean> {
  const key = await subtle().importKey('jwk', { ...jwk } as JsonWebKey, importAlg as EcKeyImportParams, false, ['verify'])
  return subtle().verify(verifyAlg as EcdsaParams, key, sig as Uint8Array<ArrayBuffer>, data as Uint8Array<ArrayBuffer>)
}

/** Never rejects: a key WebCrypto refuses, or a failing check, is a signature that does not verify. */
const verifyWith = (importAlg: object, verifyAlg: object, jwk: VerificationJwk, data: Uint8Array, sig: Uint8Array): Promise<boolean> =>
  webCryptoVerify(importAlg, verifyAlg, jwk, data, sig).catch(() => false)

function verifyEd25519(jwk: VerificationJwk, data: Uint8Array, sig: Uint8Array, native?: Ed25519Verify): boolean | Promise<boolean> {
  const raw = jwk.x === undefined ? undefined : fromBase64Url(jwk.x)
  if (!raw || raw.length !== 32 || sig.length !== 64) return false
  if (native) return native(sig, data, raw)
  return webCryptoEd25519(jwk, data, sig, raw)
}

/** WebCrypto's Ed25519, or @noble's where a browser's WebCrypto does not offer it yet. */
async function webCryptoEd25519(jwk: VerificationJwk, data: Uint8Array, sig: Uint8Array, raw: Uint8Array): Promise<boolean> {
  try {
    return await webCryptoVerify({ name: 'Ed25519' }, { name: 'Ed25519' }, jwk, data, sig)
  } catch {
    try {
      return ed25519.verify(sig, data, raw)
    } catch {
      return false
    }
  }
}
