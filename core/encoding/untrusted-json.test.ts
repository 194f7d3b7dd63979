import { describe, expect, it } from 'vitest'
import { MAX_INPUT_DEPTH, untrustedJsonProblem } from './untrusted-json.js'

describe('untrustedJsonProblem', () => {
  it('accepts well-formed text (surrogate pairs included), every JSON value and bytes, up to the depth limit', () => {
    let nested: unknown = 'leaf'
    for (let level = 1; level < MAX_INPUT_DEPTH; level++) nested = level % 2 ? [nested] : { n: nested }
    for (const value of [undefined, null, 1, true, 'text 😀', { a: ['b', { c: 'd' }] }, nested, Object.assign(Object.create(null) as object, { a: 'b' })]) {
      expect(untrustedJsonProblem(value, 'body')).toBeUndefined()
    }
    // An uploaded file's bytes are data: a Uint8Array is not walked, whatever its bytes.
    expect(untrustedJsonProblem({ file: { bytes: new Uint8Array([0xed, 0xa0, 0x80]) } }, 'body')).toBeUndefined()
  })

  it('names where a lone surrogate is: a value, an array item, the root, or a member name', () => {
    expect(untrustedJsonProblem({ a: { b: ['ok', 'x\ud800'] } }, 'body')).toBe('body.a.b.1 must be well-formed Unicode text (it has a lone UTF-16 surrogate)')
    expect(untrustedJsonProblem('\udc00', 'query.cursor')).toBe('query.cursor must be well-formed Unicode text (it has a lone UTF-16 surrogate)')
    expect(untrustedJsonProblem({ a: { ['\ud800']: 1 } }, 'body')).toBe('body.a must not have a member name with a lone UTF-16 surrogate')
    expect(untrustedJsonProblem({ 'a b': '\ud800' }, 'body')).toBe('body."a b" must be well-formed Unicode text (it has a lone UTF-16 surrogate)')
  })

  it('refuses one level past the limit, and 1,000,000 levels without running out of stack', () => {
    let nested: unknown = []
    for (let level = 1; level < MAX_INPUT_DEPTH + 1; level++) nested = [nested]
    expect(untrustedJsonProblem(nested, 'body')).toBe(`body must not nest arrays and objects more than ${MAX_INPUT_DEPTH} levels deep`)
    const deep = JSON.parse(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`) as unknown
    expect(untrustedJsonProblem({ unknown: deep }, 'body')).toBe(`body must not nest arrays and objects more than ${MAX_INPUT_DEPTH} levels deep`)
  })
})
