/**
 * A held key signs in JWS form with whichever native library signs here (libsodium for Ed25519
 * where installed): Ed25519 signatures are node:crypto's to the byte (RFC 8032 signing is
 * deterministic), and no form of the held key or its port view carries the private key.
 */
import { createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { heldKeyOf, toSigningKey } from './held-key.js'

describe('held keys', () => {
  it('sign Ed25519 exactly as node:crypto does, for any message', async () => {
    const { privateKey } = generateKeyPairSync('ed25519')
    const held = await heldKeyOf(privateKey, 'EdDSA', 'proof')
    const port = toSigningKey(held)
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), async (data) => {
        const expected = new Uint8Array(sign(null, data, privateKey))
        expect(held.sign(data)).toEqual(expected)
        expect(await port.sign(data)).toEqual(expected)
      }),
      { numRuns: 200 },
    )
  })

  it('sign ES256 as raw r‖s and RS256 as PKCS#1 v1.5, verifiable with the published key', async () => {
    const data = new TextEncoder().encode('cairn.example')
    const ec = await heldKeyOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, 'ES256', 'token')
    const es256 = ec.sign(data)
    expect(es256.length).toBe(64)
    expect(verify('sha256', data, { key: createPublicKey({ key: { ...ec.publicJwk }, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, es256)).toBe(true)
    const rsa = await heldKeyOf(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, 'RS256', 'token')
    expect(verify('sha256', data, createPublicKey({ key: { ...rsa.publicJwk }, format: 'jwk' }), rsa.sign(data))).toBe(true)
  })

  it('never carry the private key where JSON or a listing of members reaches it', async () => {
    const { privateKey } = generateKeyPairSync('ed25519')
    const seed = privateKey.export({ format: 'jwk' }).d!
    const held = await heldKeyOf(privateKey, 'EdDSA', 'proof')
    const port = toSigningKey(held)
    for (const view of [held, port]) {
      expect(JSON.stringify(view)).not.toContain(seed)
      expect(Object.values(view).some((member) => member instanceof Uint8Array)).toBe(false)
    }
    expect(Object.keys(port)).toEqual(['kid', 'alg', 'purpose', 'publicJwk', 'sign'])
  })
})
