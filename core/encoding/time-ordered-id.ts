/**
 * Identifiers that begin with the time they were made: the 16 bytes of an RFC 9562 UUIDv7 (48 bits
 * of Unix milliseconds, then version 7, variant `10` and 74 random bits) written as 22 characters
 * of base64url. Records written together then sit together in every store's key index (RFC 9562
 * §2.1 gives this reason for version 7): a batch of ledger entries dirties a page or two of the
 * index instead of one page per entry. The random bits keep two ids of one millisecond apart.
 */
import type { Entropy } from '../../ports/entropy.js'
import { toBase64Url } from './base64url.js'

/** The UUIDv7 bytes for `nowMs` (milliseconds since 1970, below 2^48; a fraction is dropped). */
export function timeOrderedIdBytes(nowMs: number, entropy: Entropy): Uint8Array {
  if (!(nowMs >= 0 && nowMs < 2 ** 48)) throw new RangeError('A UUIDv7 time is milliseconds from 1970 to the year 10889')
  const bytes = new Uint8Array(16)
  bytes.set(entropy.bytes(10), 6)
  let time = Math.floor(nowMs)
  for (let at = 5; at >= 0; at--) {
    bytes[at] = time % 256
    time = Math.floor(time / 256)
  }
  bytes[6] = 0x70 | (bytes[6]! & 0x0f) // version 7
  bytes[8] = 0x80 | (bytes[8]! & 0x3f) // variant 10 (RFC 9562 §4.1)
  return bytes
}

/** @example timeOrderedId('ent_', Date.now(), entropy) // 'ent_AZXk3v1ucxqKkOQ0vLh7Ug' */
export function timeOrderedId(prefix: string, nowMs: number, entropy: Entropy): string {
  return `${prefix}${toBase64Url(timeOrderedIdBytes(nowMs, entropy))}`
}
