/**
 * A table per collection, named `documents:<collection>`: a write maintains the indexes of its own
 * collection only. On one shared table every insert evaluated the partial-index `WHERE` of every
 * collection's indexes (59 in a full deployment), 25 µs an insert against 6 µs on a table of its
 * own. A collection's table is made by its first write or declaration, in that transaction; until
 * then the collection has no documents (sqlite-lazy-tables.ts). Tables are never dropped.
 */
import { DOCUMENT_VALUE_SQL } from './sqlite-deep-values.js'
import { sqlIdentifier } from './sqlite-lazy-tables.js'

/** The table name holding `collection`'s documents. */
export function documentTableName(collection: string): string {
  return `documents:${collection}`
}

/** The quoted table of `collection`, for SQL text. */
export function documentTable(collection: string): string {
  return sqlIdentifier(documentTableName(collection))
}

/**
 * The table of `collection`. `deep_value` holds a value nested too deep for SQLite's JSON functions
 * (sqlite-deep-values.ts); every read takes `DOCUMENT_VALUE_SQL`.
 */
export function createDocumentTableSql(collection: string): string {
  return `CREATE TABLE IF NOT EXISTS ${documentTable(collection)} (key TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL, value TEXT NOT NULL, deep_value TEXT)`
}

/** The statements a store runs on one collection's table, as SQL text (prepared once per connection by the store). */
export interface DocumentSql {
  readonly select: string
  readonly version: string
  readonly insert: string
  readonly update: string
  readonly remove: string
}

export function documentSql(collection: string): DocumentSql {
  const table = documentTable(collection)
  return {
    select: `SELECT key, version, ${DOCUMENT_VALUE_SQL} AS json FROM ${table} WHERE key = ?`,
    version: `SELECT version FROM ${table} WHERE key = ?`,
    insert: `INSERT INTO ${table} (key, version, value, deep_value) VALUES (?, ?, ?, ?)`,
    update: `UPDATE ${table} SET version = ?, value = ?, deep_value = ? WHERE key = ?`,
    remove: `DELETE FROM ${table} WHERE key = ?`,
  }
}
