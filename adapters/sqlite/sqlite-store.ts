/**
 * Store on one SQLite file: the durable default of a single machine (`--data-dir`). Commits run in
 * `BEGIN IMMEDIATE` transactions: each takes the database's write lock before reading, so the
 * expectations checked cannot change before the writes, in this process or any other on the file.
 * Commits that arrive together share one transaction and one fsync (group commit): each is checked
 * in arrival order against what the earlier ones left, in a savepoint of its own, and none is
 * answered before the shared transaction is durable. Waiting for another process's lock never
 * blocks the event loop (sqlite-busy.ts). See docs/decisions.md for why WAL with synchronous=FULL
 * is the default.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { PortUnavailableError } from '../../ports/errors.js'
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
import { planCommit, type CommitPlan, type CommitView, type DocumentChange } from '../shared/commit-plan.js'
import { positionOf } from '../shared/index-order.js'
import { decodeQueryCursor, decodeStreamCursor, encodeQueryCursor, encodeStreamCursor } from '../shared/page-cursor.js'
import { clampLimit, DEFAULT_QUERY_LIMIT, DEFAULT_STREAM_LIMIT } from '../shared/page-limit.js'
import { isUniqueConstraintError, toStorePortError } from './sqlite-errors.js'
import { busyPauseMs, isBusyError, sleep, whileBusy } from './sqlite-busy.js'
import { CollectionTables, documentSql, type DocumentSql } from './sqlite-collection-tables.js'
import { documentColumns } from './sqlite-deep-values.js'
import { declareCollection, readDeclarations } from './sqlite-declarations.js'
import { selectByUniqueSql } from './sqlite-index-sql.js'
import { pageQuerySql } from './sqlite-page-sql.js'
import { prepareDatabase, type SqliteSynchronous } from './sqlite-schema.js'

/** The adapter's name, as configuration and logs spell it. */
export const SQLITE_STORE_NAME = 'sqlite'

export interface SqliteStoreOptions {
  /** The database file (its directory is created on first use), or ':memory:'. Either this or `database`. */
  readonly file?: string
  /** An open better-sqlite3 connection to use instead; the store never closes it. */
  readonly database?: Database.Database
  /**
   * FULL: a commit is on disk when it resolves (survives power loss). NORMAL: it survives a crash of
   * the process but the last commits may be lost with the machine's power.
   * @default 'FULL'
   */
  readonly synchronous?: SqliteSynchronous
  /**
   * How long a commit, a read or the start-up waits for another process's lock before the store
   * reports itself unavailable. The wait is asynchronous: the process keeps serving meanwhile.
   * @default 5000
   */
  readonly busyTimeoutMs?: number
}

/** Commits sharing one transaction at most; later arrivals go to the next one. */
const MAX_BATCH = 256

/** A commit waiting for the next shared transaction. */
interface PendingCommit {
  readonly writes: readonly Write[]
  readonly resolve: (outcome: CommitOutcome) => void
  readonly reject: (error: unknown) => void
  /** When it stops waiting for another process's lock (ms since the epoch). */
  readonly deadline: number
}

/** What one commit of a shared transaction came to: an outcome, or an error of its own (bad input). */
type BatchResult = { readonly outcome: CommitOutcome } | { readonly error: unknown }

interface DocumentRow {
  readonly key: string
  readonly version: number
  /** The exact JSON text of the value (`DOCUMENT_VALUE_SQL`). */
  readonly json: string
}

interface EntryRow {
  readonly sequence: number
  readonly value: string
  readonly entry_digest: string
  readonly prior_head: string | null
  readonly head: string
}

/**
 * @example
 * const store = new SqliteStore({ file: '/var/lib/cairn/store.sqlite' })
 * await store.declare([{ name: 'users', uniqueKeys: [{ name: 'email', field: 'email' }] }])
 */
export class SqliteStore implements Store {
  private readonly options: SqliteStoreOptions
  private db: Database.Database | undefined
  /** What was declared on the file, read when the connection opens and whenever a name is missing. */
  private specs = new CollectionSpecs()
  private readonly statements = new Map<string, Database.Statement>()
  /** Which collections have their table (set when the connection opens). */
  private tables!: CollectionTables
  private readonly collectionSql = new Map<string, DocumentSql>()
  private closed = false
  private opening: Promise<Database.Database> | undefined
  private pending: PendingCommit[] = []
  private flushScheduled = false
  private busyAttempts = 0
  /** One commit inside the shared transaction: a savepoint, rolled back alone when the commit fails. */
  private commitInSavepoint: ((writes: readonly Write[]) => CommitOutcome) | undefined

  private readonly view: CommitView = {
    version: (collection, key) => (this.tables.has(collection) ? this.row<{ version: number }>(this.sqlOf(collection).version, key)?.version : undefined),
    uniqueHolder: (collection, uniqueKey, value) => (this.tables.has(collection) ? this.row<DocumentRow>(selectByUniqueSql(collection, uniqueKey), value)?.key : undefined),
    streamHead: (stream) => this.row<EntryRow>('SELECT sequence, head FROM stream_entries WHERE stream = ? ORDER BY sequence DESC LIMIT 1', stream),
    uniqueKeys: (collection) => this.specs.uniqueKeys(collection),
  }

  /** @param options the file path, or options */
  constructor(options: SqliteStoreOptions | string) {
    this.options = typeof options === 'string' ? { file: options } : options
    if (this.options.file === undefined && this.options.database === undefined) throw new TypeError('SqliteStore needs a file or a database')
  }

  declare(collections: readonly CollectionSpec[]): Promise<void> {
    return this.run((db) => {
      try {
        db.transaction(() => {
          this.loadSpecs(db)
          for (const spec of collections) declareCollection(db, this.specs, spec)
        }).immediate()
      } catch (error) {
        // The transaction rolled back: forget whatever this declaration remembered before failing.
        this.loadSpecs(db)
        if (isUniqueConstraintError(error)) throw new RangeError(`Stored documents already share a value of a unique key being declared`, { cause: error })
        throw error
      }
    })
  }

  get<T extends Json = Json>(collection: string, key: string): Promise<StoredDocument<T> | undefined> {
    return this.run(() => {
      const row = this.tables.has(collection) ? this.row<DocumentRow>(this.sqlOf(collection).select, key) : undefined
      return row === undefined ? undefined : toDocument<T>(collection, row)
    })
  }

  getByUnique<T extends Json = Json>(collection: string, uniqueKey: string, value: string): Promise<StoredDocument<T> | undefined> {
    return this.run((db) => {
      const spec = this.declared(db, () => this.specs.uniqueKey(collection, uniqueKey))
      const row = this.tables.has(collection) ? this.row<DocumentRow>(selectByUniqueSql(collection, spec), value) : undefined
      return row === undefined ? undefined : toDocument<T>(collection, row)
    })
  }

  query<T extends Json = Json>(collection: string, options: QueryOptions): Promise<Page<StoredDocument<T>>> {
    return this.run((db) => {
      const { fields } = this.declared(db, () => this.specs.index(collection, options.index))
      const equals = options.equals ?? []
      if (equals.length > fields.length) throw new RangeError(`Index ${options.index} has ${fields.length} fields, not ${equals.length}`)
      const limit = clampLimit(options.limit, DEFAULT_QUERY_LIMIT)
      const orderedFields = fields.slice(equals.length)
      const after = options.after === undefined ? undefined : decodeQueryCursor(options.after, orderedFields.length)
      if (!this.tables.has(collection)) return { items: [], nextCursor: null }
      const { sql, params } = pageQuerySql({ collection, fields, equals, descending: options.order === 'desc', after, limit: limit + 1 })
      const rows = this.statement(sql).all(...params) as DocumentRow[]
      const items = rows.slice(0, limit).map((row) => toDocument<T>(collection, row))
      const last = items.at(-1)
      return { items, nextCursor: rows.length > limit && last !== undefined ? encodeQueryCursor(positionOf(last.key, last.value, orderedFields)) : null }
    })
  }

  commit(writes: readonly Write[]): Promise<CommitOutcome> {
    if (this.closed) return Promise.reject(closedError())
    return new Promise((resolve, reject) => {
      this.pending.push({ writes, resolve, reject, deadline: Date.now() + this.waitMs })
      this.scheduleFlush(0)
    })
  }

  streamHead(stream: string): Promise<StreamHead | undefined> {
    return this.run(() => {
      const head = this.view.streamHead(stream)
      return head === undefined ? undefined : { head: head.head, sequence: head.sequence, cursor: encodeStreamCursor(head.sequence) }
    })
  }

  readStream<T extends Json = Json>(stream: string, options: ReadStreamOptions = {}): Promise<Page<StreamEntry<T>>> {
    return this.run(() => {
      const after = options.after === undefined ? 0 : decodeStreamCursor(options.after)
      const limit = clampLimit(options.limit, DEFAULT_STREAM_LIMIT)
      const rows = this.statement(
        'SELECT sequence, value, entry_digest, prior_head, head FROM stream_entries WHERE stream = ? AND sequence > ? ORDER BY sequence LIMIT ?',
      ).all(stream, after, limit + 1) as EntryRow[]
      const items = rows.slice(0, limit).map((row): StreamEntry<T> => ({
        stream,
        sequence: row.sequence,
        cursor: encodeStreamCursor(row.sequence),
        value: JSON.parse(row.value) as T,
        entryDigest: row.entry_digest,
        priorHead: row.prior_head,
        head: row.head,
      }))
      const last = items.at(-1)
      return { items, nextCursor: rows.length > limit && last !== undefined ? last.cursor : null }
    })
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    // Commits accepted before close() are still carried out (or refused) before the connection goes.
    while (this.pending.length > 0) {
      if (!(await this.flush())) await sleep(busyPauseMs(this.busyAttempts))
    }
    this.statements.clear()
    if (this.db !== undefined && this.options.database === undefined) this.db.close()
  }

  private get waitMs(): number {
    return Math.max(0, this.options.busyTimeoutMs ?? 5000)
  }

  private scheduleFlush(delayMs: number): void {
    if (this.flushScheduled) return
    this.flushScheduled = true
    // setImmediate: commits issued in this turn of the event loop join the same transaction.
    const go = () => {
      this.flushScheduled = false
      void this.flush()
    }
    if (delayMs > 0) setTimeout(go, delayMs)
    else setImmediate(go)
  }

  /**
   * Commit the waiting commits (up to MAX_BATCH) in one transaction and answer each; false when
   * another process held the lock and they wait for another try.
   */
  private async flush(): Promise<boolean> {
    let db: Database.Database
    try {
      db = await this.open()
    } catch (error) {
      for (const commit of this.pending.splice(0)) commit.reject(toStorePortError(error))
      return true
    }
    const batch = this.pending.splice(0, MAX_BATCH)
    if (batch.length === 0) return true
    let results: BatchResult[]
    try {
      results = this.commitBatch(db, batch)
    } catch (error) {
      if (!isBusyError(error)) {
        // Nothing of the batch was written (the transaction rolled back): every caller hears why.
        for (const commit of batch) commit.reject(toStorePortError(error))
        return true
      }
      const now = Date.now()
      for (const commit of batch.filter((waiting) => waiting.deadline <= now)) commit.reject(toStorePortError(error))
      this.pending.unshift(...batch.filter((waiting) => waiting.deadline > now))
      if (!this.closed) this.scheduleFlush(busyPauseMs(this.busyAttempts++))
      return false
    }
    this.busyAttempts = 0
    // Only now, with the shared transaction committed (fsynced under synchronous=FULL), is anyone answered.
    batch.forEach((commit, i) => {
      const result = results[i]!
      if ('outcome' in result) commit.resolve(result.outcome)
      else commit.reject(toStorePortError(result.error))
    })
    if (this.pending.length > 0 && !this.closed) this.scheduleFlush(0)
    return true
  }

  /** One BEGIN IMMEDIATE transaction for the whole batch, a savepoint per commit. Throws only when the transaction fails as a whole. */
  private commitBatch(db: Database.Database, batch: readonly PendingCommit[]): BatchResult[] {
    try {
      return this.commitBatchTransaction(db, batch)
    } finally {
      this.tables.settle()
    }
  }

  private commitBatchTransaction(db: Database.Database, batch: readonly PendingCommit[]): BatchResult[] {
    return db
      .transaction(() =>
        batch.map((commit): BatchResult => {
          try {
            return { outcome: this.commitOne(commit.writes) }
          } catch (error) {
            // The commit's savepoint rolled back. If the shared transaction is still open, the failure
            // is this commit's own (bad data, a refused statement) and the others go on; if SQLite
            // rolled it back too (I/O error, disk full…), nothing of the batch can be kept.
            if (error instanceof Database.SqliteError && !db.inTransaction) throw error
            return { error }
          }
        }),
      )
      .immediate()
  }

  private commitOne(writes: readonly Write[]): CommitOutcome {
    try {
      return this.commitInSavepoint!(writes)
    } catch (error) {
      if (!isUniqueConstraintError(error)) throw error
      // Another process declared a unique key this one has not heard of: learn it and decide again.
      this.loadSpecs(this.db!)
      return this.commitInSavepoint!(writes)
    }
  }

  private planAndApply(writes: readonly Write[]): CommitOutcome {
    const planned = planCommit(writes, this.view)
    if (!planned.ok) return planned
    this.apply(planned.plan)
    return { ok: true, documents: planned.plan.documents, appended: planned.plan.appended }
  }

  private apply(plan: CommitPlan): void {
    // Remove first every stored document a unique value could meet halfway through (those of
    // collections with unique keys) and every deleted one; the rest are updated in place, and new
    // ones inserted, which spares each a statement.
    const inPlace = (change: DocumentChange) => change.storedBefore && change.document !== null && this.view.uniqueKeys(change.collection).length === 0
    for (const change of plan.changes) {
      if (change.storedBefore && !inPlace(change)) this.statement(this.sqlOf(change.collection).remove).run(change.key)
    }
    for (const change of plan.changes) {
      const { document } = change
      if (document === null) continue
      const columns = documentColumns(document.value)
      const sql = this.sqlOf(document.collection)
      if (inPlace(change)) this.statement(sql.update).run(document.version, columns.value, columns.deepValue, document.key)
      else {
        this.tables.ensure(document.collection)
        this.statement(sql.insert).run(document.key, document.version, columns.value, columns.deepValue)
      }
    }
    const append = this.statement(
      'INSERT INTO stream_entries (stream, sequence, value, entry_digest, prior_head, head) VALUES (?, ?, ?, ?, ?, ?)',
    )
    for (const entry of plan.appended) {
      append.run(entry.stream, entry.sequence, JSON.stringify(entry.value), entry.entryDigest, entry.priorHead, entry.head)
    }
  }

  /** Read every declaration made on this file, by any process. */
  private loadSpecs(db: Database.Database): void {
    this.specs = readDeclarations(db)
  }

  /** A declared spec; when this process does not know it, another process may have declared it. */
  private declared<T>(db: Database.Database, find: () => T): T {
    try {
      return find()
    } catch (error) {
      if (!(error instanceof RangeError)) throw error
      this.loadSpecs(db)
      return find()
    }
  }

  /** The SQL of `collection`'s table, made once per collection. */
  private sqlOf(collection: string): DocumentSql {
    let sql = this.collectionSql.get(collection)
    if (sql === undefined) {
      sql = documentSql(collection)
      this.collectionSql.set(collection, sql)
    }
    return sql
  }

  private row<T>(sql: string, ...params: unknown[]): T | undefined {
    return this.statement(sql).get(...params) as T | undefined
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql)
    if (statement === undefined) {
      statement = this.db!.prepare(sql)
      this.statements.set(sql, statement)
    }
    return statement
  }

  /** The connection, opened and set up on first use; set-up waits for other processes' locks like a commit. */
  private open(): Promise<Database.Database> {
    if (this.db !== undefined) return Promise.resolve(this.db)
    this.opening ??= this.openConnection().finally(() => (this.opening = undefined))
    return this.opening
  }

  private async openConnection(): Promise<Database.Database> {
    const { file, database } = this.options
    let db = database
    if (db === undefined) {
      if (file !== ':memory:') mkdirSync(dirname(file!), { recursive: true })
      db = new Database(file!)
    }
    try {
      const opened = db
      await whileBusy(() => {
        prepareDatabase(opened, { synchronous: this.options.synchronous ?? 'FULL' })
        this.loadSpecs(opened)
      }, this.waitMs)
    } catch (error) {
      if (database === undefined) db.close()
      throw error
    }
    this.commitInSavepoint = db.transaction((writes: readonly Write[]) => this.planAndApply(writes))
    this.tables = new CollectionTables(db)
    this.db = db
    return db
  }

  /** Run `task` on the open connection, trying again while another process holds a lock, and reporting infrastructure failures as PortUnavailableError. */
  private async run<T>(task: (db: Database.Database) => T): Promise<T> {
    if (this.closed) throw closedError()
    try {
      const db = await this.open()
      if (this.closed) throw closedError()
      return await whileBusy(() => task(db), this.waitMs)
    } catch (error) {
      throw toStorePortError(error)
    }
  }
}

function closedError(): PortUnavailableError {
  return new PortUnavailableError('Store', 'The SQLite store is closed')
}

function toDocument<T extends Json>(collection: string, row: DocumentRow): StoredDocument<T> {
  return { collection, key: row.key, version: row.version, value: JSON.parse(row.json) as T }
}
