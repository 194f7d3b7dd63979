/**
 * A KeyStore with fixed Ed25519 keys derived from seeds: golden vectors need signatures (and log
 * checkpoints) that are the same on every run. Ed25519 signing is deterministic (RFC 8032), so
 * the service's own signer (libsodium or node:crypto) signs with the seed's key exactly as @noble
 * would, at the speed the service's key stores sign (bench:proof seals with this store).
 */
import { createPrivateKey } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'
import type { KeyPurpose, KeyStore, PublicJwk, SigningAlgorithm, SigningKey } from '../../ports/key-store.js'
import { toBase64Url } from '../../core/proof/bytes.js'
import { jwsSignerOf } from '../../adapters/shared/held-key.js'

export function fixedEd25519Key(seed: string, purpose: KeyPurpose): SigningKey {
  const secret = sha256(new TextEncoder().encode(`cairn.golden.${seed}`))
  const x = toBase64Url(ed25519.getPublicKey(secret))
  const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x, d: toBase64Url(secret) }, format: 'jwk' })
  const publicJwk: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x, kid: `golden-${seed}`, alg: 'EdDSA', use: 'sig' }
  const signed = jwsSignerOf('EdDSA', privateKey)
  return { kid: publicJwk.kid, alg: 'EdDSA', purpose, publicJwk, sign: async (data) => signed(data) }
}

/** Every algorithm asks for the same fixed key of its purpose; nothing rotates. */
export class FixedKeyStore implements KeyStore {
  private readonly keys: Record<KeyPurpose, SigningKey>
  constructor(seeds: { readonly token: string; readonly proof: string } = { token: 'log-1', proof: 'proof-1' }) {
    this.keys = { token: fixedEd25519Key(seeds.token, 'token'), proof: fixedEd25519Key(seeds.proof, 'proof') }
  }
  async current(_alg: SigningAlgorithm, purpose: KeyPurpose = 'token'): Promise<SigningKey> {
    return this.keys[purpose]
  }
  async rotate(alg: SigningAlgorithm, purpose: KeyPurpose = 'token'): Promise<SigningKey> {
    return this.current(alg, purpose)
  }
  async jwks(purpose: KeyPurpose = 'token'): Promise<{ readonly keys: readonly PublicJwk[] }> {
    return { keys: [this.keys[purpose].publicJwk] }
  }
}
