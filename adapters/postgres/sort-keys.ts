/**
 * What PostgresStore's indexes read. Every document row carries `indexed`, a jsonb object with one
 * text sort key per top-level string or number field of its value, whatever indexes exist; so an
 * index declared later, or by another host, sees every document as MemoryStore orders it
 * (adapters/shared/index-order.ts). A field holding anything else (null, a boolean, an array, an
 * object) or no field at all reads as '0', before every number ('1…') and every string ('2…'),
 * and an array is never indexed through its elements.
 *
 * The keys compare as bytes (COLLATE "C") exactly as the values compare in index order:
 * - a number is '1' and 16 hex digits of its IEEE 754 bits, sign flipped (negative: every bit
 *   flipped), the classic order-preserving spelling of a double;
 * - a string is '2' and the string re-spelled so PostgreSQL text (UTF-8 without NUL) holds it in
 *   code-point order: U+0000 and U+0001 become \u0001\u0001 and \u0001\u0002 (an escape that keeps
 *   the order), U+0002…U+D7FF stay as they are, and every code point from U+D800 up, lone surrogates
 *   included, becomes two private-use characters U+E000 + (offset >> 10), U+E000 + (offset & 0x3FF)
 *   with offset = code point − 0xD800 (the MongoDB adapter's spelling, adapters/mongodb/index-keys.ts).
 */
import type { Json } from '../../ports/store.js'
import type { IndexValue } from '../shared/index-order.js'

/** The sort key of a field holding no string or number. */
export const NO_VALUE_KEY = '0'

/** The first character of every string's sort key: unique keys index only these. */
export const STRING_TAG = '2'

/**
 * The sort key of one index value.
 *
 * @example sortKeyOf('a') // '2a'
 */
export function sortKeyOf(value: IndexValue): string {
  if (value === null) return NO_VALUE_KEY
  if (typeof value === 'number') return `1${numberKey(value)}`
  return `${STRING_TAG}${spellString(value)}`
}

/** `indexed` of a document: a sort key per top-level string or number field whose name PostgreSQL can keep. */
export function indexedCopy(value: Json): Record<string, string> {
  const copy: Record<string, string> = {}
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return copy
  for (const [field, item] of Object.entries(value as Record<string, Json>)) {
    if ((typeof item !== 'number' && typeof item !== 'string') || !isPostgresText(field)) continue
    copy[field] = sortKeyOf(item)
  }
  return copy
}

/**
 * True when PostgreSQL text can hold `text` as it is: no NUL, no lone surrogate (text is UTF-8).
 * Keys, stream names and field names must be; values may hold anything (they are kept as JSON text).
 */
export function isPostgresText(text: string): boolean {
  return !text.includes('\u0000') && !/\p{Cs}/u.test(text)
}

function numberKey(value: number): string {
  const bytes = Buffer.alloc(8)
  // JSON has no -0: stored values went through JSON already, and a query's 0 must equal them.
  bytes.writeDoubleBE(value === 0 ? 0 : value)
  if ((bytes[0]! & 0x80) !== 0) for (let i = 0; i < 8; i += 1) bytes[i] = ~bytes[i]! & 0xff
  else bytes[0] = bytes[0]! | 0x80
  return bytes.toString('hex')
}

function spellString(text: string): string {
  if (!/[\u0000\u0001\uD800-\uFFFF]/.test(text)) return text
  let spelled = ''
  for (let i = 0; i < text.length; ) {
    const point = text.codePointAt(i)!
    i += point > 0xffff ? 2 : 1
    if (point <= 1) spelled += `\u0001${String.fromCharCode(point + 1)}`
    else if (point < 0xd800) spelled += String.fromCharCode(point)
    else spelled += String.fromCharCode(0xe000 + ((point - 0xd800) >> 10), 0xe000 + ((point - 0xd800) & 0x3ff))
  }
  return spelled
}
