import * as crypto from 'node:crypto'
import type { Entropy } from '../../ports/entropy.js'

// One-shot `crypto.hash` (Node ≥ 20.12) where present: the same digest without building a Hash object.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash
const sha256 = (text: string): Buffer => (oneShot ? oneShot('sha256', text, 'buffer') : crypto.createHash('sha256').update(text).digest())

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
    const block = sha256(`${this.seed}:${this.counter}`)
    this.counter += 1
    return new Uint8Array(block)
  }
}
