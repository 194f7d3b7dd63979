import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareCodePoints, compareIndexValues, indexValueOf } from './index-order.js'

describe('index order', () => {
  it('compares strings as their UTF-8 bytes compare (SQLite BINARY, MongoDB simple collation)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))))
      }),
    )
    expect(compareCodePoints('\uFFFF', '\u{10000}')).toBeLessThan(0)
    expect('\uFFFF' < '\u{10000}').toBe(false) // why a plain < will not do
  })

  it('puts a lone surrogate at its own code point, between U+D7FF and U+E000 (as WTF-8 bytes and SQLite order it)', () => {
    const wtf8 = (text: string) => Buffer.from([...text].flatMap((char) => {
      const point = char.codePointAt(0)!
      if (point < 0xd800 || point > 0xdfff) return [...Buffer.from(char)]
      return [0xed, 0xa0 | ((point >> 6) & 0x1f), 0x80 | (point & 0x3f)]
    }))
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(Buffer.compare(wtf8(a), wtf8(b))))
      }),
      { numRuns: 2000 },
    )
    expect(['\uE000', '\uDC00', '\uD800', '\uD7FF', '\u{10000}'].sort(compareCodePoints)).toEqual(['\uD7FF', '\uD800', '\uDC00', '\uE000', '\u{10000}'])
  })

  it('puts null before numbers before strings', () => {
    expect([3, 'a', null, -1, 'B'].sort((a, b) => compareIndexValues(a, b))).toEqual([null, -1, 3, 'B', 'a'])
  })

  it('sees only strings and numbers of top-level fields', () => {
    expect(['s', 'n', 'b', 'o', 'a', 'x'].map((field) => indexValueOf({ s: 's', n: 1, b: true, o: {}, a: [1] }, field))).toEqual(['s', 1, null, null, null, null])
    expect(indexValueOf([1], '0')).toBeNull()
  })
})
