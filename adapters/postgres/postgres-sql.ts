/**
 * The SQL text of PostgresStore: its tables, the expression indexes behind unique keys and query
 * indexes, and one page of an index query. Every index is partial on its collection (`WHERE
 * collection = '<name>'`), so the statements that should use it carry the collection as a literal
 * too (the planner matches a partial index's predicate as written). Every sort key is compared
 * COLLATE "C" (bytes), whatever the database's default collation is. Collection and field names
 * reaching literals were checked by CollectionSpecs (no quotes, no control characters).
 */
import { sha256Hex } from '../../core/digest/sha256.js'
import type { IndexSpec, UniqueKeySpec } from '../../ports/store.js'
import type { PageQuery } from '../shared/page-query.js'
import { NO_VALUE_KEY, sortKeyOf, STRING_TAG } from './sort-keys.js'

/** A schema-qualified name. */
export type Tables = ReturnType<typeof tablesOf>

/** `"schema".name` for each table of a store in `schema`. */
export function tablesOf(schema: string) {
  const q = quoteIdentifier(schema)
  return {
    schema: q,
    documents: `${q}.documents`,
    entries: `${q}.stream_entries`,
    declarations: `${q}.declared_specs`,
    events: `${q}.events`,
  }
}

/** The tables of a store; idempotent (run under the schema lock, see postgres-store.ts). */
export function schemaSql(tables: Tables): string {
  return `
CREATE SCHEMA IF NOT EXISTS ${tables.schema};
CREATE TABLE IF NOT EXISTS ${tables.documents} (
  collection text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  version bigint NOT NULL,
  value json NOT NULL,
  indexed jsonb NOT NULL,
  PRIMARY KEY (collection, key)
);
CREATE TABLE IF NOT EXISTS ${tables.entries} (
  stream text COLLATE "C" NOT NULL,
  sequence bigint NOT NULL,
  value json NOT NULL,
  entry_digest text NOT NULL,
  prior_head text,
  head text NOT NULL,
  PRIMARY KEY (stream, sequence)
);
CREATE TABLE IF NOT EXISTS ${tables.declarations} (
  collection text COLLATE "C" NOT NULL,
  kind text NOT NULL CHECK (kind IN ('uniqueKey', 'index')),
  name text COLLATE "C" NOT NULL,
  fields jsonb NOT NULL,
  index_name text NOT NULL,
  PRIMARY KEY (collection, kind, name)
);`
}

/** `identifier` as a quoted SQL identifier. */
export function quoteIdentifier(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`
}

/** `text` as an SQL string literal. */
export function sqlLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`
}

/** The sort key of top-level `field` (sort-keys.ts), compared as bytes. */
export function sortKeySql(field: string): string {
  return `(COALESCE(indexed->>${sqlLiteral(field)}, '${NO_VALUE_KEY}') COLLATE "C")`
}

/** A stable PostgreSQL name (at most 63 bytes) for an index of ours. */
export function indexName(kind: 'unique' | 'index', collection: string, name: string): string {
  return `cairn_${kind}_${sha256Hex(JSON.stringify([collection, name])).slice(0, 24)}`
}

/** The terms selecting documents of `collection` whose `field` holds a string. */
function uniqueScopeSql(collection: string, field: string): string {
  return `collection = ${sqlLiteral(collection)} AND ${sortKeySql(field)} >= '${STRING_TAG}'`
}

export function createUniqueIndexSql(tables: Tables, collection: string, uniqueKey: UniqueKeySpec): string {
  const name = indexName('unique', collection, uniqueKey.name)
  return `CREATE UNIQUE INDEX IF NOT EXISTS ${name} ON ${tables.documents} (${sortKeySql(uniqueKey.field)}) WHERE ${uniqueScopeSql(collection, uniqueKey.field)}`
}

export function createQueryIndexSql(tables: Tables, collection: string, index: IndexSpec): string {
  const name = indexName('index', collection, index.name)
  return `CREATE INDEX IF NOT EXISTS ${name} ON ${tables.documents} (${[...index.fields.map(sortKeySql), 'key'].join(', ')}) WHERE collection = ${sqlLiteral(collection)}`
}

/** The key of the document holding a unique value (one parameter: the value's sort key). */
export function selectByUniqueSql(tables: Tables, collection: string, uniqueKey: UniqueKeySpec, columns: string): string {
  return `SELECT ${columns} FROM ${tables.documents} WHERE ${uniqueScopeSql(collection, uniqueKey.field)} AND ${sortKeySql(uniqueKey.field)} = $1`
}

/** SQL text and its parameters. */
export interface SqlWithParams {
  readonly text: string
  readonly values: readonly unknown[]
}

/**
 * Equality on the leading sort keys, then keyset pagination over (remaining sort keys…, key) as one
 * row comparison, which a btree index over the same columns answers directly (no NULLs to spell out:
 * a missing value has its own sort key).
 */
export function pageQuerySql(tables: Tables, query: PageQuery, columns: string): SqlWithParams {
  const values: unknown[] = []
  const parameter = (value: unknown) => {
    values.push(value)
    return `$${values.length}`
  }
  const terms = [`collection = ${sqlLiteral(query.collection)}`]
  query.equals.forEach((value, i) => terms.push(`${sortKeySql(query.fields[i]!)} = ${parameter(sortKeyOf(value))}`))
  const ordered = [...query.fields.slice(query.equals.length).map(sortKeySql), 'key']
  if (query.after !== undefined) {
    const after = [...query.after.values.map((value) => parameter(sortKeyOf(value))), parameter(query.after.key)]
    terms.push(`(${ordered.join(', ')}) ${query.descending ? '<' : '>'} (${after.join(', ')})`)
  }
  const direction = query.descending ? 'DESC' : 'ASC'
  const text = `SELECT ${columns} FROM ${tables.documents} WHERE ${terms.join(' AND ')} ORDER BY ${ordered.map((column) => `${column} ${direction}`).join(', ')} LIMIT ${parameter(query.limit)}`
  return { text, values }
}
