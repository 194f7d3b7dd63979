import { randomBytes } from 'node:crypto'
import type { Entropy } from '../../ports/entropy.js'

/** Cryptographically strong randomness from the operating system. */
export class CryptoEntropy implements Entropy {
  bytes(length: number): Uint8Array {
    return new Uint8Array(randomBytes(length))
  }
}
