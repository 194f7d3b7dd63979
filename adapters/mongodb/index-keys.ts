/**
 * What MongoStore's indexes read: every document carries `indexed`, a copy of its top-level string
 * and number fields, whatever else it holds and whichever indexes exist. So an index declared later,
 * or by another host, sees every document exactly as MemoryStore and SqliteStore do
 * (adapters/shared/index-order.ts): fields holding anything else (null, booleans, arrays, objects)
 * are absent from the copy and sort first; an array is never indexed through its elements.
 *
 * Field names are escaped so a `.` or `$` in them is never a path or an operator; strings are
 * re-spelled so BSON (UTF-8) can hold lone surrogates and the server's byte order is the adapters'
 * order (`compareCodePoints`: a lone surrogate at its own code point, between U+D7FF and U+E000,
 * where no valid character lives): every code point from U+D800 up, lone surrogates included,
 * becomes two private-use characters U+E000 + (offset >> 10), U+E000 + (offset & 0x3FF) with
 * offset = code point − 0xD800. Strings below U+D800 (Latin, Greek, Cyrillic, CJK, Hangul…) are
 * kept as they are.
 */
import type { Json } from '../../ports/store.js'

/** The document field holding the index copy. */
export const INDEXED_FIELD = 'indexed'

/** The index copy of `value`: its top-level string and number fields, names escaped, strings re-spelled. */
export function indexedCopy(value: Json): Record<string, string | number> {
  const copy: Record<string, string | number> = {}
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return copy
  for (const [field, item] of Object.entries(value as Record<string, Json>)) {
    if (typeof item === 'number') copy[escapeField(field)] = item
    else if (typeof item === 'string') copy[escapeField(field)] = indexString(item)
  }
  return copy
}

/** The path of top-level `field` in the index copy. */
export function indexPath(field: string): string {
  return `${INDEXED_FIELD}.${escapeField(field)}`
}

/** A value as the index copy spells it (numbers unchanged). */
export function indexValue<T extends string | number | null>(value: T): T {
  return (typeof value === 'string' ? indexString(value) : value) as T
}

/** Code points from U+D800 up as two private-use characters: valid UTF-8, same order as compareCodePoints. */
export function indexString(text: string): string {
  if (!/[\uD800-\uFFFF]/.test(text)) return text
  let spelled = ''
  for (let i = 0; i < text.length; ) {
    const point = text.codePointAt(i)!
    i += point > 0xffff ? 2 : 1
    if (point < 0xd800) spelled += String.fromCharCode(point)
    else spelled += String.fromCharCode(0xe000 + ((point - 0xd800) >> 10), 0xe000 + ((point - 0xd800) & 0x3ff))
  }
  return spelled
}

/** `%`, `.`, `$`, NUL and lone surrogates as `%XX` / `%uXXXX`: never a path separator, an operator or bad UTF-8. */
export function escapeField(field: string): string {
  let escaped = ''
  for (let i = 0; i < field.length; i += 1) {
    const unit = field.charCodeAt(i)
    const char = field[i]!
    if (char === '%' || char === '.' || char === '$' || char === '\u0000') escaped += `%${unit.toString(16).toUpperCase().padStart(2, '0')}`
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < field.length && isTrail(field.charCodeAt(i + 1))) {
      escaped += field.slice(i, i + 2)
      i += 1
    } else if (unit >= 0xd800 && unit <= 0xdfff) escaped += `%u${unit.toString(16).toUpperCase()}`
    else escaped += char
  }
  return escaped
}

/** The field name `escapeField` spelled. */
export function unescapeField(escaped: string): string {
  return escaped.replace(/%u([0-9A-F]{4})|%([0-9A-F]{2})/g, (_, unit: string | undefined, byte: string | undefined) =>
    String.fromCharCode(Number.parseInt(unit ?? byte!, 16)),
  )
}

function isTrail(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff
}
