import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { fromBase64Url, toBase64Url } from '../encoding/base64url.js'
import { idProofMessageBytes, type IdContinueRequest } from './id-proof-message.js'
import { publicKeyFromRaw } from './public-key.js'
import { rawPublicKeyOf, signIdContinueRequest, signIdProofMessage } from './sign-id-proof.js'
import { ID_PROOF_MAX_FUTURE_SKEW_MS, ID_PROOF_MAX_SKEW_MS, verifyIdProof } from './verify-id-proof.js'
import { verifyKeySignature } from './verify-key-signature.js'

const AUDIENCE = 'https://cairn.example'
const NOW = Date.parse('2026-06-25T00:00:00.000Z')
const KEYS = { EdDSA: generateKeyPairSync('ed25519').privateKey, ES256: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey }

function signed(alg: keyof typeof KEYS, overrides: { createdAt?: string; challenge?: Uint8Array } = {}): IdContinueRequest {
  return signIdContinueRequest({ username: 'Grace', displayName: 'Grace Hopper', localUid: 'laptop', email: 'grace@example.com' }, {
    privateKey: KEYS[alg], challenge: overrides.challenge ?? randomBytes(32), createdAt: overrides.createdAt ?? new Date(NOW).toISOString(), audience: AUDIENCE,
  })
}

const verify = (request: IdContinueRequest) => verifyIdProof(request, { now: NOW, audience: AUDIENCE })
const refusal = (request: IdContinueRequest) => {
  const result = verify(request)
  return E.isLeft(result) ? result.left._tag : 'accepted'
}

describe.each(['EdDSA', 'ES256'] as const)('verifyIdProof with a real %s key', (alg) => {
  it('accepts a proof signed by the key it names', () => {
    const result = verify(signed(alg))
    expect(E.isRight(result) && result.right).toMatchObject({ alg, username: 'grace', email: 'grace@example.com', displayName: 'Grace Hopper' })
  })

  it('refuses a wrong signature (401)', () => {
    const request = signed(alg)
    const signature = fromBase64Url(request.signatureB64Url)!
    signature[10]! ^= 0x01
    expect(refusal({ ...request, signatureB64Url: toBase64Url(signature) })).toBe('Unauthenticated')
  })

  it('refuses a signature by another key (401)', () => {
    const other = alg === 'EdDSA' ? generateKeyPairSync('ed25519').privateKey : generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
    const request = signed(alg)
    const { signatureB64Url: _, ...fields } = request
    const forged = signIdProofMessage(alg, other, idProofMessageBytes(fields, AUDIENCE))
    expect(refusal({ ...request, signatureB64Url: toBase64Url(forged) })).toBe('Unauthenticated')
  })

  it('refuses a keyId that is not the key\'s thumbprint (400), even one of another real key', () => {
    const request = signed(alg)
    const otherKeyId = signed(alg === 'EdDSA' ? 'ES256' : 'EdDSA').keyId
    expect(refusal({ ...request, keyId: otherKeyId })).toBe('InvalidInput')
    expect(refusal({ ...request, keyId: 'my-key' })).toBe('InvalidInput')
  })

  it('refuses a stale createdAt in the past and in the future (401), and accepts the edges', () => {
    const at = (ms: number) => new Date(ms).toISOString()
    expect(refusal(signed(alg, { createdAt: at(NOW - ID_PROOF_MAX_SKEW_MS - 1) }))).toBe('Unauthenticated')
    expect(refusal(signed(alg, { createdAt: at(NOW + ID_PROOF_MAX_FUTURE_SKEW_MS + 1) }))).toBe('Unauthenticated')
    // A proof dated 10 minutes ahead would stay usable for 20 minutes (security finding): refused.
    expect(refusal(signed(alg, { createdAt: at(NOW + ID_PROOF_MAX_SKEW_MS) }))).toBe('Unauthenticated')
    expect(refusal(signed(alg, { createdAt: at(NOW - ID_PROOF_MAX_SKEW_MS) }))).toBe('accepted')
    expect(refusal(signed(alg, { createdAt: at(NOW + ID_PROOF_MAX_FUTURE_SKEW_MS) }))).toBe('accepted')
  })

  it('refuses malformed or non-canonical base64url (400)', () => {
    const request = signed(alg)
    expect(refusal({ ...request, signatureB64Url: `${request.signatureB64Url}=` })).toBe('InvalidInput')
    expect(refusal({ ...request, publicKeyRawB64u: request.publicKeyRawB64u.replace(/.$/, '+') })).toBe('InvalidInput')
    // 'AB' and 'AA' decode to the same byte; only the canonical spelling is a challenge.
    expect(refusal({ ...request, challengeB64Url: `${'A'.repeat(21)}B` })).toBe('InvalidInput')
  })

  it('refuses a short challenge, a wrong-length signature and a key of the other algorithm (400)', () => {
    expect(refusal(signed(alg, { challenge: randomBytes(15) }))).toBe('InvalidInput')
    const request = signed(alg)
    expect(refusal({ ...request, signatureB64Url: request.signatureB64Url.slice(0, 40) })).toBe('InvalidInput')
    expect(refusal({ ...request, alg: alg === 'EdDSA' ? 'ES256' : 'EdDSA' })).toBe('InvalidInput')
  })
})

describe('public keys', () => {
  it('refuses a P-256 "point" that is not on the curve', () => {
    const raw = new Uint8Array(65).fill(7)
    raw[0] = 0x04
    expect(E.isLeft(publicKeyFromRaw('ES256', raw))).toBe(true)
  })

  it('refuses a compressed P-256 point', () => {
    const raw = rawPublicKeyOf(KEYS.ES256).raw
    expect(E.isLeft(publicKeyFromRaw('ES256', raw.subarray(0, 33)))).toBe(true)
  })
})

describe('property: any single-byte change is refused', () => {
  const flip = (bytes: Uint8Array, index: number, xor: number) => {
    const copy = new Uint8Array(bytes)
    copy[index % copy.length]! ^= xor
    return copy
  }

  it.each(['EdDSA', 'ES256'] as const)('%s: changing one byte of the signed message or of the signature never verifies', (alg) => {
    const request = signed(alg)
    const { signatureB64Url, ...fields } = request
    const message = idProofMessageBytes(fields, AUDIENCE)
    const signature = fromBase64Url(signatureB64Url)!
    const key = publicKeyFromRaw(alg, fromBase64Url(request.publicKeyRawB64u)!)
    if (E.isLeft(key)) throw new Error('key')
    expect(verifyKeySignature(key.right, message, signature)).toBe(true)
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 255 }), fc.boolean(), (index, xor, inSignature) =>
        inSignature ? !verifyKeySignature(key.right, message, flip(signature, index, xor)) : !verifyKeySignature(key.right, flip(message, index, xor), signature),
      ),
      { numRuns: 300 },
    )
  })

  it('changing one character of any signed request member is refused', () => {
    const request = signed('EdDSA')
    const signedMembers = ['keyId', 'publicKeyRawB64u', 'localUid', 'username', 'displayName', 'createdAt', 'challengeB64Url', 'email'] as const
    fc.assert(
      fc.property(fc.constantFrom(...signedMembers), fc.nat(), fc.constantFrom(...'AZaz09-_.@ '), (member, index, replacement) => {
        const value = request[member]!
        const at = index % value.length
        fc.pre(value[at] !== replacement)
        const changed = { ...request, [member]: value.slice(0, at) + replacement + value.slice(at + 1) }
        return E.isLeft(verify(changed))
      }),
      { numRuns: 300 },
    )
  })
})
