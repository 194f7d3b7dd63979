/** Unpadded base64url (RFC 4648 §5): how exact bytes travel on the wire. */

/** @example toBase64Url(new Uint8Array([255, 254])) // '__4' */
export function toBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url')
}

/** Decodes strict unpadded base64url; undefined when the text is not base64url. */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined
  return new Uint8Array(Buffer.from(text, 'base64url'))
}
