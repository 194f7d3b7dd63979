/**
 * No floating point touches value: the value modules hold amounts as bigint and parse them with
 * BigInt from validated decimal strings. This scan fails when one of them gains a float-producing
 * construct (Number arithmetic, parseFloat, toFixed, Math, a fractional literal, a division or a
 * unary plus); bigint division (`cents / 100n`) and integer Math.min/max of page sizes pass. Kai time uses `kaiMomentAt(…).pulse/uPulse` (integers from bigint arithmetic).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const here = dirname(fileURLToPath(import.meta.url))
const valueModules = readdirSync(here).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))

const FORBIDDEN: readonly (readonly [string, RegExp])[] = [
  ['Number()', /\bNumber\s*\(/],
  ['parseFloat', /\bparseFloat\b/],
  ['parseInt', /\bparseInt\b/],
  ['toFixed', /\.toFixed\b/],
  ['Math.* (other than integer min/max)', /\bMath\.(?!min\b|max\b)/],
  ['a fractional literal', /(?<![\w.])\d+\.\d+(?![\w.])/],
  ['a division (other than by a bigint literal)', /[^/*\s]\s*\/\s*(?!\d+n\b)[\w(]/],
  ['unary plus', /[=(,:]\s*\+\s*[\w(]/],
  ['parseUsd via float', /\*\s*100\b(?!n)/],
]

/** Code without comments and string/regex literals, so prose and patterns are not scanned. */
function codeOf(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/`(?:\\.|[^`\\])*`/g, '``')
    .replace(/'(?:\\.|[^'\\])*'/g, "''")
    .replace(/(?<=[=(,:]\s*)\/(?:\\.|[^/\\\n])+\/[gimsuy]*/g, 'REGEX')
}

describe('no floating point in value modules', () => {
  it('scans every value module', () => expect(valueModules.length).toBeGreaterThan(8))
  for (const name of valueModules) {
    it(name, () => {
      const code = codeOf(readFileSync(join(here, name), 'utf8'))
      const found = FORBIDDEN.filter(([, pattern]) => pattern.test(code)).map(([what]) => what)
      expect(found, `${name} uses ${found.join(', ')}`).toEqual([])
    })
  }
  it('the scan catches what it is meant to catch', () => {
    const offending = ['const x = Number(a) + 1', 'parseFloat(s)', 'amount.toFixed(2)', 'const c = 0.1 + 0.2', 'const y = a / 100', 'Math.round(a)', 'const z = +text']
    for (const line of offending) expect(FORBIDDEN.some(([, pattern]) => pattern.test(codeOf(line))), line).toBe(true)
  })
})
