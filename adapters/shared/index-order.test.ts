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

  it('puts null before numbers before strings', () => {
    expect([3, 'a', null, -1, 'B'].sort((a, b) => compareIndexValues(a, b))).toEqual([null, -1, 3, 'B', 'a'])
  })

  it('sees only strings and numbers of top-level fields', () => {
    expect(['s', 'n', 'b', 'o', 'a', 'x'].map((field) => indexValueOf({ s: 's', n: 1, b: true, o: {}, a: [1] }, field))).toEqual(['s', 1, null, null, null, null])
    expect(indexValueOf([1], '0')).toBeNull()
  })
})
