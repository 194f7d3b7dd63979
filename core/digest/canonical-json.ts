/**
 * RFC 8785 (JSON Canonicalization Scheme) bytes of a JSON value: every digest Cairn computes over
 * JSON hashes these bytes, so two parties that agree on the value agree on the digest.
 */
import canonicalize from 'canonicalize'
import { DECLINED, plainCanonicalJson } from './plain-canonical-json.js'

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
