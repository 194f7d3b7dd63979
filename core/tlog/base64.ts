/**
 * Standard padded base64 (RFC 4648 §4), as signed notes and checkpoints write it. Built on
 * btoa/atob rather than Buffer so the verifier runs unchanged in a browser.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Every seal re-encodes the log's partial tile and entry bundle (kilobytes), so whole runs of bytes go to String.fromCharCode at once. */
export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  // apply, not spread: spreading a typed array goes through its iterator and is slower than no batching at all.
  for (let at = 0; at < bytes.length; at += 0x2000) binary += String.fromCharCode.apply(null, bytes.subarray(at, at + 0x2000) as unknown as number[])
  return btoa(binary)
}

/**
 * Strict: undefined unless `text` is canonical padded base64. Canonical means the bits padding
 * leaves unused are zero (`QQ==`, never `QR==`): checked on the last character rather than by
 * encoding the result again.
 */
export function fromBase64(text: string): Uint8Array | undefined {
  // One character class and the length, not a pattern of groups: the same language, and the log
  // decodes its partial tile and entry bundle (tens of kilobytes) on every seal.
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0
  if (padding > 0) {
    const last = ALPHABET.indexOf(text[text.length - 1 - padding]!)
    if ((last & (padding === 2 ? 0x0f : 0x03)) !== 0) return undefined
  }
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** Every byte's two hex digits, looked up: a seal and a verify write key IDs, codes and memo keys in hex, and `toString(16).padStart` per byte cost four times as much. */
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))

export function toHex(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i++) out += HEX_BYTES[bytes[i]!]!
  return out
}
