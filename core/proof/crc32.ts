/** CRC-32 (ISO 3309, the polynomial PNG chunks and ZIP entries use), table driven. */
const TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/**
 * CRC-32 of one array. Callers that see whole files take it as a parameter, so Node passes the
 * native `zlib.crc32` (`nodeCrc32`, several GB/s) and the browser verifier keeps this one.
 */
export type Crc32 = (bytes: Uint8Array) => number

/** @example crc32(new TextEncoder().encode('IEND')) // 0xae426082 */
export function crc32(...parts: readonly Uint8Array[]): number {
  let crc = 0xffffffff
  for (const bytes of parts) for (let i = 0; i < bytes.length; i++) crc = TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

export const jsCrc32: Crc32 = (bytes) => crc32(bytes)

/** A CRC-32 as a statement signs it: 8 lowercase hex digits, as `unzip -v` shows it. */
export const crc32Hex = (crc: number): string => (crc >>> 0).toString(16).padStart(8, '0')
