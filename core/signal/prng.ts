/**
 * The Signal Circuit's only source of chance: xoshiro128** (Blackman and Vigna) seeded with the
 * SHA-256 of the seed text. 32-bit integer arithmetic only, so every machine draws the same numbers.
 */
import { createHash } from 'node:crypto'

export interface Rng {
  /** A uniform integer in [0, n), 1 ≤ n ≤ 2^32, without modulo bias. */
  below(n: number): number
}

/** @example seededRng('match-1').below(6) + 1 // a die roll */
export function seededRng(seed: string): Rng {
  const digest = createHash('sha256').update(`signal-circuit/rng\u0000${seed}`).digest()
  const s = new Uint32Array([digest.readUInt32BE(0), digest.readUInt32BE(4), digest.readUInt32BE(8), digest.readUInt32BE(12)])
  if (s[0]! === 0 && s[1]! === 0 && s[2]! === 0 && s[3]! === 0) s[0] = 1 // the one state xoshiro cannot leave
  const next = (): number => {
    const result = Math.imul(rotl(Math.imul(s[1]!, 5), 7), 9) >>> 0
    const t = (s[1]! << 9) >>> 0
    s[2]! ^= s[0]!
    s[3]! ^= s[1]!
    s[1]! ^= s[2]!
    s[0]! ^= s[3]!
    s[2]! ^= t
    s[3] = rotl(s[3]!, 11)
    return result
  }
  return {
    below(n) {
      if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError('below(n) needs an integer 1..2^32')
      const limit = 2 ** 32 - (2 ** 32 % n) // reject the top slice that would bias the modulo
      for (;;) {
        const value = next()
        if (value < limit) return value % n
      }
    },
  }
}

const rotl = (x: number, k: number): number => ((x << k) | (x >>> (32 - k))) >>> 0
