/**
 * Store on PostgreSQL (the `pg` driver): the shared backend of several stateless hosts. Documents,
 * stream entries and declarations are three tables of one schema (postgres-sql.ts); values are kept
 * as their exact JSON text (`json`), and indexes read `indexed`, a jsonb copy of each document's
 * top-level sort keys (sort-keys.ts), so every host orders and enforces exactly as MemoryStore does.
 * Each commit is one transaction (postgres-commit.ts). Declarations live in the database: what one
 * host declares, every host learns when a name it does not know comes up.
 */
import { createHash } from 'node:crypto'
import type pg from 'pg'
import type {
  CollectionSpec,
  CommitOutcome,
  Json,
  Page,
  QueryOptions,
  ReadStreamOptions,
  Store,
  StoredDocument,
  StreamEntry,
  StreamHead,
  Write,
} from '../../ports/store.js'
import { CollectionSpecs } from '../shared/collection-specs.js'
import { positionOf } from '../shared/index-order.js'
import { decodeQueryCursor, decodeStreamCursor, encodeQueryCursor, encodeStreamCursor } from '../shared/page-cursor.js'
import { clampLimit, DEFAULT_QUERY_LIMIT, DEFAULT_STREAM_LIMIT } from '../shared/page-limit.js'
import { deepFreeze } from '../shared/stored-json.js'
import { commitInTransaction, type CommitIsolation } from './postgres-commit.js'
import { PostgresConnection, type PostgresConnectionOptions } from './postgres-connection.js'
import { toPortError, translatingPgErrors, uniqueViolationIndex } from './postgres-errors.js'
import {
  createQueryIndexSql,
  createUniqueIndexSql,
  indexName,
  pageQuerySql,
  schemaSql,
  selectByUniqueSql,
  tablesOf,
  type Tables,
} from './postgres-sql.js'
import { isPostgresText, sortKeyOf } from './sort-keys.js'

/** The adapter's name, as configuration and logs spell it. */
export const POSTGRES_STORE_NAME = 'postgres'

export interface PostgresStoreOptions extends PostgresConnectionOptions {
  /**
   * How racing commits are kept apart: advisory locks on what each commit touches (READ COMMITTED),
   * or SERIALIZABLE isolation with retries. Both are linearizable; see docs/decisions.md for the
   * measurements behind the default.
   * @default 'locks'
   */
  readonly isolation?: CommitIsolation
  /**
   * How long one commit retries collisions (serializable) and asks about an outcome its broken
   * connection left unknown, before it reports PortUnavailableError.
   * @default 5000
   */
  readonly commitRetryWindowMs?: number
}

const PORT = 'Store'
const DOCUMENT_COLUMNS = 'key, version::text AS version, value'

interface DocumentRow {
  readonly key: string
  readonly version: string
  readonly value: Json
}

interface EntryRow {
  readonly seq: string
  readonly value: Json
  readonly entry_digest: string
  readonly prior_head: string | null
  readonly head: string
}

interface DeclarationRow {
  readonly collection: string
  readonly kind: 'uniqueKey' | 'index'
  readonly name: string
  readonly fields: string[]
}

/**
 * @example
 * const store = new PostgresStore({ connectionString: 'postgres://cairn@db.internal/cairn' })
 * await store.declare([{ name: 'users', uniqueKeys: [{ name: 'email', field: 'email' }] }])
 */
export class PostgresStore implements Store {
  private readonly connection: PostgresConnection
  private readonly tables: Tables
  private readonly isolation: CommitIsolation
  private readonly retryWindowMs: number
  /** What was declared in the database, as this process last read it. */
  private specs = new CollectionSpecs()
  private prepared: Promise<pg.Pool> | undefined

  constructor(options: PostgresStoreOptions) {
    this.connection = new PostgresConnection(PORT, options)
    this.tables = tablesOf(this.connection.schema)
    this.isolation = options.isolation ?? 'locks'
    this.retryWindowMs = options.commitRetryWindowMs ?? 5000
  }

  /**
   * Records the declarations and creates their indexes in one transaction, one host at a time. A name
   * declared (by any host) over other fields is a RangeError; so is a new unique key that documents
   * already stored share a value of.
   */
  async declare(collections: readonly CollectionSpec[]): Promise<void> {
    const pool = await this.pool()
    await this.inSchemaLock(pool, async (client) => {
      const specs = await readDeclarations(client, this.tables)
      for (const spec of collections) {
        const { uniqueKeys, indexes } = specs.added(spec)
        for (const field of [...uniqueKeys.map((key) => key.field), ...indexes.flatMap((index) => index.fields)]) {
          if (!isPostgresText(field)) throw new RangeError(`PostgresStore field names must be well-formed UTF-16: ${JSON.stringify(field)}`)
        }
        const record = (kind: string, name: string, fields: readonly string[], index: string) =>
          client.query(`INSERT INTO ${this.tables.declarations} (collection, kind, name, fields, index_name) VALUES ($1, $2, $3, $4, $5)`, [
            spec.name,
            kind,
            name,
            JSON.stringify(fields),
            index,
          ])
        for (const uniqueKey of uniqueKeys) {
          await record('uniqueKey', uniqueKey.name, [uniqueKey.field], indexName('unique', spec.name, uniqueKey.name))
          try {
            await client.query(createUniqueIndexSql(this.tables, spec.name, uniqueKey))
          } catch (error) {
            if (uniqueViolationIndex(error) === undefined) throw error
            throw new RangeError(`Stored documents of ${spec.name} share a value of the new unique key ${uniqueKey.name}`, { cause: error })
          }
        }
        for (const index of indexes) {
          await record('index', index.name, index.fields, indexName('index', spec.name, index.name))
          await client.query(createQueryIndexSql(this.tables, spec.name, index))
        }
        specs.remember(spec)
      }
      this.specs = specs
    })
  }

  async get<T extends Json = Json>(collection: string, key: string): Promise<StoredDocument<T> | undefined> {
    if (!isPostgresText(collection) || !isPostgresText(key)) return undefined
    const pool = await this.pool()
    const { rows } = await translatingPgErrors(PORT, () =>
      pool.query<DocumentRow>(`SELECT ${DOCUMENT_COLUMNS} FROM ${this.tables.documents} WHERE collection = $1 AND key = $2`, [collection, key]),
    )
    return rows[0] === undefined ? undefined : toDocument<T>(collection, rows[0])
  }

  async getByUnique<T extends Json = Json>(collection: string, uniqueKey: string, value: string): Promise<StoredDocument<T> | undefined> {
    const spec = await this.declared(() => this.specs.uniqueKey(collection, uniqueKey))
    const pool = await this.pool()
    const { rows } = await translatingPgErrors(PORT, () =>
      pool.query<DocumentRow>(selectByUniqueSql(this.tables, collection, spec, DOCUMENT_COLUMNS), [sortKeyOf(value)]),
    )
    return rows[0] === undefined ? undefined : toDocument<T>(collection, rows[0])
  }

  async query<T extends Json = Json>(collection: string, options: QueryOptions): Promise<Page<StoredDocument<T>>> {
    const { fields } = await this.declared(() => this.specs.index(collection, options.index))
    const equals = options.equals ?? []
    if (equals.length > fields.length) throw new RangeError(`Index ${options.index} has ${fields.length} fields, not ${equals.length}`)
    const limit = clampLimit(options.limit, DEFAULT_QUERY_LIMIT)
    const orderedFields = fields.slice(equals.length)
    const after = options.after === undefined ? undefined : decodeQueryCursor(options.after, orderedFields.length)
    if (after !== undefined && !isPostgresText(after.key)) throw new RangeError('Not a cursor of this query')
    const sql = pageQuerySql(this.tables, { collection, fields, equals, descending: options.order === 'desc', after, limit: limit + 1 }, DOCUMENT_COLUMNS)
    const pool = await this.pool()
    const { rows } = await translatingPgErrors(PORT, () => pool.query<DocumentRow>(sql.text, [...sql.values]))
    const items = rows.slice(0, limit).map((row) => toDocument<T>(collection, row))
    const last = items.at(-1)
    return { items, nextCursor: rows.length > limit && last !== undefined ? encodeQueryCursor(positionOf(last.key, last.value, orderedFields)) : null }
  }

  async commit(writes: readonly Write[]): Promise<CommitOutcome> {
    const pool = await this.pool()
    return commitInTransaction(
      {
        pool,
        tables: this.tables,
        isolation: this.isolation,
        retryWindowMs: this.retryWindowMs,
        specs: () => this.specs,
        reloadSpecs: () => this.reloadSpecs(),
      },
      writes,
    )
  }

  async streamHead(stream: string): Promise<StreamHead | undefined> {
    if (!isPostgresText(stream)) return undefined
    const pool = await this.pool()
    const { rows } = await translatingPgErrors(PORT, () =>
      pool.query<{ seq: string; head: string }>(
        `SELECT sequence::text AS seq, head FROM ${this.tables.entries} WHERE stream = $1 ORDER BY sequence DESC LIMIT 1`,
        [stream],
      ),
    )
    const row = rows[0]
    return row === undefined ? undefined : { head: row.head, sequence: Number(row.seq), cursor: encodeStreamCursor(Number(row.seq)) }
  }

  async readStream<T extends Json = Json>(stream: string, options: ReadStreamOptions = {}): Promise<Page<StreamEntry<T>>> {
    const after = options.after === undefined ? 0 : decodeStreamCursor(options.after)
    const limit = clampLimit(options.limit, DEFAULT_STREAM_LIMIT)
    if (!isPostgresText(stream)) return { items: [], nextCursor: null }
    const pool = await this.pool()
    const { rows } = await translatingPgErrors(PORT, () =>
      pool.query<EntryRow>(
        `SELECT sequence::text AS seq, value, entry_digest, prior_head, head FROM ${this.tables.entries} WHERE stream = $1 AND sequence > $2 ORDER BY sequence LIMIT $3`,
        [stream, after, limit + 1],
      ),
    )
    const items = rows.slice(0, limit).map((row): StreamEntry<T> => {
      const sequence = Number(row.seq)
      return deepFreeze({
        stream,
        sequence,
        cursor: encodeStreamCursor(sequence),
        value: row.value as T,
        entryDigest: row.entry_digest,
        priorHead: row.prior_head,
        head: row.head,
      })
    })
    const last = items.at(-1)
    return { items, nextCursor: rows.length > limit && last !== undefined ? last.cursor : null }
  }

  async close(): Promise<void> {
    await this.connection.close()
  }

  /** The pool, once the schema exists and the declarations are read (retried on the next call after a failure). */
  private pool(): Promise<pg.Pool> {
    this.prepared ??= translatingPgErrors(PORT, () => this.connection.pool())
      .then(async (pool) => {
        await this.inSchemaLock(pool, async (client) => {
          this.specs = await readDeclarations(client, this.tables)
        })
        return pool
      })
      .catch((error: unknown) => {
        this.prepared = undefined
        throw error
      })
    return this.prepared
  }

  /**
   * Run `task` in a transaction holding this schema's advisory lock, after making the tables: hosts
   * starting together never race on CREATE … IF NOT EXISTS, nor declare the same index twice.
   */
  private async inSchemaLock(pool: pg.Pool, task: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    const client = await translatingPgErrors(PORT, () => pool.connect())
    try {
      await client.query('BEGIN')
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [schemaLockKey(this.tables.schema)])
      await client.query(schemaSql(this.tables))
      await task(client)
      await client.query('COMMIT')
      client.release()
    } catch (error) {
      const rolledBack = await client.query('ROLLBACK').then(() => true, () => false)
      client.release(!rolledBack)
      throw toPortError(PORT, error)
    }
  }

  private async reloadSpecs(): Promise<void> {
    const pool = await this.pool()
    const client = await translatingPgErrors(PORT, () => pool.connect())
    try {
      this.specs = await readDeclarations(client, this.tables)
    } catch (error) {
      throw toPortError(PORT, error)
    } finally {
      client.release()
    }
  }

  /** A declared spec; when this process does not know it, another host may have declared it. */
  private async declared<T>(find: () => T): Promise<T> {
    await this.pool()
    try {
      return find()
    } catch (error) {
      if (!(error instanceof RangeError)) throw error
      await this.reloadSpecs()
      return find()
    }
  }
}

/** Every declaration recorded in the database, by any host. */
async function readDeclarations(client: pg.PoolClient, tables: Tables): Promise<CollectionSpecs> {
  const specs = new CollectionSpecs()
  const { rows } = await client.query<DeclarationRow>(`SELECT collection, kind, name, fields FROM ${tables.declarations}`)
  for (const row of rows) {
    specs.remember(
      row.kind === 'uniqueKey'
        ? { name: row.collection, uniqueKeys: [{ name: row.name, field: row.fields[0]! }] }
        : { name: row.collection, indexes: [{ name: row.name, fields: row.fields }] },
    )
  }
  return specs
}

/** The advisory lock key of a schema's set-up and declarations. */
function schemaLockKey(schema: string): string {
  return createHash('sha256').update(`cairn-schema:${schema}`).digest().readBigInt64BE(0).toString()
}

function toDocument<T extends Json>(collection: string, row: DocumentRow): StoredDocument<T> {
  return deepFreeze({ collection, key: row.key, version: Number(row.version), value: row.value as T })
}
