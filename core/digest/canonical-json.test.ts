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

describe('canonical JSON of values already in canonical order (parsed canonical text)', () => {
  const reparsed = (value: unknown) => {
    const answer = packageAnswer(value)
    return answer.text === undefined ? value : JSON.parse(answer.text)
  }

  it('answers as the package does, written natively', () => {
    const anything = fc.anything({ withNullPrototype: true, withUnicodeString: true })
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), anything, fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue())), (value) => {
      const ordered = reparsed(value)
      expect(ourAnswer(ordered)).toEqual(packageAnswer(ordered))
    }), { numRuns: 2000 })
  })

  it('leaves to the writers what JSON.stringify would write its own way, even in canonical order', () => {
    class Point {
      a = 1
      b = 2
    }
    const withToJson = Object.assign([1, 2], { toJSON: () => 'replaced' })
    const deep = JSON.parse('['.repeat(300) + ']'.repeat(300))
    const cases: unknown[] = [
      { a: new String('x') }, [new Number(1), new Boolean(false)], { a: new Date(0) }, { a: new Uint8Array([1, 2]) }, { a: new Map([[1, 2]]) },
      new Point(), { a: withToJson }, Object.assign(Object.create(null), { a: 1, b: [2] }), JSON.parse('{"10":1,"9":2}'), { a: '\ud800' }, { '\udc00': 1 },
      { a: NaN }, [Infinity], { a: undefined }, [undefined], { a: 1n }, deep, JSON.parse('{"__proto__":{"a":1},"b":2}'), [-0, 1e21, 5e-324],
    ]
    for (const value of cases) expect(ourAnswer(value)).toEqual(packageAnswer(value))
  })
})

describe('canonicalJsonWithMember', () => {
  it('gives the text canonicalJson gives, and a member\'s text only as canonicalJson gives it for that member', () => {
    const withMember = fc.record({ statement: fc.jsonValue(), rest: fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue()) }).map(({ statement, rest }) => ({ ...rest, statement }))
    fc.assert(fc.property(fc.oneof(withMember, fc.jsonValue()), fc.boolean(), (generated, parse) => {
      const expected = ourAnswer(generated)
      if (expected.error !== undefined) return expect(() => canonicalJsonWithMember(generated, 'statement')).toThrow(expected.error)
      // Parsed from its canonical text, a value is in canonical order, as a sealed file's proof is.
      const value = parse ? JSON.parse(expected.text!) : generated
      const { text, member } = canonicalJsonWithMember(value, 'statement')
      expect(text).toBe(expected.text)
      const own = typeof value === 'object' && value !== null && !Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, 'statement')
      if (member !== undefined || (parse && own && !/"\d/u.test(text))) expect(member).toBe(canonicalJson((value as { statement: unknown }).statement))
      if (!own) expect(member).toBeUndefined()
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
