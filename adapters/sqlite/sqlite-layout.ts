/**
 * The layout of a Store's file, kept in `PRAGMA user_version`, and the move of an older file to
 * today's. 1: one `documents` table, query indexes over exact integers; 2: one table, numbers indexed
 * as REAL; 3: a table per collection (sqlite-collection-tables.ts). A file of layout 1 or 2 is moved
 * whole when a store first opens it: every collection's documents into its own table, the old table
 * and its indexes dropped, every declared index built anew. One transaction: a crash or another
 * process opening the file meanwhile sees the old layout or the new, never half of each.
 */
import type Database from 'better-sqlite3'
import { PortUnavailableError } from '../../ports/errors.js'
import { createDocumentTableSql, documentTable, tableExists } from './sqlite-collection-tables.js'
import { createCollectionTable, readDeclaredSpecs } from './sqlite-declarations.js'

/** Today's layout. */
export const STORE_LAYOUT = 3

/**
 * The file's layout; throws PortUnavailableError for a later one than this code knows, so a caller
 * asking before its first write writes nothing where that layout no longer reads.
 */
export function checkedLayout(db: Database.Database): number {
  const layout = Number(db.pragma('user_version', { simple: true }))
  if (layout > STORE_LAYOUT) throw new PortUnavailableError('Store', `The SQLite file has layout ${layout}, written by a later Cairn; this one knows layouts up to ${STORE_LAYOUT}`)
  return layout
}

/** Bring the file to STORE_LAYOUT. Cheap when nothing is due (one pragma read); takes the write lock only when something is. */
export function migrateLayout(db: Database.Database): void {
  if (checkedLayout(db) === STORE_LAYOUT) return
  db.transaction(() => {
    if (checkedLayout(db) === STORE_LAYOUT) return
    if (tableExists(db, 'documents')) moveToTablePerCollection(db)
    for (const spec of readDeclaredSpecs(db)) createCollectionTable(db, spec)
    db.pragma(`user_version = ${STORE_LAYOUT}`)
  }).immediate()
}

/** Copy each collection's documents out of the one shared table, then drop it with its indexes. */
function moveToTablePerCollection(db: Database.Database): void {
  // Files made before deep values were kept apart have no `deep_value` column: none of theirs is deep.
  const deepValue = (db.pragma('table_info(documents)') as { name: string }[]).some((column) => column.name === 'deep_value') ? 'deep_value' : 'NULL'
  const collections = (db.prepare('SELECT DISTINCT collection FROM documents').all() as { collection: string }[]).map((row) => row.collection)
  for (const collection of collections) {
    db.exec(createDocumentTableSql(collection))
    db.prepare(`INSERT INTO ${documentTable(collection)} (key, version, value, deep_value) SELECT key, version, value, ${deepValue} FROM documents WHERE collection = ?`).run(collection)
  }
  db.exec('DROP TABLE documents')
}
