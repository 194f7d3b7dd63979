/**
 * RFC 8785 (JSON Canonicalization Scheme) bytes of a JSON value: every digest Cairn computes over
 * JSON hashes these bytes, so two parties that agree on the value agree on the digest.
 */
import canonicalize from 'canonicalize'
import { DECLINED, plainCanonicalJson, type MemberCapture } from './plain-canonical-json.js'

const encoder = new TextEncoder()

/**
 * The canonical JSON text of `value`.
 *
 * @example canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  const plain = plainCanonicalJson(value)
  if (plain !== DECLINED) return plain
  const text = canonicalize(value)
  if (text === undefined) throw new TypeError('Value has no JSON form')
  return text
}

/** The UTF-8 bytes of the canonical JSON text of `value`. */
export function canonicalJsonBytes(value: unknown): Uint8Array {
  return encoder.encode(canonicalJson(value))
}

/**
 * The canonical JSON text of `value` and, from the same pass, that of its top-level member `name`
 * (what a signature over that member covers): undefined when there is no such member, or when the
 * text was written by the package (the caller then asks `canonicalJson` for the member).
 */
export function canonicalJsonWithMember(value: unknown, name: string): { readonly text: string; readonly member: string | undefined } {
  const capture: MemberCapture = { name }
  const plain = plainCanonicalJson(value, 0, capture)
  return plain === DECLINED ? { text: canonicalJson(value), member: undefined } : { text: plain, member: capture.text }
}
