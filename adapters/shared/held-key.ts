/**
 * One signing key as a KeyStore holds it: the private half as a node:crypto KeyObject that never
 * leaves this module as a plain value, the public half as a JWK whose `kid` is its RFC 7638
 * thumbprint.
 */
import { createPrivateKey, createPublicKey, generateKeyPair, sign, type JsonWebKey, type KeyObject } from 'node:crypto'
import { promisify } from 'node:util'
import { calculateJwkThumbprint } from 'jose'
import type { PublicJwk, SigningAlgorithm, SigningKey } from '../../ports/key-store.js'

/** A key of a key ring; `retired` keys stay published so what they signed stays verifiable. */
export interface HeldKey {
  readonly kid: string
  readonly alg: SigningAlgorithm
  readonly publicJwk: PublicJwk
  readonly privateKey: KeyObject
  readonly retired: boolean
}

const generate = promisify(generateKeyPair)

/** A fresh key: Ed25519 for EdDSA, P-256 for ES256. */
export async function generateHeldKey(alg: SigningAlgorithm): Promise<HeldKey> {
  const { privateKey } = alg === 'EdDSA' ? await generate('ed25519') : await generate('ec', { namedCurve: 'P-256' })
  return heldKeyOf(privateKey, alg, false)
}

/** The held key of a private KeyObject (its public JWK and thumbprint derived here). */
export async function heldKeyOf(privateKey: KeyObject, alg: SigningAlgorithm, retired: boolean): Promise<HeldKey> {
  const exported = createPublicKey(privateKey).export({ format: 'jwk' })
  const members = { kty: exported.kty!, crv: exported.crv!, x: exported.x!, ...(exported.y === undefined ? {} : { y: exported.y }) }
  if (alg === 'EdDSA' ? members.crv !== 'Ed25519' : members.crv !== 'P-256') throw new TypeError(`A ${members.crv} key cannot sign ${alg}`)
  const kid = await calculateJwkThumbprint(members, 'sha256')
  const publicJwk: PublicJwk = Object.freeze({ ...members, kid, alg, use: 'sig' as const })
  return Object.freeze({ kid, alg, publicJwk, privateKey, retired })
}

/** The held key of a private JWK (as FileKeyStore keeps it). */
export function heldKeyFromPrivateJwk(jwk: JsonWebKey, alg: SigningAlgorithm, retired: boolean): Promise<HeldKey> {
  return heldKeyOf(createPrivateKey({ key: jwk, format: 'jwk' }), alg, retired)
}

/** The private JWK of a held key: only for a key store that must write its keys down. */
export function privateJwkOf(key: HeldKey): JsonWebKey {
  return key.privateKey.export({ format: 'jwk' })
}

/**
 * The port's view of a held key: the private KeyObject is closed over, not a property, so neither
 * JSON.stringify nor property enumeration reaches it.
 */
export function toSigningKey(key: HeldKey): SigningKey {
  const { privateKey, alg } = key
  return Object.freeze({
    kid: key.kid,
    alg,
    publicJwk: key.publicJwk,
    // JWS form (RFC 7515/7518): Ed25519 signs the message itself; ES256 is raw r||s, not DER.
    sign: async (data: Uint8Array) =>
      new Uint8Array(alg === 'EdDSA' ? sign(null, data, privateKey) : sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' })),
  })
}
