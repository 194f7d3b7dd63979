/**
 * The streaming marker search answers as one search of the whole bytes, however they are split
 * into chunks (a marker straddling two or more chunks included), and a digest's watch feeds it
 * every byte it hashes.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { concatBytes, portableIndexOfBytes, utf8 } from './bytes.js'
import { MarkerSearch, partsSearch } from './marker-search.js'
import { nodeSha256Parts } from './node-digest.js'

const MARKER = utf8('<metadata id="cairn-proof">')

/** Chunks of `bytes` cut at the given offsets (sorted, deduplicated, empty chunks kept: a digest may give one). */
function split(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [0, ...cuts.map((cut) => cut % (bytes.length + 1)).sort((a, b) => a - b), bytes.length]
  return points.slice(1).map((end, i) => bytes.subarray(points[i]!, end))
}

function searched(chunks: readonly Uint8Array[], marker = MARKER): MarkerSearch {
  const search = new MarkerSearch(marker)
  for (const chunk of chunks) search.update(chunk)
  return search
}

// Bytes near the marker's own: prefixes of it and its characters, so near misses are common.
const nearMarker = fc
  .array(fc.oneof(fc.integer({ min: 1, max: MARKER.length }).map((n) => MARKER.subarray(0, n)), fc.constantFrom(...'<metadt="cirn-pof>'.split('')).map(utf8), fc.uint8Array({ maxLength: 8 })), { maxLength: 12 })
  .map((pieces) => concatBytes(...pieces))

describe('the streaming marker search', () => {
  it('finds the first occurrence as one search of the whole bytes would, for any split into chunks', () => {
    fc.assert(
      fc.property(nearMarker, fc.boolean(), nearMarker, fc.array(fc.nat(), { maxLength: 12 }), (before, withMarker, after, cuts) => {
        const bytes = concatBytes(before, withMarker ? MARKER : new Uint8Array(), after)
        const search = searched(split(bytes, cuts))
        expect(search.found).toBe(portableIndexOfBytes(bytes, MARKER))
        expect(search.length).toBe(bytes.length)
      }),
      { numRuns: 2000 },
    )
  })

  it('finds a marker cut at every one of its inner boundaries, and spread over one-byte chunks', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }).filter((bytes) => !bytes.includes(0x3c)), fc.uint8Array({ maxLength: 40 }), (before, after) => {
        const bytes = concatBytes(before, MARKER, after)
        for (let cut = 1; cut < MARKER.length; cut++) {
          // Two chunks meeting inside the marker, and three with the marker's middle a chunk of its own.
          expect(searched(split(bytes, [before.length + cut])).found).toBe(before.length)
          expect(searched(split(bytes, [before.length + cut, before.length + cut + 1])).found).toBe(before.length)
        }
        expect(searched([...bytes].map((byte) => new Uint8Array([byte]))).found).toBe(before.length)
      }),
    )
  })

  it('works for a one-byte marker (nothing kept between chunks)', () => {
    const marker = utf8('<')
    expect(searched(split(utf8('ab<c'), [1, 2, 3]), marker).found).toBe(2)
    expect(searched(split(utf8('abc'), [1, 2]), marker).found).toBe(-1)
  })
})

describe('a search of a digest\'s parts', () => {
  it('rides the Node digest\'s watch over every byte, each part on its own', () => {
    fc.assert(
      fc.property(fc.array(nearMarker, { minLength: 1, maxLength: 4 }), (parts) => {
        const search = partsSearch(parts, MARKER)
        const hex = nodeSha256Parts(parts, search.watch)
        expect(hex).toBe(createHash('sha256').update(concatBytes(...parts)).digest('hex'))
        // A marker split between two parts is not an occurrence: the parts are not contiguous in the file.
        expect(search.found()).toBe(parts.some((part) => portableIndexOfBytes(part, MARKER) !== -1))
      }),
      { numRuns: 500 },
    )
  })

  it('hashes a large part in chunks and finds a marker straddling their boundary', () => {
    const part = new Uint8Array(600 * 1024).fill(0x41)
    for (const at of [256 * 1024 - 10, 512 * 1024 - 1, 256 * 1024]) {
      const bytes = part.slice()
      bytes.set(MARKER, at)
      const chunks: number[] = []
      const search = partsSearch([bytes], MARKER)
      nodeSha256Parts([bytes], (chunk, index) => {
        chunks.push(chunk.length)
        search.watch(chunk, index)
      })
      expect(chunks.length).toBeGreaterThan(1)
      expect(search.found()).toBe(true)
    }
  })

  it('searches the parts itself when the digest does not watch (WebCrypto)', () => {
    const parts = [utf8('<svg>'), concatBytes(utf8('x'), MARKER)]
    expect(partsSearch(parts, MARKER).found()).toBe(true)
    expect(partsSearch([utf8('<svg>'), utf8('</svg>')], MARKER).found()).toBe(false)
  })
})
