/**
 * Store on a MongoDB replica set: versioned documents, unique keys as partial unique indexes, ordered
 * queries over declared indexes, append-only streams, and one atomic commit per multi-document
 * transaction. See README.md beside this file for the layout and why a replica set is required.
 */
import type { Db, Filter } from 'mongodb'
import { isMongoServerError } from './mongo-driver.js'
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
import { decodeJson } from './json-document.js'
import { commitInTransaction } from './mongo-commit.js'
import { LazyMongoConnection, type MongoConnectionOptions } from './mongo-connection.js'
import { isDuplicateKeyError, toPortError, translatingMongoErrors } from './mongo-errors.js'
import { positionOf } from '../shared/index-order.js'
import { decodeQueryCursor, decodeStreamCursor, encodeQueryCursor, encodeStreamCursor } from '../shared/page-cursor.js'
import { clampLimit, DEFAULT_QUERY_LIMIT, DEFAULT_STREAM_LIMIT } from '../shared/page-limit.js'
import { deepFreeze } from '../shared/stored-json.js'
import { StreamTurns } from '../shared/stream-turns.js'
import { indexQuery } from './query-filter.js'
import { indexPath, indexString } from './index-keys.js'
import {
  queryIndexPlan,
  STREAM_SEQUENCE_INDEX,
  StoreLayout,
  specFromIndexes,
  uniqueIndexPlan,
  type DocumentRecord,
  type IndexPlan,
} from './store-layout.js'

/** The adapter's name, as configuration and logs spell it. */
export const MONGO_STORE_NAME = 'mongodb'

export interface MongoStoreOptions extends MongoConnectionOptions {
  /**
   * Prepended to every MongoDB collection name, so several Cairn deployments (or test runs) can share
   * one database.
   * @default ''
   */
  readonly collectionPrefix?: string
  /**
   * How long one commit's transaction is retried while concurrent commits keep colliding with it
   * (each attempt re-reads and re-checks every expectation; the driver backs off between them)
   * before it reports the collision as a conflict.
   * @default 2000
   */
  readonly commitRetryWindowMs?: number
}

const PORT = 'Store'

/**
 * @example
 * const store = new MongoStore({ uri: 'mongodb://127.0.0.1:27017/?replicaSet=rs0' })
 * await store.declare([{ name: 'users', uniqueKeys: [{ name: 'email', field: 'email' }] }])
 */
export class MongoStore implements Store {
  private readonly connection: LazyMongoConnection
  private readonly layout: StoreLayout
  private readonly commitRetryWindowMs: number
  private readonly streamTurns = new StreamTurns()
  private streamIndexReady: Promise<void> | undefined
  private readonly createdCollections = new Set<string>()

  constructor(options: MongoStoreOptions) {
    this.connection = new LazyMongoConnection(PORT, options)
    this.layout = new StoreLayout(options.collectionPrefix ?? '')
    this.commitRetryWindowMs = options.commitRetryWindowMs ?? 2000
  }

  /**
   * Creates the indexes of what this process has not declared yet. A name declared again over other
   * fields is a RangeError, here or (when another host declared it) from the server; so is a new
   * unique key that documents already stored violate.
   */
  async declare(collections: readonly CollectionSpec[]): Promise<void> {
    const additions = collections.map((spec) => ({ spec, parts: this.layout.specs.added(spec) }))
    const db = await this.connection.db()
    await this.ensureStreamIndex()
    for (const { spec, parts } of additions) {
      const documents = this.layout.documents(db, spec.name)
      if (!this.createdCollections.has(spec.name)) {
        // Made here, not implicitly by a commit's first insert: transactions then only write to
        // collections that exist (catalog changes inside transactions conflict and are limited).
        await translatingMongoErrors(PORT, () => ensureCollection(db, documents.collectionName))
        this.createdCollections.add(spec.name)
      }
      for (const plan of [...parts.uniqueKeys.map(uniqueIndexPlan), ...parts.indexes.map(queryIndexPlan)]) {
        try {
          // createIndex with the same keys, options and name is a no-op: every host declares at start.
          await documents.createIndex(plan.keys, plan.options)
        } catch (error) {
          throw declarationError(spec.name, plan, error)
        }
      }
      this.layout.remember(spec)
    }
  }

  async get<T extends Json = Json>(collection: string, key: string): Promise<StoredDocument<T> | undefined> {
    const db = await this.connection.db()
    const record = await translatingMongoErrors(PORT, () => this.layout.documents(db, collection).findOne({ _id: key }, MAJORITY_READ))
    return record === null ? undefined : toStoredDocument<T>(collection, record)
  }

  async getByUnique<T extends Json = Json>(collection: string, uniqueKey: string, value: string): Promise<StoredDocument<T> | undefined> {
    const { field } = await this.declared(collection, () => this.layout.specs.uniqueKey(collection, uniqueKey))
    const db = await this.connection.db()
    // Restating the partial filter's $type lets the planner use the partial unique index.
    const filter = { [indexPath(field)]: { $eq: indexString(value), $type: 'string' } }
    const record = await translatingMongoErrors(PORT, () => this.layout.documents(db, collection).findOne(filter, MAJORITY_READ))
    return record === null ? undefined : toStoredDocument<T>(collection, record)
  }

  async query<T extends Json = Json>(collection: string, options: QueryOptions): Promise<Page<StoredDocument<T>>> {
    const { fields } = await this.declared(collection, () => this.layout.specs.index(collection, options.index))
    const equals = options.equals ?? []
    if (equals.length > fields.length) throw new RangeError(`Index ${options.index} has ${fields.length} fields, not ${equals.length}`)
    const limit = clampLimit(options.limit, DEFAULT_QUERY_LIMIT)
    const after = options.after === undefined ? undefined : decodeQueryCursor(options.after, fields.length - equals.length)
    const { filter, sort, orderedFields } = indexQuery(fields, equals, options.order === 'desc' ? -1 : 1, after)
    const db = await this.connection.db()
    const records = (await translatingMongoErrors(PORT, () =>
      this.layout.documents(db, collection).find(filter as Filter<DocumentRecord>, { sort, limit: limit + 1, ...MAJORITY_READ }).toArray(),
    ))
    const items = records.slice(0, limit).map((record) => toStoredDocument<T>(collection, record))
    const last = items.at(-1)
    return {
      items,
      nextCursor: records.length > limit && last !== undefined ? encodeQueryCursor(positionOf(last.key, last.value, orderedFields)) : null,
    }
  }

  async commit(writes: readonly Write[]): Promise<CommitOutcome> {
    const db = await this.connection.db()
    const client = await this.connection.client()
    const streams = writes.flatMap((write) => ('stream' in write ? [write.stream] : []))
    if (streams.length > 0) await this.ensureStreamIndex()
    // Two transactions appending to one stream collide on its head: this process's take turns.
    return this.streamTurns.run(streams, () => commitInTransaction(
      { client, db, layout: this.layout, retryWindowMs: this.commitRetryWindowMs, learnDeclarations: (collection) => this.learnDeclarations(collection) },
      writes,
    ))
  }

  async streamHead(stream: string): Promise<StreamHead | undefined> {
    const db = await this.connection.db()
    const record = await translatingMongoErrors(PORT, () => this.layout.heads(db).findOne({ _id: stream }, MAJORITY_READ))
    if (record === null) return undefined
    return { head: record.head, sequence: record.sequence, cursor: encodeStreamCursor(record.sequence) }
  }

  async readStream<T extends Json = Json>(stream: string, options: ReadStreamOptions = {}): Promise<Page<StreamEntry<T>>> {
    const afterSequence = options.after === undefined ? 0 : decodeStreamCursor(options.after)
    const limit = clampLimit(options.limit, DEFAULT_STREAM_LIMIT)
    const db = await this.connection.db()
    const records = await translatingMongoErrors(PORT, () =>
      this.layout
        .entries(db)
        .find({ stream, sequence: { $gt: afterSequence } }, { sort: { sequence: 1 }, limit: limit + 1, ...MAJORITY_READ })
        .toArray(),
    )
    const items: StreamEntry<T>[] = records.slice(0, limit).map((record) =>
      deepFreeze({
        stream: record.stream,
        sequence: record.sequence,
        cursor: encodeStreamCursor(record.sequence),
        value: decodeJson(record) as T,
        entryDigest: record.entryDigest,
        priorHead: record.priorHead,
        head: record.head,
      }),
    )
    const last = items.at(-1)
    return { items, nextCursor: records.length > limit && last !== undefined ? last.cursor : null }
  }

  async close(): Promise<void> {
    await this.connection.close()
  }

  /**
   * A unique key or index this process was not told about may have been declared by another host:
   * learn the collection's declarations from its MongoDB indexes, then look again.
   */
  private async declared<T>(collection: string, find: () => T): Promise<T> {
    try {
      return find()
    } catch (error) {
      if (!(error instanceof RangeError)) throw error
      await this.learnDeclarations(collection)
      return find()
    }
  }

  /** Remember what the collection's MongoDB indexes say was declared (by any host). */
  private async learnDeclarations(collection: string): Promise<void> {
    const db = await this.connection.db()
    const indexes = await translatingMongoErrors(PORT, async () => {
      try {
        return await this.layout.documents(db, collection).listIndexes().toArray()
      } catch (error) {
        // A collection nobody wrote to or declared yet has no indexes.
        if (isMongoServerError(error) && error.code === NAMESPACE_NOT_FOUND) return []
        throw error
      }
    })
    this.layout.remember(specFromIndexes(collection, indexes as { name?: string; key: Record<string, unknown> }[]))
  }

  /** The (stream, sequence) unique index and the heads collection, made once per process before the first append. */
  private ensureStreamIndex(): Promise<void> {
    this.streamIndexReady ??= (async () => {
      const db = await this.connection.db()
      await translatingMongoErrors(PORT, async () => {
        await this.layout.entries(db).createIndex(STREAM_SEQUENCE_INDEX.keys, STREAM_SEQUENCE_INDEX.options)
        await ensureCollection(db, this.layout.heads(db).collectionName)
      })
    })().catch((error: unknown) => {
      this.streamIndexReady = undefined
      throw error
    })
    return this.streamIndexReady
  }
}

/**
 * Reads outside a commit see only what a majority of the replica set holds, so a host never acts on
 * a write that a failover could roll back. (Commits read a snapshot inside their transaction.)
 */
export const MAJORITY_READ = { readConcern: { level: 'majority' } } as const

/** The server's code for a collection that does not exist. */
const NAMESPACE_NOT_FOUND = 26
/** The server's code for creating a collection that exists. */
const NAMESPACE_EXISTS = 48

/** Create the collection unless it exists (another host, or an earlier start, made it). */
async function ensureCollection(db: Db, name: string): Promise<void> {
  try {
    await db.createCollection(name)
  } catch (error) {
    if (!(isMongoServerError(error) && error.code === NAMESPACE_EXISTS)) throw error
  }
}

/** A document as the port gives it: plain JSON, frozen like every Store adapter's. */
function toStoredDocument<T extends Json>(collection: string, record: DocumentRecord): StoredDocument<T> {
  return deepFreeze({ collection, key: record._id, version: record.version, value: decodeJson(record) as T })
}

/** The server's IndexOptionsConflict / IndexKeySpecsConflict: a name declared elsewhere with another spec. */
const INDEX_SPEC_CONFLICT_CODES = new Set([85, 86])

function declarationError(collection: string, plan: IndexPlan, error: unknown): unknown {
  if (isDuplicateKeyError(error)) {
    return new RangeError(`Stored documents of ${collection} share a value of the new unique index ${plan.options.name}`)
  }
  if (isMongoServerError(error) && INDEX_SPEC_CONFLICT_CODES.has(Number(error.code))) {
    return new RangeError(`${plan.options.name} of ${collection} is already declared with another spec (${error.message})`)
  }
  return toPortError(PORT, error)
}
