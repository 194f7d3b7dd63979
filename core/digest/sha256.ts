/** SHA-256 as lowercase hex: the content address of bytes and the value of every digest. */
import * as crypto from 'node:crypto'
import { canonicalJson } from './canonical-json.js'

// One-shot `crypto.hash` (Node ≥ 20.12) skips building a Hash object: about half the cost for the
// small inputs most digests here are (statements, stream entries, chain heads).
const oneShot = (crypto as { hash?: <E extends 'hex' | 'buffer'>(algorithm: string, data: Uint8Array | string, encoding: E) => E extends 'hex' ? string : Buffer }).hash

/**
 * @example sha256Hex(new Uint8Array()) // 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
 */
export function sha256Hex(bytes: Uint8Array | string): string {
  return oneShot ? oneShot('sha256', bytes, 'hex') : crypto.createHash('sha256').update(bytes).digest('hex')
}

/** SHA-256 as bytes of their own (not a view into a shared Buffer pool). @example sha256Bytes('abc').length // 32 */
export function sha256Bytes(bytes: Uint8Array | string): Uint8Array {
  return new Uint8Array(oneShot ? oneShot('sha256', bytes, 'buffer') : crypto.createHash('sha256').update(bytes).digest())
}

/** SHA-256 over the RFC 8785 canonical JSON of `value` (its UTF-8 bytes; the hash encodes the text itself, without a copy). */
export function sha256OfJson(value: unknown): string {
  return sha256Hex(canonicalJson(value))
}
