/** SHA-256 as unpadded base64url: the form of JWK thumbprints (RFC 7638). */
import { createHash } from 'node:crypto'

/** @example sha256Base64Url('') // '47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU' */
export function sha256Base64Url(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('base64url')
}
