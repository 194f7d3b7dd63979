import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { BSON } from 'mongodb'
import type { Json } from '../../ports/store.js'
import { decodeJson, encodeJson } from './json-document.js'

/** Through the codec and real BSON bytes, as a MongoDB server would keep it. */
function roundTrip(value: Json): Json {
  const stored = BSON.deserialize(BSON.serialize({ _id: 'k', version: 1, ...encodeJson(value) }))
  return decodeJson(stored)
}

describe('Json in BSON documents', () => {
  it('keeps every JSON value exactly, however odd its strings and keys', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        expect(JSON.stringify(roundTrip(value as Json))).toBe(JSON.stringify(value))
      }),
      { numRuns: 300 },
    )
  })

  it('stores plain values natively, so tools read them', () => {
    expect(encodeJson({ email: 'a@b.c', n: 1, tags: ['x'] })).toEqual({ value: { email: 'a@b.c', n: 1, tags: ['x'] } })
    expect(encodeJson('text')).toEqual({ value: 'text' })
  })

  it('falls back to JSON text for what BSON would change', () => {
    const awkward: Json[] = [{ 'nul\u0000key': 1, email: 'e' }, { $set: 1, email: 'e' }, { email: 'e', lone: '\ud800' }]
    for (const value of awkward) {
      const stored = encodeJson(value)
      expect(stored).toEqual({ json: JSON.stringify(value) })
      expect(JSON.stringify(roundTrip(value))).toBe(JSON.stringify(value))
    }
    let deep: Json = 'bottom'
    for (let i = 0; i < 120; i += 1) deep = [deep]
    expect(roundTrip(deep)).toEqual(deep)
    expect(encodeJson(deep).json).toBeDefined()
  })

  it('gives back plain JSON: the key and version of the envelope never leak into the value', () => {
    const value = roundTrip({ nested: { list: [1, 'two', null, true] } })
    expect(value).toEqual({ nested: { list: [1, 'two', null, true] } })
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
  })
})
