import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareIndexValues } from '../shared/index-order.js'
import { indexedCopy, isPostgresText, sortKeyOf } from './sort-keys.js'

/** How PostgreSQL compares text under COLLATE "C": by UTF-8 bytes. */
const byteOrder = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')))

const indexValue = fc.oneof(
  fc.constant(null),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('\u0000', '\u0001', '\u0002', 'a', '\uD800', '\uDC00', '\uFFFF', '\uE000', '\u{10000}') }),
)

describe('PostgreSQL sort keys', () => {
  it('compare as bytes exactly as the values compare in index order', () => {
    fc.assert(
      fc.property(indexValue, indexValue, (a, b) => {
        const [x, y] = [sortKeyOf(a), sortKeyOf(b)]
        expect(isPostgresText(x)).toBe(true)
        expect(byteOrder(x, y)).toBe(Math.sign(compareIndexValues(a, b)))
      }),
      { numRuns: 2000 },
    )
  })

  it('spell the edge cases in order: no value, numbers, then strings by code point', () => {
    const ordered = [null, -Infinity, -1.5, -0, 0.1, 2 ** 53, Infinity, '', '\u0000', '\u0000\u0000', '\u0001', '\u0002', '\uD7FF', '\uD800', '\uDC00', '\uE000', '\uFFFF', '\u{10000}', '\u{10FFFF}']
    const keys = ordered.map((value) => sortKeyOf(value as number | string | null))
    expect([...keys].sort(byteOrder)).toEqual(keys)
    expect(sortKeyOf(-0)).toBe(sortKeyOf(0))
  })

  it('copy only top-level strings and numbers whose field names PostgreSQL can keep', () => {
    expect(indexedCopy({ a: 'x', n: 1, b: true, c: null, d: [1], e: { f: 1 }, '\uD800': 'lone', 'x\u0000': 'nul' })).toEqual({ a: '2x', n: sortKeyOf(1) })
    expect(indexedCopy(['a'])).toEqual({})
  })
})
