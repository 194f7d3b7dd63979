/**
 * Where MongoStore keeps things: collection names, document shapes and index specs. One Store
 * collection is one MongoDB collection `<prefix>docs_<name>` of `{ _id: key, version, value }`;
 * streams share `<prefix>stream_entries` and `<prefix>stream_heads`.
 */
import type { Collection, CreateIndexesOptions, Db, IndexSpecification } from 'mongodb'
import type { CollectionSpec, IndexSpec, UniqueKeySpec } from '../../ports/store.js'
import { CollectionSpecs } from '../shared/collection-specs.js'
import type { StoredJsonFields } from './json-document.js'
import { INDEXED_FIELD, indexPath, unescapeField } from './index-keys.js'

/** A Store document as kept in MongoDB: its value, and the copy of its fields every index reads. */
export interface DocumentRecord extends StoredJsonFields {
  readonly _id: string
  readonly version: number
  readonly [INDEXED_FIELD]: Record<string, string | number>
}

/** One stream entry as kept in MongoDB (`_id` is the server's ObjectId, never read). */
export interface StreamEntryRecord extends StoredJsonFields {
  readonly stream: string
  readonly sequence: number
  readonly entryDigest: string
  readonly priorHead: string | null
  readonly head: string
}

/** The head of one stream: the document every append to the stream updates, so racing appends collide on it. */
export interface StreamHeadRecord {
  readonly _id: string
  readonly head: string
  readonly sequence: number
}

/** An index MongoStore creates: its keys and options, name included. */
export interface IndexPlan {
  readonly keys: IndexSpecification
  readonly options: CreateIndexesOptions & { readonly name: string }
}

/** The index on the entries collection that keeps one entry per (stream, sequence). */
export const STREAM_SEQUENCE_INDEX: IndexPlan = {
  keys: { stream: 1, sequence: 1 },
  options: { name: 'stream_sequence', unique: true },
}

/** The MongoDB index name of a unique key. */
export function uniqueIndexName(uniqueKey: UniqueKeySpec): string {
  return `${UNIQUE_PREFIX}${uniqueKey.name}`
}

/**
 * A unique key: unique over `indexed.<field>` for documents where that field is a string, so documents
 * without it (or with another type) are not indexed, as the port says.
 */
export function uniqueIndexPlan(uniqueKey: UniqueKeySpec): IndexPlan {
  const path = indexPath(uniqueKey.field)
  return {
    keys: { [path]: 1 },
    options: { name: uniqueIndexName(uniqueKey), unique: true, partialFilterExpression: { [path]: { $type: 'string' } } },
  }
}

/** A query index: its fields in order, then the key, which breaks ties as the port says. */
export function queryIndexPlan(index: IndexSpec): IndexPlan {
  const keys: Record<string, 1> = {}
  for (const field of index.fields) keys[indexPath(field)] = 1
  keys['_id'] = 1
  return { keys, options: { name: `${INDEX_PREFIX}${index.name}` } }
}

const UNIQUE_PREFIX = 'unique_'
const INDEX_PREFIX = 'index_'

/**
 * The declarations behind a collection's MongoDB indexes, as `declare` made them (possibly on another
 * host): how a store learns unique keys and indexes it was not told about.
 */
export function specFromIndexes(collection: string, indexes: readonly { readonly name?: string; readonly key: Record<string, unknown> }[]): CollectionSpec {
  const uniqueKeys: UniqueKeySpec[] = []
  const queryIndexes: IndexSpec[] = []
  const fieldOf = (path: string) => (path.startsWith(`${INDEXED_FIELD}.`) ? unescapeField(path.slice(INDEXED_FIELD.length + 1)) : undefined)
  for (const index of indexes) {
    const paths = Object.keys(index.key)
    const name = index.name ?? ''
    if (name.startsWith(UNIQUE_PREFIX) && paths.length === 1) {
      const field = fieldOf(paths[0]!)
      if (field !== undefined) uniqueKeys.push({ name: name.slice(UNIQUE_PREFIX.length), field })
    } else if (name.startsWith(INDEX_PREFIX) && paths.at(-1) === '_id') {
      const fields = paths.slice(0, -1).map(fieldOf)
      if (fields.length > 0 && fields.every((field) => field !== undefined)) queryIndexes.push({ name: name.slice(INDEX_PREFIX.length), fields: fields as string[] })
    }
  }
  return { name: collection, uniqueKeys, indexes: queryIndexes }
}

/** Names of the MongoDB collections behind a Store, and what `declare` told it. */
export class StoreLayout {
  /** Unique keys and indexes by name, shared with the other Store adapters. */
  readonly specs = new CollectionSpecs()

  /** @param collectionPrefix prepended to every collection name */
  constructor(private readonly collectionPrefix: string) {}

  /** Remember `spec` (after `specs.added` accepted it, or as learnt from the server). */
  remember(spec: CollectionSpec): void {
    this.specs.remember(spec)
  }

  documents(db: Db, collection: string): Collection<DocumentRecord> {
    return db.collection<DocumentRecord>(`${this.collectionPrefix}docs_${collection}`)
  }

  entries(db: Db): Collection<StreamEntryRecord> {
    return db.collection<StreamEntryRecord>(`${this.collectionPrefix}stream_entries`)
  }

  heads(db: Db): Collection<StreamHeadRecord> {
    return db.collection<StreamHeadRecord>(`${this.collectionPrefix}stream_heads`)
  }

  /** The unique key behind a MongoDB index name, if it is one of ours. */
  uniqueKeyOfIndex(collection: string, indexName: string): UniqueKeySpec | undefined {
    return this.specs.uniqueKeys(collection).find((unique) => uniqueIndexName(unique) === indexName)
  }
}
