/**
 * A table per stream, named `stream:<stream>`, keyed by the sequence itself (SQLite's rowid): an
 * append is always the table's last row, so it fills the last page and touches no index. In the one
 * shared table of layout 3, keyed by (stream, sequence), every append also went into an index whose
 * three busy streams were three insertion points in its middle: 11 of the 99 pages a batch of 32
 * transfers wrote to the WAL. A stream's table is made by its first append, in that transaction.
 */
import { sqlIdentifier } from './sqlite-lazy-tables.js'

/** The table name holding `stream`'s entries. */
export function streamTableName(stream: string): string {
  return `stream:${stream}`
}

export function createStreamTableSql(stream: string): string {
  return `CREATE TABLE IF NOT EXISTS ${sqlIdentifier(streamTableName(stream))} (sequence INTEGER PRIMARY KEY NOT NULL, value TEXT NOT NULL, entry_digest TEXT NOT NULL, prior_head TEXT, head TEXT NOT NULL)`
}

/** The statements a store runs on one stream's table, as SQL text (prepared once per connection by the store). */
export interface StreamSql {
  readonly head: string
  readonly page: string
  readonly append: string
}

export function streamSql(stream: string): StreamSql {
  const table = sqlIdentifier(streamTableName(stream))
  return {
    head: `SELECT sequence, head FROM ${table} ORDER BY sequence DESC LIMIT 1`,
    page: `SELECT sequence, value, entry_digest, prior_head, head FROM ${table} WHERE sequence > ? ORDER BY sequence LIMIT ?`,
    append: `INSERT INTO ${table} (sequence, value, entry_digest, prior_head, head) VALUES (?, ?, ?, ?, ?)`,
  }
}
