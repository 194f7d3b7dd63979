/**
 * Tables made on first use: a collection's documents and a stream's entries each live in a table of
 * their own, made by the first write (or declaration) in that write's transaction. Until then the
 * collection or stream is empty.
 */
import type Database from 'better-sqlite3'

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

/**
 * Which collections (or, built with the stream table's names, streams) have a table on the file. A
 * table seen outside a transaction is remembered for good (no process drops one). Inside a write
 * transaction the answer may be that transaction's own uncommitted table, so it is only remembered
 * once the transaction is over (`settle`).
 */
export class LazyTables {
  private readonly known = new Set<string>()
  /** Seen with a table inside the transaction under way: known once it is over, if the table is still there. */
  private readonly seenInTransaction = new Set<string>()
  private lookup: Database.Statement | undefined

  constructor(
    private readonly db: Database.Database,
    private readonly tableNameOf: (name: string) => string,
    private readonly createSqlOf: (name: string) => string,
  ) {}

  /** True when `name` has a table (so it may hold documents or entries). */
  has(name: string): boolean {
    if (this.known.has(name)) return true
    this.lookup ??= this.db.prepare(TABLE_EXISTS_SQL)
    const exists = this.lookup.get(this.tableNameOf(name)) !== undefined
    if (exists) (this.db.inTransaction ? this.seenInTransaction : this.known).add(name)
    return exists
  }

  /** Make `name`'s table if it has none; call inside the write transaction that needs it. */
  ensure(name: string): void {
    if (this.has(name)) return
    this.db.exec(this.createSqlOf(name))
    this.seenInTransaction.add(name)
  }

  /** Call when a write transaction is over, committed or not: remember the tables it saw that are still there. */
  settle(): void {
    const seen = [...this.seenInTransaction]
    this.seenInTransaction.clear()
    for (const name of seen) this.has(name)
  }
}
