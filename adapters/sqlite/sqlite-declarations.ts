/**
 * Declarations of a SqliteStore live in the database (`declared_specs`), not only in the process
 * that made them: every process on the file reads them, so a unique key declared by one is known to
 * all. Declaring creates the collection's table and its expression indexes (sqlite-index-sql.ts) in
 * the same transaction.
 */
import type Database from 'better-sqlite3'
import type { CollectionSpec } from '../../ports/store.js'
import { CollectionSpecs } from '../shared/collection-specs.js'
import { createDocumentTableSql } from './sqlite-collection-tables.js'
import { createQueryIndexSql, createUniqueIndexSql } from './sqlite-index-sql.js'

interface DeclarationRow {
  readonly collection: string
  readonly kind: 'uniqueKey' | 'index'
  readonly name: string
  readonly fields: string
}

/** Every declaration made on this database, by any process, one spec each. */
export function readDeclaredSpecs(db: Database.Database): CollectionSpec[] {
  return (db.prepare('SELECT collection, kind, name, fields FROM declared_specs').all() as DeclarationRow[]).map((row) => {
    const fields = JSON.parse(row.fields) as string[]
    return row.kind === 'uniqueKey'
      ? { name: row.collection, uniqueKeys: [{ name: row.name, field: fields[0]! }] }
      : { name: row.collection, indexes: [{ name: row.name, fields }] }
  })
}

/** Every declaration made on this database, by any process. */
export function readDeclarations(db: Database.Database): CollectionSpecs {
  const specs = new CollectionSpecs()
  for (const spec of readDeclaredSpecs(db)) specs.remember(spec)
  return specs
}

/** Create the table and indexes `spec` names (each `IF NOT EXISTS`); call inside a transaction. */
export function createCollectionTable(db: Database.Database, spec: CollectionSpec): void {
  db.exec(createDocumentTableSql(spec.name))
  for (const uniqueKey of spec.uniqueKeys ?? []) db.exec(createUniqueIndexSql(spec.name, uniqueKey))
  for (const index of spec.indexes ?? []) db.exec(createQueryIndexSql(spec.name, index))
}

/**
 * Record what `spec` adds to `specs` and create its indexes; call inside a transaction. A unique
 * index over duplicates already stored fails with SQLITE_CONSTRAINT_UNIQUE.
 */
export function declareCollection(db: Database.Database, specs: CollectionSpecs, spec: CollectionSpec): void {
  const { uniqueKeys, indexes } = specs.added(spec)
  const record = db.prepare('INSERT INTO declared_specs (collection, kind, name, fields) VALUES (?, ?, ?, ?)')
  for (const uniqueKey of uniqueKeys) record.run(spec.name, 'uniqueKey', uniqueKey.name, JSON.stringify([uniqueKey.field]))
  for (const index of indexes) record.run(spec.name, 'index', index.name, JSON.stringify(index.fields))
  createCollectionTable(db, { name: spec.name, uniqueKeys, indexes })
  specs.remember(spec)
}
