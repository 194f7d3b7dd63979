import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { KAI_GENESIS_MS, epochMsAtMicroPulse, integerSquareRoot, kaiMicroPulses, kaiMomentAt } from './kai.js'

// Golden vectors computed independently with Python's decimal module at 80 digits:
// floor((ms − genesis) / 1000 / (3+√5) × 10^6).
const GOLDEN: readonly [string, number, number, number][] = [
  ['genesis', KAI_GENESIS_MS, 0, 0],
  ['genesis + 1 ms', KAI_GENESIS_MS + 1, 190, 0],
  ['last ms of pulse 0', KAI_GENESIS_MS + 5236, 999_987, 0],
  ['first ms of pulse 1', KAI_GENESIS_MS + 5237, 1_000_178, 1],
  ['2026-06-25T00:00:00Z', Date.parse('2026-06-25T00:00:00Z'), 12_800_074_101_406, 12_800_074],
  ['2026-11-21T04:34:00Z', Date.parse('2026-11-21T04:34:00Z'), 15_261_852_683_233, 15_261_852],
  ['one second before genesis', KAI_GENESIS_MS - 1000, -190_984, -1],
]

describe('Kai-Klok time', () => {
  it.each(GOLDEN)('%s', (_label, ms, uPulse, pulse) => {
    expect(kaiMicroPulses(ms)).toBe(BigInt(uPulse))
    expect(kaiMomentAt(ms)).toEqual({ uPulse, pulse })
  })

  it('never decreases and advances by about 191 μpulses per ms', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000_000 }), (offset) => {
        const ms = KAI_GENESIS_MS + offset
        const step = kaiMicroPulses(ms + 1) - kaiMicroPulses(ms)
        expect(step === 190n || step === 191n).toBe(true)
      }),
    )
  })

  it('inverts: the first millisecond reaching a μpulse count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4_000_000_000_000 }), (offset) => {
        const ms = KAI_GENESIS_MS + offset
        const target = kaiMicroPulses(ms)
        const first = epochMsAtMicroPulse(target)
        expect(first).toBeLessThanOrEqual(ms)
        expect(kaiMicroPulses(first)).toBeGreaterThanOrEqual(target)
        expect(kaiMicroPulses(first - 1)).toBeLessThan(target)
      }),
      { numRuns: 200 },
    )
  })

  it('takes exact integer square roots', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), (n) => {
        const r = integerSquareRoot(n)
        expect(r * r <= n && (r + 1n) * (r + 1n) > n).toBe(true)
      }),
    )
  })
})
