/** The log's signer: its public key is decoded once per key, yet every caller gets bytes of its own. */
import { describe, expect, it } from 'vitest'
import { MemoryKeyStore } from '../../adapters/memory/index.js'
import { fromBase64Url } from '../encoding/base64url.js'
import { logSigner } from './log-identity.js'

const BASE_URL = 'https://cairn.example'

describe('logSigner', () => {
  it("hands each caller its own copy of the current proof key's public bytes, also after a rotation", async () => {
    const keys = new MemoryKeyStore()
    const first = await logSigner(keys, BASE_URL)
    expect(first.publicKey).toEqual(fromBase64Url((await keys.current('EdDSA', 'proof')).publicJwk.x!))
    first.publicKey.fill(0)
    const again = await logSigner(keys, BASE_URL)
    expect(again.publicKey).toEqual(fromBase64Url((await keys.current('EdDSA', 'proof')).publicJwk.x!))
    const rotated = await keys.rotate('EdDSA', 'proof')
    const next = await logSigner(keys, BASE_URL)
    expect(next.kid).toBe(rotated.kid)
    expect(next.publicKey).toEqual(fromBase64Url(rotated.publicJwk.x!))
    expect(next.publicKey).not.toEqual(again.publicKey)
  })
})
