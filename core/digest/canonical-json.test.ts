import canonicalize from 'canonicalize'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson, canonicalJsonBytes, canonicalJsonWithMember } from './canonical-json.js'
import { sha256Hex, sha256OfJson } from './sha256.js'

/** The package's answer (text, or the error it throws), as canonicalJson gave it before the direct writer. */
function packageAnswer(value: unknown): { text?: string; error?: string } {
  try {
    const text = canonicalize(value)
    return text === undefined ? { error: 'Value has no JSON form' } : { text }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

function ourAnswer(value: unknown): { text?: string; error?: string } {
  try {
    return { text: canonicalJson(value) }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

describe('canonicalJson', () => {
  it('answers as the canonicalize package does, for JSON values and anything else', () => {
    const anything = fc.anything({ withBoxedValues: true, withDate: true, withMap: true, withNullPrototype: true, withSparseArray: true, withTypedArray: true, withBigInt: true, withObjectString: true, withUnicodeString: true })
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), anything, fc.string({ unit: 'binary' })), (value) => {
      expect(ourAnswer(value)).toEqual(packageAnswer(value))
    }), { numRuns: 2000 })
  })

  it('answers the odd cases as the package does', () => {
    const cycle: Record<string, unknown> = { a: 1 }
    cycle.self = cycle
    const shared = { x: [1] }
    const cases: unknown[] = [
      { '\ud800': 1 }, ['\udc00'], NaN, [Infinity], -0, { a: undefined, b: () => 1, c: Symbol('s') }, [undefined, Symbol('t')],
      // eslint-disable-next-line no-sparse-arrays
      [1, , 3], { toJSON: () => ({ z: 1, a: 2 }) }, cycle, { left: shared, right: shared }, { é: 1, e: 2, E: 3, '10': 4, '9': 5, '': 6 },
      [1e21, 1e-7, 0.1, 5e-324, 2 ** 53], new Date(0), { n: 10n },
    ]
    for (const value of cases) expect(ourAnswer(value)).toEqual(packageAnswer(value))
  })
})

describe('canonicalJsonWithMember', () => {
  it('gives the text canonicalJson gives, and the member\'s text canonicalJson gives for that member', () => {
    const withMember = fc.record({ statement: fc.jsonValue(), rest: fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue()) }).map(({ statement, rest }) => ({ ...rest, statement }))
    fc.assert(fc.property(fc.oneof(withMember, fc.jsonValue()), (value) => {
      const expected = ourAnswer(value)
      if (expected.error !== undefined) return expect(() => canonicalJsonWithMember(value, 'statement')).toThrow(expected.error)
      const { text, member } = canonicalJsonWithMember(value, 'statement')
      expect(text).toBe(expected.text)
      const own = typeof value === 'object' && value !== null && !Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, 'statement')
      expect(member).toBe(own ? canonicalJson((value as { statement: unknown }).statement) : undefined)
    }), { numRuns: 1000 })
  })

  it('captures only the top-level member, never one of that name nested deeper', () => {
    expect(canonicalJsonWithMember({ log: { statement: 1 } }, 'statement').member).toBeUndefined()
    expect(canonicalJsonWithMember([{ statement: 1 }], 'statement').member).toBeUndefined()
    expect(canonicalJsonWithMember({ a: { statement: 1 }, statement: { b: 2 } }, 'statement').member).toBe('{"b":2}')
  })
})

describe('sha256OfJson', () => {
  it('hashes exactly the UTF-8 bytes of the canonical text, lone surrogates included', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
      for (const item of [value, { text }]) {
        expect(sha256OfJson(item)).toBe(sha256Hex(canonicalJsonBytes(item)))
      }
    }))
  })
})
