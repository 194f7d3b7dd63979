/** The byte searches: Node's native path and the portable (browser) path answer alike, and as a naive search does. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { indexOfBytes, lastIndexOfBytes, portableIndexOfBytes, portableLastIndexOfBytes } from './bytes.js'

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
