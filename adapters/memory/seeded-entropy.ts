import { sha256Bytes } from '../../core/digest/sha256.js'
import type { Entropy } from '../../ports/entropy.js'

/**
 * Deterministic bytes from a seed (SHA-256 in counter mode): tests pin entropy with it, so
 * identifiers and nonces are golden. Never use it outside tests.
 *
 * @example new SeededEntropy('test').bytes(4)
 */
export class SeededEntropy implements Entropy {
  private counter = 0
  private pool: Uint8Array = new Uint8Array(0)

  constructor(private readonly seed: string) {}

  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length)
    let filled = 0
    while (filled < length) {
      if (this.pool.length === 0) this.pool = this.nextBlock()
      const take = Math.min(this.pool.length, length - filled)
      out.set(this.pool.subarray(0, take), filled)
      this.pool = this.pool.subarray(take)
      filled += take
    }
    return out
  }

  private nextBlock(): Uint8Array {
    const block = sha256Bytes(`${this.seed}:${this.counter}`)
    this.counter += 1
    return block
  }
}
