/**
 * Where MongoStore keeps things: collection names, document shapes and index specs. One Store
 * collection is one MongoDB collection `<prefix>docs_<name>` of `{ _id: key, version, value }`;
 * streams share `<prefix>stream_entries` and `<prefix>stream_heads`.
 */
import type { Collection, CreateIndexesOptions, Db, IndexSpecification } from 'mongodb'
import type { CollectionSpec, IndexSpec, UniqueKeySpec } from '../../ports/store.js'
import { CollectionSpecs } from '../shared/collection-specs.js'
import type { StoredJsonFields } from './json-document.js'

/** A Store document as kept in MongoDB. */
export interface DocumentRecord extends StoredJsonFields {
  readonly _id: string
  readonly version: number
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
  return `unique_${uniqueKey.name}`
}

/**
 * A unique key: unique over `value.<field>` for documents where that field is a string, so documents
 * without it (or with another type) are not indexed, as the port says.
 */
export function uniqueIndexPlan(uniqueKey: UniqueKeySpec): IndexPlan {
  const path = valuePath(uniqueKey.field)
  return {
    keys: { [path]: 1 },
    options: { name: uniqueIndexName(uniqueKey), unique: true, partialFilterExpression: { [path]: { $type: 'string' } } },
  }
}

/** A query index: its fields in order, then the key, which breaks ties as the port says. */
export function queryIndexPlan(index: IndexSpec): IndexPlan {
  const keys: Record<string, 1> = {}
  for (const field of index.fields) keys[valuePath(field)] = 1
  keys['_id'] = 1
  return { keys, options: { name: `index_${index.name}` } }
}

/** The path of a top-level field of a stored value. */
export function valuePath(field: string): string {
  return `value.${field}`
}

/** Names of the MongoDB collections behind a Store, and what `declare` told it. */
export class StoreLayout {
  /** Unique keys and indexes by name, shared with the other Store adapters. */
  readonly specs = new CollectionSpecs()
  private readonly indexedFieldsByCollection = new Map<string, Set<string>>()

  /** @param collectionPrefix prepended to every collection name */
  constructor(private readonly collectionPrefix: string) {}

  /** Remember `spec` (after `specs.added` accepted it) and the fields its indexes read. */
  remember(spec: CollectionSpec): void {
    this.specs.remember(spec)
    const fields = this.indexedFieldsByCollection.get(spec.name) ?? new Set<string>()
    for (const unique of spec.uniqueKeys ?? []) fields.add(unique.field)
    for (const index of spec.indexes ?? []) for (const field of index.fields) fields.add(field)
    this.indexedFieldsByCollection.set(spec.name, fields)
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

  /** Top-level fields some index of `collection` reads. */
  indexedFields(collection: string): ReadonlySet<string> {
    return this.indexedFieldsByCollection.get(collection) ?? NO_FIELDS
  }

  /** The unique key behind a MongoDB index name, if it is one of ours. */
  uniqueKeyOfIndex(collection: string, indexName: string): UniqueKeySpec | undefined {
    return this.specs.uniqueKeys(collection).find((unique) => uniqueIndexName(unique) === indexName)
  }
}

const NO_FIELDS: ReadonlySet<string> = new Set()
