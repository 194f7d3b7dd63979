/** Randomness. Everything in Cairn that needs random bytes asks this port, so tests can pin it. */
export interface Entropy {
  /** `length` random bytes. */
  bytes(length: number): Uint8Array
}
