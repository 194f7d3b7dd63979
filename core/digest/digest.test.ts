import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { canonicalJson, chainHead, entryDigestOf, sha256Hex, sha256OfJson, verifyChain } from './index.js'

// Golden vectors computed independently (Python hashlib over hand-written canonical bytes).
describe('digests', () => {
  it('canonicalises JSON per RFC 8785 (sorted keys, no whitespace, ES number form)', () => {
    expect(canonicalJson({ b: 1, a: [true, null] })).toBe('{"a":[true,null],"b":1}')
    expect(canonicalJson({ n: 1e21, f: 0.1, u: '\u00e9' })).toBe('{"f":0.1,"n":1e+21,"u":"é"}')
  })

  it('hashes bytes and canonical JSON with SHA-256', () => {
    expect(sha256Hex(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    expect(sha256OfJson({ b: 1, a: [true, null] })).toBe('51705a2c9eb3e7e410a58f696a770c3ac3885a0cf43eb7fc88f5e47c11d4d30d')
  })

  it('chains heads over the prior head and the entry digest', () => {
    const entryDigest = entryDigestOf({ kind: 'genesis' })
    expect(entryDigest).toBe(GENESIS_ENTRY)
    expect(chainHead(null, entryDigest)).toBe(GENESIS_HEAD)
  })

  it('writes a chain head as the canonical JSON of its two members, for any strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.option(fc.string({ unit: 'binary' })), (entryDigest, priorHead) => {
        expect(chainHead(priorHead, entryDigest)).toBe(sha256OfJson({ entryDigest, priorHead }))
      }),
    )
  })

  it('hashes text as its UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(sha256Hex(text)).toBe(sha256Hex(new TextEncoder().encode(text)))
      }),
    )
  })

  it('verifies any well-formed chain and rejects any tampered entry', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 8 }), fc.nat(), (values, pick) => {
        let head: string | null = null
        const entries = values.map((value) => {
          const entryDigest = entryDigestOf(value)
          const entry = { value, entryDigest, priorHead: head, head: chainHead(head, entryDigest) }
          head = entry.head
          return entry
        })
        expect(verifyChain(null, entries)).toBe(true)
        const i = pick % entries.length
        const tampered = entries.map((e, j) => (j === i ? { ...e, value: { tampered: e.value } } : e))
        expect(verifyChain(null, tampered)).toBe(false)
      }),
    )
  })
})

const GENESIS_ENTRY = '0ca0e90d1ab96276eacef4070ca73a00557ebb2848e5004b0c92694997fc2ec3'
const GENESIS_HEAD = 'd130b40de41a221a96b2c66ce37457aeb7dba0a4effd702676055fef246ea375'
