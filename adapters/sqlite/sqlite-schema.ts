/**
 * The SQLite layout of a Store and how a connection is set up. Documents live in a table per
 * collection (sqlite-collection-tables.ts) and keep their value as JSON text; unique keys and query
 * indexes are expression indexes over that text (sqlite-index-sql.ts), so SQLite itself enforces
 * uniqueness in every process that writes; a value nested too deep for SQLite's JSON functions is
 * kept as text beside an index copy (sqlite-deep-values.ts). A stream's head is its last entry (one
 * primary-key seek), not a second table that could disagree with the entries. Files of an older
 * layout are moved to this one on open (sqlite-layout.ts).
 */
import type Database from 'better-sqlite3'
import { checkedLayout, migrateLayout } from './sqlite-layout.js'

/** Durability of a commit: FULL fsyncs the WAL at every commit; NORMAL only at checkpoints. */
export type SqliteSynchronous = 'FULL' | 'NORMAL'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS stream_entries (
  stream TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  value TEXT NOT NULL,
  entry_digest TEXT NOT NULL,
  prior_head TEXT,
  head TEXT NOT NULL,
  PRIMARY KEY (stream, sequence)
);
CREATE TABLE IF NOT EXISTS declared_specs (
  collection TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('uniqueKey', 'index')),
  name TEXT NOT NULL,
  fields TEXT NOT NULL,
  PRIMARY KEY (collection, kind, name)
);
`

/**
 * WAL (readers never block the writer), the chosen synchronous level, and the tables. busy_timeout
 * is 0: SQLite must never sleep inside a synchronous call waiting for another process's lock, which
 * would freeze the event loop; the store waits between tries instead (sqlite-busy.ts). Safe to run
 * again after SQLITE_BUSY: every step is idempotent.
 */
export function prepareDatabase(db: Database.Database, options: { synchronous: SqliteSynchronous }): void {
  db.pragma('busy_timeout = 0')
  checkedLayout(db) // a file of a later layout is refused here, before the pragmas below write to it
  db.pragma('journal_mode = WAL')
  db.pragma(`synchronous = ${options.synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`)
  db.exec(SCHEMA)
  migrateLayout(db)
}
