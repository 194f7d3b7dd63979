import { describe, expect, it } from 'vitest'
import { FixedClock } from './fixed-clock.js'
import { SeededEntropy } from './seeded-entropy.js'
import { CryptoEntropy, SystemClock } from '../system/index.js'

describe('pinned clock and entropy', () => {
  it('moves a fixed clock only when told', () => {
    const clock = new FixedClock(1000)
    expect(clock.now()).toBe(1000)
    clock.advance(500)
    expect(clock.now()).toBe(1500)
  })

  it('repeats seeded bytes exactly (golden: SHA-256("seed:0"))', () => {
    const a = new SeededEntropy('seed')
    const b = new SeededEntropy('seed')
    const first = a.bytes(40)
    expect(b.bytes(10)).toEqual(first.subarray(0, 10))
    expect(b.bytes(30)).toEqual(first.subarray(10))
    expect(Buffer.from(first.subarray(0, 4)).toString('hex')).toBe(GOLDEN_PREFIX)
  })

  it('reads the system clock and entropy', () => {
    const before = Date.now()
    expect(new SystemClock().now()).toBeGreaterThanOrEqual(before)
    const bytes = new CryptoEntropy().bytes(32)
    expect(bytes).toHaveLength(32)
    expect(bytes).not.toEqual(new CryptoEntropy().bytes(32))
  })
})

const GOLDEN_PREFIX = '58f9082d'
