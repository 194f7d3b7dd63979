/**
 * One signing key as a KeyStore holds it: the private half as a node:crypto KeyObject that never
 * leaves this module as a plain value, the public half as a JWK whose `kid` is its RFC 7638
 * thumbprint. A `KeyRecord` is the same key written down (private JWK and dates), as key storages
 * keep it. Ed25519 keys sign through libsodium where it is installed (core/proof/libsodium.ts):
 * the same signatures (RFC 8032 signing is deterministic) in about 60 % of OpenSSL's time.
 */
import { createPrivateKey, createPublicKey, generateKeyPair, sign, type JsonWebKey, type KeyObject } from 'node:crypto'
import { promisify } from 'node:util'
import { calculateJwkThumbprint } from 'jose'
import { libsodium } from '../../core/proof/libsodium.js'
import type { KeyPurpose, PublicJwk, SigningAlgorithm, SigningKey } from '../../ports/key-store.js'

/** A key as a key storage keeps it. `retiredAt` is set once another key of its alg and purpose replaced it. */
export interface KeyRecord {
  readonly kid: string
  readonly alg: SigningAlgorithm
  readonly purpose: KeyPurpose
  /** Milliseconds since the Unix epoch. */
  readonly createdAt: number
  readonly retiredAt?: number
  /** The private JWK (RFC 7517/7518 members, `d` included). */
  readonly privateJwk: JsonWebKey
}

/** A key of a key ring, private half as a KeyObject; retired keys stay published while their window lasts. */
export interface HeldKey {
  readonly kid: string
  readonly alg: SigningAlgorithm
  readonly purpose: KeyPurpose
  readonly publicJwk: PublicJwk
  readonly privateKey: KeyObject
  /** The JWS signature (RFC 7515/7518 form) of `data` by this key. */
  readonly sign: (data: Uint8Array) => Uint8Array
}

/** RSA keys shorter than this are refused (RFC 7518 §3.3: 2048 bits or larger). */
export const MIN_RSA_MODULUS_BITS = 2048

const generate = promisify(generateKeyPair)

/** A fresh private key: Ed25519 for EdDSA, P-256 for ES256, RSA-2048 (e = 65537) for RS256. */
export async function generatePrivateKey(alg: SigningAlgorithm): Promise<KeyObject> {
  if (alg === 'EdDSA') return (await generate('ed25519')).privateKey
  if (alg === 'ES256') return (await generate('ec', { namedCurve: 'P-256' })).privateKey
  return (await generate('rsa', { modulusLength: MIN_RSA_MODULUS_BITS, publicExponent: 0x10001 })).privateKey
}

/** A fresh key written down as a record, created at `now`. */
export async function generateKeyRecord(alg: SigningAlgorithm, purpose: KeyPurpose, now: number): Promise<KeyRecord> {
  const privateKey = await generatePrivateKey(alg)
  const { kid } = await heldKeyOf(privateKey, alg, purpose)
  return { kid, alg, purpose, createdAt: now, privateJwk: privateKey.export({ format: 'jwk' }) }
}

/** The held key of a private KeyObject (its public JWK and thumbprint derived here). */
export async function heldKeyOf(privateKey: KeyObject, alg: SigningAlgorithm, purpose: KeyPurpose): Promise<HeldKey> {
  const exported = createPublicKey(privateKey).export({ format: 'jwk' })
  const members = publicMembers(exported, alg)
  const kid = await calculateJwkThumbprint(members, 'sha256')
  const publicJwk: PublicJwk = Object.freeze({ ...members, kid, alg, use: 'sig' as const })
  return Object.freeze({ kid, alg, purpose, publicJwk, privateKey, sign: jwsSignerOf(alg, privateKey) })
}

/** The held key of a record; refuses a record whose kid is not its key's thumbprint. */
export async function heldKeyFromRecord(record: KeyRecord): Promise<HeldKey> {
  const held = await heldKeyOf(createPrivateKey({ key: record.privateJwk, format: 'jwk' }), record.alg, record.purpose)
  if (held.kid !== record.kid) throw new TypeError(`key ${record.kid} is not the key its JWK holds (${held.kid})`)
  return held
}

/** The public JWK members RFC 7638 thumbprints (kty and the key's own members), checked against `alg`. */
function publicMembers(exported: JsonWebKey, alg: SigningAlgorithm): { kty: string; crv?: string; x?: string; y?: string; n?: string; e?: string } {
  if (alg === 'RS256') {
    if (exported.kty !== 'RSA') throw new TypeError(`A ${exported.kty} key cannot sign RS256`)
    const bits = Buffer.from(exported.n!, 'base64url').byteLength * 8
    if (bits < MIN_RSA_MODULUS_BITS) throw new TypeError(`An RSA key of ${bits} bits is too short for RS256`)
    return { kty: 'RSA', n: exported.n!, e: exported.e! }
  }
  const members = { kty: exported.kty!, crv: exported.crv!, x: exported.x!, ...(exported.y === undefined ? {} : { y: exported.y }) }
  if (alg === 'EdDSA' ? members.crv !== 'Ed25519' : members.crv !== 'P-256') throw new TypeError(`A ${members.crv} key cannot sign ${alg}`)
  return members
}

/**
 * The port's view of a held key: the private KeyObject is closed over, not a property, so neither
 * JSON.stringify nor property enumeration reaches it.
 */
export function toSigningKey(key: HeldKey): SigningKey {
  const signed = key.sign
  return Object.freeze({
    kid: key.kid,
    alg: key.alg,
    purpose: key.purpose,
    publicJwk: key.publicJwk,
    sign: async (data: Uint8Array) => signed(data),
  })
}

/**
 * What `privateKey` signs with, in JWS form (RFC 7515/7518): Ed25519 signs the message itself (through
 * libsodium where installed); ES256 is raw r||s, not DER; RS256 is PKCS#1 v1.5.
 */
export function jwsSignerOf(alg: SigningAlgorithm, privateKey: KeyObject): (data: Uint8Array) => Uint8Array {
  if (alg === 'EdDSA') return (libsodium && libsodiumSigner(privateKey)) ?? ((data) => new Uint8Array(sign(null, data, privateKey)))
  if (alg === 'ES256') return (data) => new Uint8Array(sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' }))
  return (data) => new Uint8Array(sign('sha256', data, privateKey))
}

/** libsodium's signer of an Ed25519 KeyObject: its secret (seed ‖ public key) kept in libsodium's guarded memory, off the JavaScript heap. */
function libsodiumSigner(privateKey: KeyObject): (data: Uint8Array) => Uint8Array {
  const sodium = libsodium!
  const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url')
  const secret = sodium.sodium_malloc(64)
  sodium.crypto_sign_seed_keypair(new Uint8Array(32), secret, seed)
  seed.fill(0)
  return (data) => {
    const signature = new Uint8Array(64)
    sodium.crypto_sign_detached(signature, data, secret)
    return signature
  }
}
