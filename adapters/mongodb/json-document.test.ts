import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { BSON } from 'mongodb'
import type { Json } from '../../ports/store.js'
import { decodeJson, encodeJson } from './json-document.js'

/** Through the codec and real BSON bytes, as a MongoDB server would keep it. */
function roundTrip(value: Json, indexed: ReadonlySet<string> = new Set()): Json {
  const stored = BSON.deserialize(BSON.serialize({ _id: 'k', version: 1, ...encodeJson(value, indexed) }))
  return decodeJson(stored)
}

describe('Json in BSON documents', () => {
  it('keeps every JSON value exactly, however odd its strings and keys', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), fc.constantFrom('a', 'b', ''), (value, field) => {
        expect(JSON.stringify(roundTrip(value as Json, new Set([field])))).toBe(JSON.stringify(value))
      }),
      { numRuns: 300 },
    )
  })

  it('stores plain values natively, so tools and indexes read them', () => {
    expect(encodeJson({ email: 'a@b.c', n: 1, tags: ['x'] }, new Set(['email']))).toEqual({ value: { email: 'a@b.c', n: 1, tags: ['x'] } })
    expect(encodeJson('text')).toEqual({ value: 'text' })
  })

  it('falls back to JSON text for what BSON would change, keeping indexable fields visible', () => {
    const awkward: Json[] = [{ 'nul\u0000key': 1, email: 'e' }, { $set: 1, email: 'e' }, { email: 'e', lone: '\ud800' }, { email: 'e', tags: ['t'] }]
    for (const value of awkward) {
      const stored = encodeJson(value, new Set(['email', 'tags']))
      expect(stored.json).toBe(JSON.stringify(value))
      expect(stored.value).toMatchObject({ email: 'e' })
      expect(JSON.stringify(roundTrip(value, new Set(['email', 'tags'])))).toBe(JSON.stringify(value))
    }
    // An indexed field holding an array would get MongoDB's multikey meaning: kept out of the index.
    expect(encodeJson({ email: 'e', tags: ['t'] }, new Set(['tags'])).value).toEqual({ email: 'e' })
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
