/**
 * How a Json value is kept in a BSON document. Most values are stored as they are, so operators can
 * read them in any MongoDB tool. BSON cannot keep every JSON value exactly (a key with a NUL byte, a
 * lone UTF-16 surrogate, `$`-prefixed keys the server treats as operators, nesting deeper than the
 * server allows); such a value is kept as JSON text in `json` instead. Indexes never read `value`:
 * they read the `indexed` copy (index-keys.ts), so how a value is stored never changes what an index
 * sees.
 */
import type { Json } from '../../ports/store.js'

/** The fields a stored value occupies in its MongoDB document. */
export interface StoredJsonFields {
  /** The value as it is, when BSON keeps it exactly. */
  readonly value?: unknown
  /** The exact JSON text, present only when `value` could not hold the value as it is. */
  readonly json?: string
}

/** Mongo refuses documents nested deeper than 100 levels; leave room for the envelope. */
const MAX_NATIVE_DEPTH = 90

/**
 * The document fields that store `value`.
 *
 * @example encodeJson({ email: 'a@b.c' }) // { value: { email: 'a@b.c' } }
 */
export function encodeJson(value: Json): StoredJsonFields {
  if (isNativelyStorable(value, 0)) return { value }
  return { json: JSON.stringify(value) }
}

/** The Json value kept in a document written by `encodeJson`. */
export function decodeJson(stored: { readonly value?: unknown; readonly json?: unknown }): Json {
  if (typeof stored.json === 'string') return JSON.parse(stored.json) as Json
  return (stored.value ?? null) as Json
}

function isNativelyStorable(value: Json, depth: number): boolean {
  if (typeof value === 'string') return isWellFormed(value)
  if (value === null || typeof value !== 'object') return true
  if (depth >= MAX_NATIVE_DEPTH) return false
  if (Array.isArray(value)) return value.every((item) => isNativelyStorable(item, depth + 1))
  for (const [key, item] of Object.entries(value as Record<string, Json>)) {
    if (key.includes('\u0000') || key.startsWith('$') || !isWellFormed(key)) return false
    if (!isNativelyStorable(item, depth + 1)) return false
  }
  return true
}

/** BSON strings are UTF-8: a lone surrogate would come back as U+FFFD. */
export function isWellFormed(text: string): boolean {
  // With the u flag a surrogate pair is one code point, so \p{Cs} only matches a lone surrogate.
  return !/\p{Cs}/u.test(text)
}
