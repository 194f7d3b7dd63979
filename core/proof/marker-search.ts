/**
 * A search for a carrier's proof marker in bytes given chunk by chunk, so it runs on the chunks a
 * hash has just read (still in cache) instead of in a pass of its own over the file. Portable (the
 * browser verifier bundles it); on Node each chunk is searched natively (`indexOfBytes`).
 */
import { concatBytes, indexOfBytes } from './bytes.js'

export class MarkerSearch {
  /** Offset of the marker's first occurrence in the bytes given so far, or -1. */
  found = -1
  /** How many bytes were given so far. */
  length = 0
  /** The last `marker.length - 1` bytes given: an occurrence straddling two chunks starts in them. */
  private tail = new Uint8Array(0)

  constructor(private readonly marker: Uint8Array) {}

  /** The next bytes, directly after those given before. */
  update(chunk: Uint8Array): void {
    if (this.found === -1) {
      // Tail and chunk head (each shorter than the marker) hold only occurrences that straddle them,
      // which start in the tail with the marker's first byte (rarely there: looked for before joining them).
      const keep = this.marker.length - 1
      const straddles = this.tail.includes(this.marker[0]!)
      const straddling = straddles ? indexOfBytes(concatBytes(this.tail, chunk.subarray(0, keep)), this.marker) : -1
      const within = straddling === -1 ? indexOfBytes(chunk, this.marker) : -1
      if (straddling !== -1) this.found = this.length - this.tail.length + straddling
      else if (within !== -1) this.found = this.length + within
      const last = chunk.length >= keep ? chunk : concatBytes(this.tail, chunk)
      this.tail = last.slice(Math.max(0, last.length - keep))
    }
    this.length += chunk.length
  }
}

/** How a digest shows its caller the bytes it hashes: every byte of every part once, in order, chunk by chunk. */
export type DigestWatch = (chunk: Uint8Array, part: number) => void

/**
 * A digest's `watch` (each chunk as it is hashed, with the index of its part) feeding one search per
 * part (parts are not contiguous in the file, so nothing straddles two); `found` searches any part
 * the digest did not show in full (a digest that does not watch, as WebCrypto's one-shot cannot).
 */
export function partsSearch(parts: readonly Uint8Array[], marker: Uint8Array): { readonly watch: DigestWatch; found(): boolean } {
  const searches = parts.map(() => new MarkerSearch(marker))
  return {
    watch: (chunk, part) => searches[part]!.update(chunk),
    found: () => parts.some((part, i) => (searches[i]!.length === part.length ? searches[i]!.found !== -1 : indexOfBytes(part, marker) !== -1)),
  }
}
