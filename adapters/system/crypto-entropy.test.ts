import { describe, expect, it } from 'vitest'
import { CryptoEntropy } from './crypto-entropy.js'

describe('CryptoEntropy', () => {
  it('never hands out the same bytes twice across pool refills, in every size', () => {
    const entropy = new CryptoEntropy()
    const seen = new Set<string>()
    for (let i = 0; i < 2000; i++) {
      const bytes = entropy.bytes(16 + (i % 17))
      expect(bytes).toHaveLength(16 + (i % 17))
      const hex = Buffer.from(bytes).toString('hex')
      expect(seen.has(hex)).toBe(false)
      seen.add(hex)
    }
  })

  it('returns copies the pool cannot change, and serves large requests directly', () => {
    const entropy = new CryptoEntropy()
    const first = entropy.bytes(32)
    const kept = Buffer.from(first)
    for (let i = 0; i < 300; i++) entropy.bytes(32) // refills the pool more than once
    expect(Buffer.from(first).equals(kept)).toBe(true)
    expect(entropy.bytes(5000)).toHaveLength(5000)
  })

  it('looks uniform: every byte value appears across 64 KiB drawn in small pieces', () => {
    const entropy = new CryptoEntropy()
    const counts = new Array<number>(256).fill(0)
    for (let i = 0; i < 4096; i++) for (const byte of entropy.bytes(16)) counts[byte]!++
    // 65,536 bytes: each value is expected 256 times; a fixed pattern or wiped zeros would show.
    expect(Math.min(...counts)).toBeGreaterThan(150)
    expect(Math.max(...counts)).toBeLessThan(380)
  })
})
