/**
 * A table per collection, named `documents:<collection>`: a write maintains the indexes of its own
 * collection only. On one shared table every insert evaluated the partial-index `WHERE` of every
 * collection's indexes (59 in a full deployment), 25 µs an insert against 6 µs on a table of its
 * own. A collection's table is made by its first write or declaration, in that transaction; until
 * then the collection has no documents. Tables are never dropped.
 */
import type Database from 'better-sqlite3'
import { DOCUMENT_VALUE_SQL } from './sqlite-deep-values.js'

/** `name` as an SQL identifier: any text (a collection name is not restricted), double quotes doubled. */
export function sqlIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

/** Whether the file has a table called `name` (one primary-key seek in SQLite's schema table). */
const TABLE_EXISTS_SQL = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"

/** @example tableExists(db, 'documents') // a file of the one-table layout */
export function tableExists(db: Database.Database, name: string): boolean {
  return db.prepare(TABLE_EXISTS_SQL).get(name) !== undefined
}

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

/**
 * Which collections have a table on the file. A table seen outside a transaction is remembered for
 * good (no process drops one). Inside a write transaction the answer may be that transaction's own
 * uncommitted table, so it is only remembered once the transaction is over (`settle`).
 */
export class CollectionTables {
  private readonly known = new Set<string>()
  /** Seen with a table inside the transaction under way: known once it is over, if the table is still there. */
  private readonly seenInTransaction = new Set<string>()
  private lookup: Database.Statement | undefined

  constructor(private readonly db: Database.Database) {}

  /** True when `collection` has a table (so it may hold documents). */
  has(collection: string): boolean {
    if (this.known.has(collection)) return true
    this.lookup ??= this.db.prepare(TABLE_EXISTS_SQL)
    const exists = this.lookup.get(documentTableName(collection)) !== undefined
    if (exists) (this.db.inTransaction ? this.seenInTransaction : this.known).add(collection)
    return exists
  }

  /** Make `collection`'s table if it has none; call inside the write transaction that needs it. */
  ensure(collection: string): void {
    if (this.has(collection)) return
    this.db.exec(createDocumentTableSql(collection))
    this.seenInTransaction.add(collection)
  }

  /** Call when a write transaction is over, committed or not: remember the tables it saw that are still there. */
  settle(): void {
    const seen = [...this.seenInTransaction]
    this.seenInTransaction.clear()
    for (const collection of seen) this.has(collection)
  }
}
