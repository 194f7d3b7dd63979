/**
 * The order of Store index queries, as every adapter must give it (MongoDB's index order): per index
 * field, documents whose field holds no string or number (absent, null, boolean, array, object) come
 * first, then numbers by value, then strings by code point (UTF-8 byte order); ties are broken by
 * the document key, also by code point.
 */
import type { Json } from '../../ports/store.js'

/** What an index sees of one field: a string, a number, or null for anything else. */
export type IndexValue = string | number | null

/** Where a document stands in an index: its ordered field values, then its key. */
export interface IndexPosition {
  readonly values: readonly IndexValue[]
  readonly key: string
}

/**
 * The index value of top-level `field` of `value`.
 *
 * @example indexValueOf({ rank: 3, tags: ['a'] }, 'tags') // null
 */
export function indexValueOf(value: Json, field: string): IndexValue {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null
  const item = Object.hasOwn(value, field) ? (value as { readonly [key: string]: Json })[field] : undefined
  return typeof item === 'string' || typeof item === 'number' ? item : null
}

/** The position of a document with `key` and `value` in an index over `fields`. */
export function positionOf(key: string, value: Json, fields: readonly string[]): IndexPosition {
  return { values: fields.map((field) => indexValueOf(value, field)), key }
}

/** Negative, zero or positive as `a` sorts before, with or after `b` (ascending). */
export function comparePositions(a: IndexPosition, b: IndexPosition): number {
  for (let i = 0; i < a.values.length; i += 1) {
    const order = compareIndexValues(a.values[i] ?? null, b.values[i] ?? null)
    if (order !== 0) return order
  }
  return compareCodePoints(a.key, b.key)
}

/** null before numbers before strings. */
export function compareIndexValues(a: IndexValue, b: IndexValue): number {
  const rank = typeRank(a) - typeRank(b)
  if (rank !== 0) return rank
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b)
  return 0
}

function typeRank(value: IndexValue): number {
  return value === null ? 0 : typeof value === 'number' ? 1 : 2
}

/**
 * Compare strings by Unicode code point, the order of their UTF-8 bytes (SQLite's BINARY collation,
 * MongoDB's simple collation). A lone surrogate counts as its own code point (U+D800…U+DFFF, where
 * WTF-8 and SQLite's JSON functions put it). JavaScript's `<` compares UTF-16 units, which differs
 * once a surrogate pair meets a unit at U+E000 or above.
 *
 * @example compareCodePoints('\uFFFF', '\u{10000}') < 0 // true ('\uFFFF' < '\u{10000}' is false)
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i)!
    const y = b.codePointAt(j)!
    if (x !== y) return x - y
    i += x > 0xffff ? 2 : 1
    j += y > 0xffff ? 2 : 1
  }
  return a.length - i - (b.length - j)
}
