/**
 * Standard padded base64 (RFC 4648 §4), as signed notes and checkpoints write it. Built on btoa
 * and a decoding table rather than Buffer so the verifier runs unchanged in a browser.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Every seal re-encodes the log's partial tile and entry bundle (kilobytes), so whole runs of bytes go to String.fromCharCode at once. */
export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  // apply, not spread: spreading a typed array goes through its iterator and is slower than no batching at all.
  for (let at = 0; at < bytes.length; at += 0x2000) binary += String.fromCharCode.apply(null, bytes.subarray(at, at + 0x2000) as unknown as number[])
  return btoa(binary)
}

/** The value of each base64 character (RFC 4648 §4) by its code, -1 for any other (`=` included: padding is counted apart). */
const BASE64_VALUES = (() => {
  const values = new Int8Array(128).fill(-1)
  for (let i = 0; i < ALPHABET.length; i++) values[ALPHABET.charCodeAt(i)] = i
  return values
})()

/**
 * Strict: undefined unless `text` is canonical padded base64. Canonical means the bits padding
 * leaves unused are zero (`QQ==`, never `QR==`). Checked and decoded in one pass over a table: a
 * verify reads a dozen proof hashes, a signature and a root hash through here, where a pattern,
 * atob's string and a copy loop cost a microsecond each; the log's tiles and bundles take the same pass.
 */
export function fromBase64(text: string): Uint8Array | undefined {
  const length = text.length
  if (length % 4 !== 0) return undefined
  // Up to two `=` close the text; any other `=` fails the table below.
  const padding = length === 0 || text.charCodeAt(length - 1) !== EQUALS ? 0 : text.charCodeAt(length - 2) === EQUALS ? 2 : 1
  return decodeBase64Digits(text, length - padding, BASE64_VALUES)
}

/**
 * The bytes of the base64 digits `text[0, characters)`, each valued by `values` (by character
 * code, -1 for any other), in one pass; undefined on any other character, or when the bits the last
 * digit leaves unused are not zero (the canonical form). Both alphabets (§4 here, base64url in
 * core/proof/bytes.ts) decode through it.
 */
export function decodeBase64Digits(text: string, characters: number, values: Int8Array): Uint8Array | undefined {
  const out = new Uint8Array((characters * 3) >> 2)
  let buffered = 0
  let bits = 0
  let at = 0
  for (let i = 0; i < characters; i++) {
    const code = text.charCodeAt(i)
    const value = code < 128 ? values[code]! : -1
    if (value < 0) return undefined
    buffered = ((buffered << 6) | value) & 0xfff
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[at++] = buffered >> bits
    }
  }
  return (buffered & ((1 << bits) - 1)) === 0 ? out : undefined
}

const EQUALS = 0x3d

/** Every byte's two hex digits, looked up: a seal and a verify write key IDs, codes and memo keys in hex, and `toString(16).padStart` per byte cost four times as much. */
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))

export function toHex(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i++) out += HEX_BYTES[bytes[i]!]!
  return out
}
