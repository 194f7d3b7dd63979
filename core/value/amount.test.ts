import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { formatUsdDollars, parseMinorUnits, parsePhi, parseUsdDollars } from './amount.js'
import { formatPhi, phiMicroForCents, PhiPerUsd } from './phi-price.js'
import * as E from 'fp-ts/lib/Either.js'

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

  it('parses Φ with at most six decimals and round-trips every micro-Φ amount', () => {
    expect(parsePhi('2.5')).toEqual({ ok: true, amount: 2_500_000n })
    expect(parsePhi('0.000001')).toEqual({ ok: true, amount: 1n })
    for (const bad of ['0', '0.0000001', '-1', '1e3', '.5', '']) expect(parsePhi(bad).ok).toBe(false)
    fc.assert(fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), (micro) => {
      expect(parsePhi(formatPhi(micro))).toEqual({ ok: true, amount: micro })
    }))
  })

  it('a Φ price per dollar with at most four decimals buys a whole number of micro-Φ per cent', () => {
    expect(phiMicroForCents(1250n, '100')).toBe(1_250_000_000n)
    expect(phiMicroForCents(1n, '0.0001')).toBe(1n)
    expect(phiMicroForCents(7n, '2.5')).toBe(175_000n)
    for (const bad of ['0', '0.0000', '1.23456', '-1', '1e2', 100]) expect(E.isLeft(PhiPerUsd.decode(bad))).toBe(true)
  })
})
