import { describe, expect, it } from 'vitest'
import * as t from 'io-ts'
import * as E from 'fp-ts/lib/Either.js'
import { components } from '../contract/components.js'
import { operations } from '../contract/operations/index.js'
import { IsoTimestamp } from '../contract/primitives.js'
import { ruleInWords } from '../contract/rule-words.js'
import { formatDecodeErrors } from './decode-errors.js'
import { quoteInput, boundErrorSentence } from './quote-input.js'

const TYPE_NAME = /\b[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+\b/ // PageSize, IsoTimestamp, V124ApplicationId…

/** Every codec reachable from the component table, through io-ts's own structure. */
function reachableCodecs(): t.Any[] {
  const seen = new Set<t.Any>()
  const visit = (codec: t.Any) => {
    if (seen.has(codec)) return
    seen.add(codec)
    const c = codec as unknown as { props?: t.Props; types?: t.Any[]; type?: t.Any; codomain?: t.Any }
    for (const child of [...Object.values(c.props ?? {}), ...(c.types ?? []), ...(c.type ? [c.type] : []), ...(c.codomain ? [c.codomain] : [])]) visit(child)
  }
  for (const codec of Object.values(components)) visit(codec as t.Any)
  for (const op of operations) for (const parameter of op.query) visit(parameter.codec as t.Any)
  return [...seen]
}

describe('input error wording', () => {
  it('every codec reachable from the contract has its rule in words, never its type name', () => {
    const codecs = reachableCodecs()
    expect(codecs.length).toBeGreaterThan(300)
    const typeNames = new Set(codecs.map((codec) => codec.name).filter((name) => TYPE_NAME.test(name)))
    expect(typeNames.size).toBeGreaterThan(100)
    const named = codecs
      .map((codec) => ({ name: codec.name, words: ruleInWords(codec) }))
      .filter(({ words }) => words === 'a valid value' || words.match(new RegExp(TYPE_NAME.source, 'g'))?.some((word) => typeNames.has(word)))
    expect(named).toEqual([])
  })

  it('every query parameter of every operation answers a bad value with the parameter name and its rule', () => {
    const candidates = ['', 'x', '0', '201', '2026-13-45T99:99:99Z', 'not a url']
    let refusals = 0
    for (const op of operations) {
      for (const parameter of op.query) {
        for (const candidate of candidates) {
          const result = (parameter.codec as t.Any).decode(candidate)
          if (E.isRight(result)) continue
          refusals += 1
          const sentence = formatDecodeErrors(result.left, parameter.name)
          expect(sentence).toMatch(new RegExp(`^${parameter.name} must be [a-z"]`))
          expect(sentence).not.toContain((parameter.codec as t.Any).name)
          if (candidate.length >= 5) expect(sentence).not.toContain(candidate)
        }
      }
    }
    expect(refusals).toBeGreaterThan(20)
  })

  it('reads as the issue asks for page sizes and times', () => {
    const limit = operations.find((op) => op.operationId === 'getActionLedger')!.query.find((p) => p.name === 'limit')!.codec as t.Any
    expect(formatDecodeErrors((limit.decode('0') as E.Left<t.Errors>).left, 'limit')).toBe('limit must be an integer from 1 to 200')
    expect(formatDecodeErrors((IsoTimestamp.decode('2026-13-45T99:99:99Z') as E.Left<t.Errors>).left, 'since')).toBe(
      'since must be a real date and time in ISO 8601 form, such as 2026-06-25T12:00:00Z',
    )
  })

  it('names a nullable or union field once, with every alternative', () => {
    const codec = t.type({ note: t.union([t.string, t.null]) })
    expect(formatDecodeErrors((codec.decode({ note: 3 }) as E.Left<t.Errors>).left, 'body')).toBe('body.note must be a string or null')
  })
})

describe('IsoTimestamp is a real calendar instant', () => {
  it.each(['2026-13-45T99:99:99Z', '2026-02-29T00:00:00Z', '2026-04-31T00:00:00Z', '2026-06-25T24:00:00Z', '2026-06-25T12:60:00Z', '2026-06-25T12:00:60Z', '2026-06-25T12:00:00+24:00', '2026-00-10T00:00:00Z'])('refuses %s', (text) => {
    expect(IsoTimestamp.is(text)).toBe(false)
  })
  it.each(['2024-02-29T00:00:00Z', '2026-06-25T23:59:59.999999999Z', '2026-12-31T00:00:00-12:00', '2026-01-01T00:00:00+14:00'])('accepts %s', (text) => {
    expect(IsoTimestamp.is(text)).toBe(true)
  })
})

describe('quoting caller input', () => {
  it('shows at most a short prefix of long input, and all of short input', () => {
    const quoted = quoteInput('x'.repeat(1_000_000))
    expect(quoted.length).toBeLessThan(100)
    expect(quoted).toContain('(1000000 characters)')
    expect(quoteInput('tok_1')).toBe('tok_1')
    expect(quoteInput('a b')).toBe('"a b"')
    expect(quoteInput('')).toBe('""')
    expect(quoteInput('a\u0000b')).toBe('"a\\u0000b"')
  })

  it('never splits a surrogate pair', () => {
    const quoted = quoteInput('😀'.repeat(100))
    expect(quoted).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/)
  })

  it('bounds any sentence', () => {
    expect(boundErrorSentence('a'.repeat(5000)).length).toBe(1001)
    expect(boundErrorSentence('short')).toBe('short')
  })
})
