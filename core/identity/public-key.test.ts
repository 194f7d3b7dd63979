import { createPublicKey, generateKeyPairSync, randomBytes, verify } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { toBase64Url } from '../encoding/base64url.js'
import { idProofMessageBytes, type IdContinueRequest } from './id-proof-message.js'
import { isPrimeOrderPoint, jwkThumbprint, publicKeyFromRaw } from './public-key.js'
import { rawPublicKeyOf } from './sign-id-proof.js'
import { verifyIdProof } from './verify-id-proof.js'

/** The 8 canonical encodings of Ed25519's small-order points ("Taming the many EdDSAs", 2020, Table 5). */
const SMALL_ORDER_CANONICAL = [
  '0100000000000000000000000000000000000000000000000000000000000000', // identity (order 1)
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // order 2
  '0000000000000000000000000000000000000000000000000000000000000000', // order 4
  '0000000000000000000000000000000000000000000000000000000000000080', // order 4
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', // order 8
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa', // order 8
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', // order 8
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85', // order 8
]
/** Non-canonical encodings of small-order points: x = 0 with the sign bit set, and y ≥ p. */
const SMALL_ORDER_NON_CANONICAL = [
  '0100000000000000000000000000000000000000000000000000000000000080',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
]
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'))

describe('Ed25519 public keys', () => {
  it.each([...SMALL_ORDER_CANONICAL, ...SMALL_ORDER_NON_CANONICAL])('refuses the small-order encoding %s', (hex) => {
    expect(isPrimeOrderPoint('EdDSA', bytes(hex))).toBe(false)
    const result = publicKeyFromRaw('EdDSA', bytes(hex))
    expect(E.isLeft(result) && result.left).toEqual({ _tag: 'InvalidInput', message: 'publicKeyRawB64u is not a valid Ed25519 public key' })
  })

  it('refuses a mixed-order point (a real key plus a small-order component)', () => {
    // A real public key A plus the order-2 point (0, -1) is (−x_A, −y_A): flip y to p − y and the sign bit.
    const real = rawPublicKeyOf(generateKeyPairSync('ed25519').privateKey).raw
    const p = 2n ** 255n - 19n
    const y = BigInt('0x' + Buffer.from(real).reverse().toString('hex')) & (2n ** 255n - 1n)
    const sign = real[31]! & 0x80
    const mixed = Buffer.from((p - y).toString(16).padStart(64, '0'), 'hex').reverse()
    mixed[31] = (mixed[31]! & 0x7f) | (sign ^ 0x80)
    expect(isPrimeOrderPoint('EdDSA', mixed)).toBe(false)
  })

  it('accepts real keys', () => {
    for (let i = 0; i < 20; i++) {
      const raw = rawPublicKeyOf(generateKeyPairSync('ed25519').privateKey).raw
      expect(E.isRight(publicKeyFromRaw('EdDSA', raw))).toBe(true)
    }
  })

  it('closes the forgery the issue found: the identity key with signature (R = identity, S = 0) verifies for every message under a bare verifier', () => {
    const identityKey = bytes(SMALL_ORDER_CANONICAL[0]!)
    const forged = new Uint8Array(64)
    forged[0] = 1
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: toBase64Url(identityKey) }
    const fields: Omit<IdContinueRequest, 'signatureB64Url'> = {
      alg: 'EdDSA', username: 'mallory', displayName: 'Mallory', localUid: 'x', keyId: jwkThumbprint(jwk as never),
      publicKeyRawB64u: toBase64Url(identityKey), challengeB64Url: toBase64Url(randomBytes(32)), createdAt: '2026-06-25T00:00:00.000Z',
    } as Omit<IdContinueRequest, 'signatureB64Url'>
    const message = idProofMessageBytes(fields, 'https://cairn.example')
    const bare = createPublicKey({ key: jwk, format: 'jwk' })
    expect(verify(null, message, bare, forged)).toBe(true) // the platform's verifier alone is fooled
    const result = verifyIdProof({ ...fields, signatureB64Url: toBase64Url(forged) } as IdContinueRequest, { now: Date.parse('2026-06-25T00:00:00.000Z'), audience: 'https://cairn.example' })
    expect(E.isLeft(result) && result.left._tag).toBe('InvalidInput')
  })
})

describe('P-256 public keys', () => {
  const real = () => rawPublicKeyOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey).raw

  it('accepts real keys', () => {
    for (let i = 0; i < 10; i++) expect(E.isRight(publicKeyFromRaw('ES256', real()))).toBe(true)
  })

  it('refuses a point off the curve, the all-zero point and coordinates at or above p', () => {
    const off = real()
    off[64]! ^= 0x01
    const zero = new Uint8Array(65)
    zero[0] = 4
    const pHex = 'ffffffff00000001000000000000000000000000ffffffffffffffffffffffff'
    const tooLarge = bytes('04' + pHex + pHex)
    for (const raw of [off, zero, tooLarge]) {
      expect(isPrimeOrderPoint('ES256', raw)).toBe(false)
      expect(E.isLeft(publicKeyFromRaw('ES256', raw))).toBe(true)
    }
  })
})
