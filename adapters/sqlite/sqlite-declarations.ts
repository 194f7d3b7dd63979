/**
 * Declarations of a SqliteStore live in the database (`declared_specs`), not only in the process
 * that made them: every process on the file reads them, so a unique key declared by one is known to
 * all. Declaring creates the expression indexes (sqlite-index-sql.ts) in the same transaction.
 */
import type Database from 'better-sqlite3'
import type { CollectionSpec } from '../../ports/store.js'
import { CollectionSpecs } from '../shared/collection-specs.js'
import { createQueryIndexSql, createUniqueIndexSql, indexName, QUERY_INDEX_LAYOUT } from './sqlite-index-sql.js'

interface DeclarationRow {
  readonly collection: string
  readonly kind: 'uniqueKey' | 'index'
  readonly name: string
  readonly fields: string
}

/** Every declaration made on this database, by any process. */
export function readDeclarations(db: Database.Database): CollectionSpecs {
  const specs = new CollectionSpecs()
  for (const row of db.prepare('SELECT collection, kind, name, fields FROM declared_specs').all() as DeclarationRow[]) {
    const fields = JSON.parse(row.fields) as string[]
    specs.remember(
      row.kind === 'uniqueKey'
        ? { name: row.collection, uniqueKeys: [{ name: row.name, field: fields[0]! }] }
        : { name: row.collection, indexes: [{ name: row.name, fields }] },
    )
  }
  return specs
}

/**
 * Record what `spec` adds to `specs` and create its indexes; call inside a transaction. A unique
 * index over duplicates already stored fails with SQLITE_CONSTRAINT_UNIQUE.
 */
export function declareCollection(db: Database.Database, specs: CollectionSpecs, spec: CollectionSpec): void {
  const { uniqueKeys, indexes } = specs.added(spec)
  const record = db.prepare('INSERT INTO declared_specs (collection, kind, name, fields) VALUES (?, ?, ?, ?)')
  for (const uniqueKey of uniqueKeys) {
    record.run(spec.name, 'uniqueKey', uniqueKey.name, JSON.stringify([uniqueKey.field]))
    db.exec(createUniqueIndexSql(spec.name, uniqueKey))
  }
  for (const index of indexes) {
    record.run(spec.name, 'index', index.name, JSON.stringify(index.fields))
    db.exec(createQueryIndexSql(spec.name, index))
  }
  specs.remember(spec)
}

/**
 * Bring the query indexes of a database made by an older Cairn to today's layout (QUERY_INDEX_LAYOUT,
 * kept in `PRAGMA user_version`): build each declared index anew and drop the old one. Cheap when
 * nothing is due (one pragma read); takes the write lock only when something is.
 */
export function migrateQueryIndexes(db: Database.Database): void {
  if (Number(db.pragma('user_version', { simple: true })) >= QUERY_INDEX_LAYOUT) return
  db.transaction(() => {
    if (Number(db.pragma('user_version', { simple: true })) >= QUERY_INDEX_LAYOUT) return
    const rows = db.prepare("SELECT collection, name, fields FROM declared_specs WHERE kind = 'index'").all() as DeclarationRow[]
    for (const row of rows) {
      db.exec(`DROP INDEX IF EXISTS ${indexName('index', row.collection, row.name, 1)}`)
      db.exec(createQueryIndexSql(row.collection, { name: row.name, fields: JSON.parse(row.fields) as string[] }))
    }
    db.pragma(`user_version = ${QUERY_INDEX_LAYOUT}`)
  }).immediate()
}
