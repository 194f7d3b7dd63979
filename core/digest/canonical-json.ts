/**
 * RFC 8785 (JSON Canonicalization Scheme) bytes of a JSON value: every digest Cairn computes over
 * JSON hashes these bytes, so two parties that agree on the value agree on the digest.
 */
import canonicalize from 'canonicalize'
import { inCanonicalOrder } from './ordered-json.js'
import { DECLINED, plainCanonicalJson } from './plain-canonical-json.js'

const encoder = new TextEncoder()

/**
 * The canonical JSON text of `value`.
 *
 * @example canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (inCanonicalOrder(value)) return JSON.stringify(value)
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
 * (what a signature over that member covers) when `value` is in canonical order already (parsed
 * canonical text); otherwise `member` is undefined and the caller asks `canonicalJson` for it.
 */
export function canonicalJsonWithMember(value: unknown, name: string): { readonly text: string; readonly member: string | undefined } {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !inCanonicalOrder(value)) return { text: canonicalJson(value), member: undefined }
  // JSON.stringify's own object form, member by member, so the member's text is kept on the way.
  let text = '{'
  let member: string | undefined
  for (const key of Object.keys(value)) {
    const memberText = JSON.stringify((value as Record<string, unknown>)[key])
    if (key === name) member = memberText
    text += `${text.length === 1 ? '' : ','}${JSON.stringify(key)}:${memberText}`
  }
  return { text: `${text}}`, member }
}
