import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Json } from '../../ports/store.js'
import { toStoredJson } from './stored-json.js'

/** What a store kept before the direct copy: the JSON text round trip, deeply frozen. */
const roundTrip = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown

/** Every object and array inside `value` is frozen, and none is shared with `original`. */
function frozenAndUnshared(value: unknown, original: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true
  if (!Object.isFrozen(value) || value === original) return false
  return Object.entries(value).every(([key, inner]) => frozenAndUnshared(inner, (original as Record<string, unknown> | undefined)?.[key]))
}

describe('toStoredJson', () => {
  it('keeps exactly what the JSON round trip keeps, frozen and unshared, for any value', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBoxedValues: true, withDate: true, withTypedArray: true, withSparseArray: true, withObjectString: true }), (value) => {
        if (JSON.stringify(value) === undefined) return
        const stored = toStoredJson(value as Json)
        expect(stored).toStrictEqual(roundTrip(value))
        expect(JSON.stringify(stored)).toBe(JSON.stringify(value))
        expect(frozenAndUnshared(stored, value)).toBe(true)
      }),
    )
  })

  it('treats the edge cases as JSON does', () => {
    const cases: unknown[] = [
      { a: -0, b: [-0, NaN, Infinity], c: undefined, d: 'x' },
      { toJSON: () => ({ replaced: true }) },
      { when: new Date(0), list: [1, undefined, () => 1] },
      JSON.parse('{"__proto__": {"polluted": true}, "9": 1, "1": 2, "b": 3}'),
      Object.assign(Object.create(null), { z: 1, a: [{}] }),
      '\ud800 lone surrogate',
    ]
    for (const value of cases) {
      const stored = toStoredJson(value as Json)
      expect(stored).toStrictEqual(roundTrip(value))
      expect(JSON.stringify(stored)).toBe(JSON.stringify(value))
      expect(Object.keys(stored ?? {})).toStrictEqual(Object.keys((roundTrip(value) as object) ?? {}))
    }
  })

  it('refuses what has no JSON form, cycles included', () => {
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(() => toStoredJson(cycle as Json)).toThrow(TypeError)
    expect(() => toStoredJson(undefined as unknown as Json)).toThrow(TypeError)
    expect(() => toStoredJson({ n: 1n } as unknown as Json)).toThrow(TypeError)
  })
})
