import { createPublicKey, verify } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { MemoryKeyStore } from './memory-key-store.js'

// JWS verification with jose, rotation and the JWKS are proven by conformance/matrix.test.ts.
describe('MemoryKeyStore', () => {
  it('signs raw r||s for ES256, which node:crypto verifies in ieee-p1363 form', async () => {
    const key = await new MemoryKeyStore().current('ES256')
    const data = new TextEncoder().encode('payload')
    const signature = await key.sign(data)
    const publicKey = createPublicKey({ key: { ...key.publicJwk }, format: 'jwk' })
    expect(verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true)
  })

  it('keeps keys of separate stores apart', async () => {
    const [a, b] = [await new MemoryKeyStore().current('EdDSA'), await new MemoryKeyStore().current('EdDSA')]
    expect(a.kid).not.toBe(b.kid)
  })
})
