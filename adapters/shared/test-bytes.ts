/** Bytes for blob adapter tests and benches: deterministic patterns, chunked sources, collected streams. */

/**
 * `length` bytes that differ from position to position and from seed to seed.
 *
 * @example patternedBytes(4, 1) // the same 4 bytes on every run
 */
export function patternedBytes(length: number, seed = 0): Uint8Array {
  const bytes = new Uint8Array(length)
  for (let i = 0; i < length; i += 1) bytes[i] = (i * 31 + seed * 101 + (i >> 8)) & 0xff
  return bytes
}

/** `bytes` as a stream of `size`-byte chunks (views, not copies). */
export async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.byteLength; offset += size) yield bytes.subarray(offset, offset + size)
}

/** Every byte of `stream` (none when it is undefined). */
export async function collectBytes(stream: AsyncIterable<Uint8Array> | undefined): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  for await (const chunk of stream ?? []) chunks.push(chunk)
  const joined = Buffer.concat(chunks)
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength)
}
