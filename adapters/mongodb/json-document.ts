/**
 * How a Json value is kept in a BSON document. Most values are stored as they are, so operators can
 * read them in any MongoDB tool and indexes can reach their fields. BSON cannot keep every JSON value
 * exactly (a key with a NUL byte, a lone UTF-16 surrogate, `$`-prefixed keys the server treats as
 * operators, nesting deeper than the server allows), nor give an indexed field Mongo's array
 * semantics without changing what the port means; such a value is kept as JSON text, beside a
 * `value` holding only its top-level string and number fields so the indexes still see them.
 */
import type { Json } from '../../ports/store.js'

/** The fields a stored value occupies in its MongoDB document. */
export interface StoredJsonFields {
  readonly value: unknown
  /** The exact JSON text, present only when `value` could not hold the value as it is. */
  readonly json?: string
}

/** Mongo refuses documents nested deeper than 100 levels; leave room for the envelope. */
const MAX_NATIVE_DEPTH = 90

/**
 * The document fields that store `value`. `indexedFields` are top-level fields an index reads: they
 * must hold a string or a number (or be absent) for the value to be stored natively.
 *
 * @example encodeJson({ email: 'a@b.c' }, new Set(['email'])) // { value: { email: 'a@b.c' } }
 */
export function encodeJson(value: Json, indexedFields: ReadonlySet<string> = new Set()): StoredJsonFields {
  if (isNativelyStorable(value, 0) && indexedFieldsAreScalars(value, indexedFields)) return { value }
  return { value: indexableProjection(value), json: JSON.stringify(value) }
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

function indexedFieldsAreScalars(value: Json, indexedFields: ReadonlySet<string>): boolean {
  if (indexedFields.size === 0) return true
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return true
  const record = value as Record<string, Json>
  for (const field of indexedFields) {
    if (!Object.hasOwn(record, field)) continue
    const item = record[field]
    if (item !== null && typeof item !== 'string' && typeof item !== 'number') return false
  }
  return true
}

/** Top-level string and number fields that BSON keeps exactly: what indexes need to see. */
function indexableProjection(value: Json): Record<string, string | number> {
  const projection: Record<string, string | number> = {}
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return projection
  for (const [key, item] of Object.entries(value as Record<string, Json>)) {
    if (key.includes('\u0000') || key.startsWith('$') || !isWellFormed(key)) continue
    if (typeof item === 'number' || (typeof item === 'string' && isWellFormed(item))) projection[key] = item
  }
  return projection
}

/** BSON strings are UTF-8: a lone surrogate would come back as U+FFFD. */
function isWellFormed(text: string): boolean {
  // With the u flag a surrogate pair is one code point, so \p{Cs} only matches a lone surrogate.
  return !/\p{Cs}/u.test(text)
}
