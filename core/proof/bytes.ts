/**
 * Byte helpers that run unchanged in Node and in a browser (no Buffer): the offline verifier is
 * bundled for the /verify page from these same files.
 */
import { decodeBase64Digits, toBase64 } from '../tlog/base64.js'

const encoder = new TextEncoder()
const strictDecoder = new TextDecoder('utf-8', { fatal: true })

export const utf8 = (text: string): Uint8Array => encoder.encode(text)

/** UTF-8 text, or undefined when the bytes are not valid UTF-8. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return strictDecoder.decode(bytes)
  } catch {
    return undefined
  }
}

/** Bytes as Latin-1 text, one character per byte: for searching ASCII syntax in binary files. */
export function latin1(bytes: Uint8Array): string {
  let out = ''
  // apply, not spread: spreading a typed array goes through its iterator, several times slower.
  for (let at = 0; at < bytes.length; at += 0x8000) out += String.fromCharCode.apply(null, bytes.subarray(at, at + 0x8000) as unknown as number[])
  return out
}

/** Latin-1 text (every character below U+0100) as bytes, one byte per character: `latin1`'s inverse. */
export function latin1Bytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length)
  for (let at = 0; at < text.length; at++) out[at] = text.charCodeAt(at)
  return out
}

export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  let length = 0
  for (const part of parts) length += part.length
  const out = new Uint8Array(length)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && equalRange(a, 0, b, 0, a.length)
}

/**
 * Whether `a[aStart, aStart+length)` equals `b[bStart, bStart+length)`. On Node, ranges past a few
 * dozen bytes go to Buffer's native compare (a verifier compares a small package's headers and
 * proof, kilobytes, at an offset that rarely lines up); elsewhere 32-bit words where both line up.
 */
export function equalRange(a: Uint8Array, aStart: number, b: Uint8Array, bStart: number, length: number): boolean {
  if (aStart + length > a.length || bStart + length > b.length) return false
  if (nativeView && length >= NATIVE_COMPARE_MIN) return nativeView(a).compare(nativeView(b), bStart, bStart + length, aStart, aStart + length) === 0
  return portableEqualRange(a, aStart, b, bStart, length)
}

/** Below this many bytes, making two Buffer views costs more than comparing in JavaScript. */
const NATIVE_COMPARE_MIN = 64

/** equalRange without Buffer (a browser's path), for ranges within both arrays. */
export function portableEqualRange(a: Uint8Array, aStart: number, b: Uint8Array, bStart: number, length: number): boolean {
  let i = 0
  const aOffset = a.byteOffset + aStart
  const bOffset = b.byteOffset + bStart
  if ((aOffset & 3) === (bOffset & 3)) {
    while (i < length && ((aOffset + i) & 3) !== 0) {
      if (a[aStart + i] !== b[bStart + i]) return false
      i++
    }
    const words = (length - i) >>> 2
    if (words > 0) {
      const aWords = new Uint32Array(a.buffer, aOffset + i, words)
      const bWords = new Uint32Array(b.buffer, bOffset + i, words)
      for (let w = 0; w < words; w++) if (aWords[w] !== bWords[w]) return false
      i += words << 2
    }
  }
  for (; i < length; i++) if (a[aStart + i] !== b[bStart + i]) return false
  return true
}

/** Node's Buffer, found at run time (no import, so the browser bundle needs none): its searches and comparisons are native. */
type NativeSearch = Uint8Array & {
  indexOf(needle: Uint8Array, from: number): number
  lastIndexOf(needle: Uint8Array, from: number): number
  compare(target: Uint8Array, targetStart: number, targetEnd: number, sourceStart: number, sourceEnd: number): number
}
const nodeBuffer = (globalThis as { Buffer?: { from(buffer: ArrayBufferLike, byteOffset: number, length: number): NativeSearch } }).Buffer
const nativeView = nodeBuffer ? (bytes: Uint8Array) => nodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : undefined

/**
 * First index of `needle` in `haystack` at or after `from`, or -1. On Node, Buffer's native search
 * (a typed array's `indexOf` of one byte scans about as slowly as SHA-256 hashes, which made
 * looking for an SVG's proof a second pass over the file).
 */
export function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  if (needle.length === 0) return from
  return nativeView ? nativeView(haystack).indexOf(needle, from) : portableIndexOfBytes(haystack, needle, from)
}

/** Last index of `needle` in `haystack` starting at or before `from`, or -1 (natively on Node, as indexOfBytes). */
export function lastIndexOfBytes(haystack: Uint8Array, needle: Uint8Array, from = haystack.length - needle.length): number {
  if (needle.length === 0) return from
  return nativeView ? nativeView(haystack).lastIndexOf(needle, from) : portableLastIndexOfBytes(haystack, needle, from)
}

/** indexOfBytes without Buffer (a browser's path). */
export function portableIndexOfBytes(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  if (needle.length === 0) return from
  const first = needle[0]!
  for (let at = haystack.indexOf(first, from); at !== -1 && at + needle.length <= haystack.length; at = haystack.indexOf(first, at + 1)) {
    let i = 1
    while (i < needle.length && haystack[at + i] === needle[i]) i++
    if (i === needle.length) return at
  }
  return -1
}

/** lastIndexOfBytes without Buffer (a browser's path). */
export function portableLastIndexOfBytes(haystack: Uint8Array, needle: Uint8Array, from = haystack.length - needle.length): number {
  if (needle.length === 0) return from
  const first = needle[0]!
  for (let at = haystack.lastIndexOf(first, from); at !== -1; at = at === 0 ? -1 : haystack.lastIndexOf(first, at - 1)) {
    if (at + needle.length > haystack.length) continue
    let i = 1
    while (i < needle.length && haystack[at + i] === needle[i]) i++
    if (i === needle.length) return at
  }
  return -1
}

/** Unpadded base64url (RFC 4648 §5). */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/=+$/u, '').replace(/\+/gu, '-').replace(/\//gu, '_')
}

/** The value of each base64url character (RFC 4648 §5) by its code, -1 for any other. */
const BASE64URL_VALUES = (() => {
  const values = new Int8Array(128).fill(-1)
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
  for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i
  return values
})()

/**
 * Strict unpadded base64url, or undefined: only the alphabet, no length that leaves a lone
 * character, and the bits the last character leaves unused are zero (the canonical form). Decoded
 * in one pass over the text, not rewritten into padded base64 first: every signature a verifier
 * checks is read through here.
 */
export function fromBase64Url(text: string): Uint8Array | undefined {
  return text.length % 4 === 1 ? undefined : decodeBase64Digits(text, text.length, BASE64URL_VALUES)
}

/** Lower-case hex, two digits a byte (the log's own, one table for both). */
export { toHex } from '../tlog/base64.js'
