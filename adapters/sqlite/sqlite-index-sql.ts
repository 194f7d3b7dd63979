/**
 * SQL text of the expression indexes behind unique keys and query indexes, on the table of their
 * collection (sqlite-collection-tables.ts). A unique index is partial on the field holding text, so
 * the lookup by unique value carries the same term: SQLite only uses a partial index when the
 * query's WHERE clause names it. Field names reaching these literals were checked by
 * CollectionSpecs (no quotes).
 */
import { sha256Hex } from '../../core/digest/sha256.js'
import type { IndexSpec, UniqueKeySpec } from '../../ports/store.js'
import { documentTable } from './sqlite-collection-tables.js'
import { DOCUMENT_VALUE_SQL } from './sqlite-deep-values.js'

/** `text` as an SQL string literal. */
function sqlLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`
}

/** The JSON path of a top-level field. */
function jsonPath(field: string): string {
  return sqlLiteral(`$."${field}"`)
}

/**
 * What an index sees of `field`: the string or number stored there, NULL for anything else
 * (adapters/shared/index-order.ts). NULL sorts first, numbers before text, text by UTF-8 bytes.
 * Numbers are compared as REAL, the double JavaScript reads back: SQLite parses a JSON integer up to
 * 2^63 exactly (1234567890123456800), while the document and cursors hold its double
 * (1234567890123456768), so exact integers would never equal the cursor a page ends on.
 */
export function indexedValueSql(field: string): string {
  const path = jsonPath(field)
  return `(CASE json_type(value, ${path}) WHEN 'integer' THEN CAST(json_extract(value, ${path}) AS REAL) WHEN 'real' THEN json_extract(value, ${path}) WHEN 'text' THEN json_extract(value, ${path}) END)`
}

/** The term selecting documents whose `field` holds a string: where a unique key applies. */
function uniqueScopeSql(field: string): string {
  return `json_type(value, ${jsonPath(field)}) = 'text'`
}

/** A stable SQLite name for an index of ours. */
export function indexName(kind: 'unique' | 'index', collection: string, name: string): string {
  return `cairn_${kind}_${sha256Hex(JSON.stringify([collection, name])).slice(0, 24)}`
}

export function createUniqueIndexSql(collection: string, uniqueKey: UniqueKeySpec): string {
  const name = indexName('unique', collection, uniqueKey.name)
  return `CREATE UNIQUE INDEX IF NOT EXISTS ${name} ON ${documentTable(collection)} (json_extract(value, ${jsonPath(uniqueKey.field)})) WHERE ${uniqueScopeSql(uniqueKey.field)}`
}

export function createQueryIndexSql(collection: string, index: IndexSpec): string {
  const name = indexName('index', collection, index.name)
  const columns = [...index.fields.map(indexedValueSql), 'key'].join(', ')
  return `CREATE INDEX IF NOT EXISTS ${name} ON ${documentTable(collection)} (${columns})`
}

/** The document holding a unique value (one parameter: the value). */
export function selectByUniqueSql(collection: string, uniqueKey: UniqueKeySpec): string {
  return `SELECT key, version, ${DOCUMENT_VALUE_SQL} AS json FROM ${documentTable(collection)} WHERE ${uniqueScopeSql(uniqueKey.field)} AND json_extract(value, ${jsonPath(uniqueKey.field)}) = ?`
}
