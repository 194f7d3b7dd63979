/**
 * libsodium's Ed25519 through `sodium-native`, an optional dependency that ships prebuilt binaries
 * for the common platforms (nothing is compiled at install). On the same machine it checks a
 * signature in about half the time node:crypto (OpenSSL 3.0) takes and signs in about 60 % of it
 * (bench/README.md), and it is the stricter of the two: it refuses small-order keys and R values
 * and non-canonical encodings, which OpenSSL accepts. Undefined where it is not installed (or
 * cannot load there); callers then use node:crypto, whose verdicts on honestly made signatures are
 * the same (node-ed25519.ts refuses on that path the keys libsodium refuses).
 */
import { createRequire } from 'node:module'

/** The four functions Cairn calls, as sodium-native spells them (outputs are written into the first arguments). */
export interface Libsodium {
  crypto_sign_verify_detached(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean
  crypto_sign_detached(signature: Uint8Array, message: Uint8Array, secretKey: Uint8Array): void
  crypto_sign_seed_keypair(publicKey: Uint8Array, secretKey: Uint8Array, seed: Uint8Array): void
  /** Memory outside the JavaScript heap, guarded and locked against swapping, for secret keys. */
  sodium_malloc(size: number): Uint8Array
}

function load(): Libsodium | undefined {
  try {
    return createRequire(import.meta.url)('sodium-native') as Libsodium
  } catch {
    return undefined
  }
}

export const libsodium: Libsodium | undefined = load()
