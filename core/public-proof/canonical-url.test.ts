/** Properties of the canonical URL rule: canonical forms are fixed points and only http(s) passes. */
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { canonicalSourceUrl } from './canonical-url.js'

describe('canonicalSourceUrl (properties)', () => {
  it('is idempotent on every http(s) URL it accepts, and never keeps a fragment', () => {
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true }), (url) => {
        const once = canonicalSourceUrl(url)
        if (E.isLeft(once)) return
        expect(once.right.url.includes('#')).toBe(false)
        expect(canonicalSourceUrl(once.right.url)).toEqual(once)
      }),
      { numRuns: 300 },
    )
  })

  it('refuses every URL whose scheme is not http or https', () => {
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ['ftp', 'file', 'ws', 'data', 'gopher'] }), (url) => {
        expect(E.isLeft(canonicalSourceUrl(url))).toBe(true)
      }),
      { numRuns: 100 },
    )
  })
})
