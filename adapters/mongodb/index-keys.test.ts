import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { BSON } from 'mongodb'
import { compareCodePoints } from '../shared/index-order.js'
import { escapeField, indexedCopy, indexString, unescapeField } from './index-keys.js'

/** The order a MongoDB server gives strings (simple collation): their UTF-8 bytes as BSON stores them. */
function serverOrder(a: string, b: string): number {
  const bytes = (text: string) => Buffer.from((BSON.deserialize(BSON.serialize({ s: text })) as { s: string }).s)
  return Math.sign(Buffer.compare(bytes(a), bytes(b)))
}

describe('the index copy', () => {
  it('orders and tells apart strings on the server exactly as compareCodePoints does, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(serverOrder(indexString(a), indexString(b))).toBe(Math.sign(compareCodePoints(a, b)))
      }),
      { numRuns: 2000 },
    )
    expect(indexString('plain é 中 한')).toBe('plain é 中 한')
  })

  it('escapes field names reversibly so no dot, dollar or lone surrogate reaches a path', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1 }), (field) => {
        const escaped = escapeField(field)
        expect(escaped).not.toMatch(/[.$]/)
        expect(BSON.deserialize(BSON.serialize({ [escaped]: 1 }))).toHaveProperty([escaped])
        expect(unescapeField(escaped)).toBe(field)
      }),
      { numRuns: 1000 },
    )
  })

  it('keeps top-level strings and numbers only: never arrays, objects, booleans or null', () => {
    expect(indexedCopy({ s: 'x', n: 2, a: ['x'], o: { s: 'x' }, b: true, z: null, 'a.b': 'dotted' })).toEqual({ s: 'x', n: 2, 'a%2Eb': 'dotted' })
    expect(indexedCopy(['x'])).toEqual({})
  })
})
