import { randomBytes } from 'node:crypto'
import type { Entropy } from '../../ports/entropy.js'

/** Bytes drawn from the operating system at once; small requests are served from them. */
const POOL_BYTES = 4096
/** Requests larger than this go to the operating system directly. */
const POOLED_AT_MOST = 256

/**
 * Cryptographically strong randomness from the operating system. Ids and nonces of 16–32 bytes are
 * asked for several times per request, and each `randomBytes` call costs far more than the bytes,
 * so small requests are cut from a pool (as Node's own `randomUUID` does); bytes handed out are
 * wiped from the pool, never given twice.
 */
export class CryptoEntropy implements Entropy {
  private pool = Buffer.alloc(0)
  private offset = 0

  bytes(length: number): Uint8Array {
    if (length > POOLED_AT_MOST) return new Uint8Array(randomBytes(length))
    if (this.offset + length > this.pool.length) {
      this.pool = randomBytes(POOL_BYTES)
      this.offset = 0
    }
    const start = this.offset
    this.offset += length
    const out = new Uint8Array(this.pool.subarray(start, this.offset))
    this.pool.fill(0, start, this.offset)
    return out
  }
}
