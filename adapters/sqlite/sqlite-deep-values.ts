/**
 * Documents nested deeper than SQLite's JSON functions go (1000 levels: they answer "malformed
 * JSON"). Every index reads `value` through json_extract, so such a document would fail its commit.
 * Like the MongoDB adapter (json-document.ts), SqliteStore keeps it as exact JSON text beside an
 * index copy: `deep_value` holds the text, `value` only the top-level strings and numbers — all an
 * index or unique key ever reads — so indexes see the same thing either way and every read takes
 * `COALESCE(deep_value, value)`.
 */
import type { Json } from '../../ports/store.js'

/** Nesting (arrays and objects) kept in `value` as it is; deeper goes to `deep_value`. Well inside SQLite's 1000. */
export const MAX_NATIVE_DEPTH = 256

/** The column expression every read of a document's value uses (named `json`: `value` must keep meaning the column in index terms). */
export const DOCUMENT_VALUE_SQL = 'COALESCE(deep_value, value)'

/** The two columns a document's value occupies. */
export interface DocumentColumns {
  readonly value: string
  readonly deepValue: string | null
}

/** @example documentColumns({ email: 'a@b.c' }) // { value: '{"email":"a@b.c"}', deepValue: null } */
export function documentColumns(value: Json): DocumentColumns {
  const text = JSON.stringify(value)
  if (!deeperThan(value, MAX_NATIVE_DEPTH)) return { value: text, deepValue: null }
  return { value: JSON.stringify(indexCopy(value)), deepValue: text }
}

/** What indexes read of `value`: its top-level strings and numbers (anything else indexes as NULL, like absent). */
function indexCopy(value: Json): Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null
  // No prototype: a `__proto__` member is a member like any other.
  const copy = Object.create(null) as Record<string, Json>
  for (const [key, member] of Object.entries(value as Record<string, Json>)) {
    if (typeof member === 'string' || typeof member === 'number') copy[key] = member
  }
  return copy
}

/** True when `value` nests arrays and objects more than `levels` deep (stops as soon as it knows). */
function deeperThan(value: Json, levels: number): boolean {
  if (value === null || typeof value !== 'object') return false
  if (levels === 0) return true
  const members: readonly Json[] = Array.isArray(value) ? value : Object.values(value)
  return members.some((member) => deeperThan(member, levels - 1))
}
