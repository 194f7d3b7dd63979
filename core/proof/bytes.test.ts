/** The byte searches: Node's native path and the portable (browser) path answer alike, and as a naive search does. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { equalRange, fromBase64Url, indexOfBytes, lastIndexOfBytes, portableEqualRange, portableIndexOfBytes, portableLastIndexOfBytes, toBase64Url } from './bytes.js'
import { fromBase64 } from '../tlog/base64.js'

const naiveIndexOf = (haystack: Uint8Array, needle: Uint8Array, from: number) => {
  for (let at = Math.max(0, from < 0 ? haystack.length + from : from); at + needle.length <= haystack.length; at++) {
    if (needle.every((byte, i) => haystack[at + i] === byte)) return at
  }
  return -1
}
const naiveLastIndexOf = (haystack: Uint8Array, needle: Uint8Array, from: number) => {
  for (let at = Math.min(from < 0 ? haystack.length + from : from, haystack.length - needle.length); at >= 0; at--) {
    if (needle.every((byte, i) => haystack[at + i] === byte)) return at
  }
  return -1
}

// Few distinct bytes, so needles occur, overlap and nearly occur; views at an offset, as carriers search them.
const bytes = (max: number) => fc.tuple(fc.uint8Array({ min: 0, max: 2, maxLength: max }), fc.nat(3)).map(([data, offset]) => new Uint8Array([...new Uint8Array(offset), ...data]).subarray(offset))

describe('byte searches', () => {
  it('indexOfBytes and lastIndexOfBytes answer as a naive search, natively and portably', () => {
    fc.assert(
      fc.property(bytes(40), bytes(4).filter((needle) => needle.length > 0), fc.integer({ min: -45, max: 45 }), (haystack, needle, from) => {
        const first = naiveIndexOf(haystack, needle, from)
        expect(indexOfBytes(haystack, needle, from)).toBe(first)
        expect(portableIndexOfBytes(haystack, needle, from)).toBe(first)
        expect(indexOfBytes(haystack, needle)).toBe(naiveIndexOf(haystack, needle, 0))
        const last = naiveLastIndexOf(haystack, needle, from)
        expect(lastIndexOfBytes(haystack, needle, from)).toBe(last)
        expect(portableLastIndexOfBytes(haystack, needle, from)).toBe(last)
        expect(lastIndexOfBytes(haystack, needle)).toBe(naiveLastIndexOf(haystack, needle, haystack.length - needle.length))
      }),
      { numRuns: 2000 },
    )
  })
})

/** The strict base64url decoder it replaced: the pattern, the length, then strict padded base64 (canonical padding bits). */
function rewrittenFromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/u.test(text) || text.length % 4 === 1) return undefined
  return fromBase64(text.replace(/-/gu, '+').replace(/_/gu, '/') + '='.repeat((4 - (text.length % 4)) % 4))
}

describe('base64url', () => {
  it('round-trips every length and agrees with Buffer', () => {
    for (let length = 0; length < 70; length++) {
      const bytes = new Uint8Array(length).map((_, i) => (i * 37 + length) & 0xff)
      expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'))
      expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes)
    }
  })

  it('accepts and refuses exactly as the decoder it replaced: alphabet, lone characters, padding, unused bits', () => {
    for (const bad of ['A', 'QR', 'QUJ', 'QQ==', 'QQ=', 'Q+/A', ' QQ', 'QQ ', 'é', 'AAAAA']) expect(fromBase64Url(bad), bad).toBeUndefined()
    const symbols = fc.constantFrom('A', 'Q', 'R', 'g', 'w', '-', '_', '+', '/', '=', ' ', '\u00e9', '\ud83d')
    fc.assert(fc.property(fc.array(symbols, { maxLength: 12 }).map((chars) => chars.join('')), (text) => {
      expect(fromBase64Url(text)).toEqual(rewrittenFromBase64Url(text))
    }), { numRuns: 20_000 })
    fc.assert(fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
      expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes)
    }))
  })
})

describe('equalRange', () => {
  it('answers natively and portably as a byte-by-byte comparison, at any offsets and lengths', () => {
    const naive = (a: Uint8Array, aStart: number, b: Uint8Array, bStart: number, length: number) =>
      aStart + length <= a.length && bStart + length <= b.length && a.subarray(aStart, aStart + length).every((byte, i) => byte === b[bStart + i])
    // Two bytes values only, so long ranges are often equal and differ, when they do, anywhere.
    const data = fc.tuple(fc.uint8Array({ min: 0, max: 1, minLength: 0, maxLength: 300 }), fc.nat(5)).map(([bytes, offset]) => new Uint8Array([...new Uint8Array(offset), ...bytes]).subarray(offset))
    fc.assert(fc.property(data, fc.nat(300), fc.nat(300), fc.nat(300), fc.boolean(), (a, aStart, bStart, length, copy) => {
      const b = copy ? new Uint8Array([...new Uint8Array(bStart), ...a.subarray(aStart, aStart + length)]) : a
      const expected = naive(a, aStart, b, bStart, length)
      expect(equalRange(a, aStart, b, bStart, length)).toBe(expected)
      if (aStart + length <= a.length && bStart + length <= b.length) expect(portableEqualRange(a, aStart, b, bStart, length)).toBe(expected)
    }), { numRuns: 3000 })
  })
})
