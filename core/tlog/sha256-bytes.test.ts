import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sha256 } from './sha256-bytes.js'

describe('sha256 of bytes', () => {
  it('is the @noble/hashes digest, as a plain Uint8Array of its own', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const digest = sha256(bytes)
        expect(digest).toEqual(nobleSha256(bytes))
        expect(digest.constructor).toBe(Uint8Array)
        expect(digest.byteOffset === 0 && digest.buffer.byteLength === 32).toBe(true)
      }),
    )
  })
})
