import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeEntryBundle, encodeEntryBundle, entryBundlePrefixLength } from './tile-paths.js'

describe('entry bundle prefixes', () => {
  it('measure the first entries exactly as decoding them and encoding them again would', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 12 }), fc.nat(14), fc.nat(), (entries, count, cut) => {
        const bundle = encodeEntryBundle(entries)
        // Whole bundles, and bundles cut anywhere (malformed or shorter).
        for (const bytes of [bundle, bundle.subarray(0, cut % (bundle.length + 1))]) {
          const decoded = decodeEntryBundle(bytes)
          const expected = decoded && decoded.length >= count ? encodeEntryBundle(decoded.slice(0, count)).length : undefined
          expect(entryBundlePrefixLength(bytes, count)).toBe(expected)
        }
      }),
    )
  })
})
