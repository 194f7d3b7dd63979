import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { formatUsdDollars, parseMinorUnits, parseUsdDollars } from './amount.js'

describe('exact amounts', () => {
  it('parses whole minor units and refuses signs, fractions, leading zeros, zero and too much', () => {
    expect(parseMinorUnits('1250', 'usd')).toEqual({ ok: true, amount: 1250n })
    expect(parseMinorUnits('1000000000000000', 'phi')).toEqual({ ok: true, amount: 10n ** 15n })
    for (const bad of ['0', '-1', '1.5', '01', '', ' 1', '1e3', '1000000000000001']) expect(parseMinorUnits(bad, 'phi').ok).toBe(false)
  })

  it('parses dollars with at most two decimals into cents, bounded to $999,999.99', () => {
    expect(parseUsdDollars('12.5')).toEqual({ ok: true, amount: 1250n })
    expect(parseUsdDollars('0.01')).toEqual({ ok: true, amount: 1n })
    expect(parseUsdDollars('999999.99')).toEqual({ ok: true, amount: 99_999_999n })
    for (const bad of ['0', '0.00', '1.234', '-1', '1,00', '1000000', '.5', '1.', 'NaN']) expect(parseUsdDollars(bad).ok).toBe(false)
  })

  it('round-trips every cent amount exactly (no binary fractions anywhere)', () => {
    fc.assert(fc.property(fc.bigInt({ min: 1n, max: 99_999_999n }), (cents) => {
      expect(parseUsdDollars(formatUsdDollars(cents))).toEqual({ ok: true, amount: cents })
    }))
    expect(formatUsdDollars(10n)).toBe('0.10') // 0.1 in binary floating point is not exact; here it is
  })
})
