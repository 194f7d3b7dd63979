/** SHA-256 as lowercase hex: the content address of bytes and the value of every digest. */
import { createHash } from 'node:crypto'
import { canonicalJsonBytes } from './canonical-json.js'

/**
 * @example sha256Hex(new Uint8Array()) // 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
 */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** SHA-256 over the RFC 8785 canonical JSON of `value`. */
export function sha256OfJson(value: unknown): string {
  return sha256Hex(canonicalJsonBytes(value))
}
