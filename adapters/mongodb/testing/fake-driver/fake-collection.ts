// One collection (FakeCollection) and the View of its documents that one command sees.
import { MongoServerError, MongoTopologyClosedError, ObjectId } from 'mongodb'
import { canonical, decode, encode, idKey, peek, resolvePath, setPath, type Doc } from './documents.js'
import { FakeChangeStream } from './fake-change-stream.js'
import { FakeCursor, page, type CursorSettings } from './fake-cursor.js'
import type { FakeMongoClient, FakeMongoServer } from './fake-server.js'
import { writeConflict, type FakeSession, type FakeTransaction } from './fake-session.js'
import { duplicateKey, sameIndexKey, type IndexDescription } from './indexes.js'
import { matches } from './query.js'

type Options = { session?: FakeSession } & Doc

/** One collection: the CRUD, index and change-stream calls the adapters and GridFSBucket make. */
export class FakeCollection {
  constructor(
    private readonly server: FakeMongoServer,
    readonly target: string,
    private readonly client?: FakeMongoClient,
  ) {}

  get collectionName(): string {
    return this.target.slice(this.target.indexOf('.') + 1)
  }

  async insertOne(doc: Doc, options?: Options): Promise<{ acknowledged: true; insertedId: unknown }> {
    return this.run('insertOne', [doc, options], options?.session, (view) => {
      const withId = '_id' in doc ? doc : { _id: new ObjectId(), ...doc }
      view.write(idKey(withId['_id']), withId, true)
      return { acknowledged: true as const, insertedId: withId['_id'] }
    })
  }

  async replaceOne(filter: Doc, replacement: Doc, options?: Options): Promise<{ matchedCount: number; modifiedCount: number }> {
    return this.run('replaceOne', [filter, replacement, options], options?.session, (view) => {
      const [found] = view.find(filter)
      if (found === undefined) return { matchedCount: 0, modifiedCount: 0 }
      view.write(idKey(found['_id']), { _id: found['_id'], ...replacement }, false)
      return { matchedCount: 1, modifiedCount: 1 }
    })
  }

  async updateOne(filter: Doc, update: Doc, options?: Options): Promise<{ matchedCount: number; modifiedCount: number }> {
    return this.run('updateOne', [filter, update, options], options?.session, (view) => {
      const unsupported = Object.keys(update).filter((operator) => operator !== '$set')
      if (unsupported.length > 0) throw new Error(`The fake supports $set only, not ${unsupported.join(', ')}`)
      const [found] = view.find(filter)
      if (found === undefined && options?.['upsert'] === true) {
        // An upsert inserts the filter's equalities with the update applied.
        const inserted: Doc = { ...Object.fromEntries(Object.entries(filter).filter(([key]) => !key.startsWith('$'))) }
        inserted['_id'] ??= new ObjectId()
        for (const [path, value] of Object.entries((update['$set'] ?? {}) as Doc)) setPath(inserted, path, value)
        view.write(idKey(inserted['_id']), inserted, true)
        return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 }
      }
      if (found === undefined) return { matchedCount: 0, modifiedCount: 0 }
      const updated = { ...found }
      for (const [path, value] of Object.entries((update['$set'] ?? {}) as Doc)) setPath(updated, path, value)
      view.write(idKey(found['_id']), updated, false)
      return { matchedCount: 1, modifiedCount: 1 }
    })
  }

  async deleteOne(filter: Doc, options?: Options): Promise<{ deletedCount: number }> {
    return this.run('deleteOne', [filter, options], options?.session, (view) => {
      const [found] = view.find(filter)
      if (found === undefined) return { deletedCount: 0 }
      view.remove(idKey(found['_id']))
      return { deletedCount: 1 }
    })
  }

  async deleteMany(filter: Doc, options?: Options): Promise<{ deletedCount: number }> {
    return this.run('deleteMany', [filter, options], options?.session, (view) => {
      const found = view.find(filter)
      for (const doc of found) view.remove(idKey(doc['_id']))
      return { deletedCount: found.length }
    })
  }

  async findOne(filter: Doc = {}, options?: Options): Promise<Doc | null> {
    return this.run('findOne', [filter, options], options?.session, (view) => {
      const [first] = page(view.find(filter), (options ?? {}) as CursorSettings)
      return first ?? null
    })
  }

  find(filter: Doc = {}, options?: Options): FakeCursor {
    return new FakeCursor(options ?? {}, (settings) =>
      this.run('find', [filter, settings], options?.session, (view) => page(view.find(filter), settings)),
    )
  }

  async countDocuments(filter: Doc = {}, options?: Options): Promise<number> {
    return this.run('countDocuments', [filter, options], options?.session, (view) => view.find(filter).length)
  }

  async createIndex(keys: Doc, options: Doc = {}): Promise<string> {
    this.server.record(this.target, 'createIndex', [keys, options])
    const ns = this.server.namespace(this.target, true)!
    const name = (options['name'] as string | undefined) ?? Object.entries(keys).map(([field, order]) => `${field}_${order}`).join('_')
    const wanted: IndexDescription = {
      v: 2,
      key: keys,
      name,
      ...(options['unique'] === true ? { unique: true } : {}),
      ...(options['partialFilterExpression'] === undefined ? {} : { partialFilterExpression: options['partialFilterExpression'] as Doc }),
      ...(options['expireAfterSeconds'] === undefined ? {} : { expireAfterSeconds: options['expireAfterSeconds'] as number }),
    }
    const existing = ns.indexes.find((index) => index.name === name)
    if (existing !== undefined) {
      if (canonical(existing) === canonical(wanted)) return name
      const keysDiffer = canonical(existing.key) !== canonical(wanted.key)
      throw new MongoServerError({
        message: `An existing index has the same name as the requested index: ${name}`,
        code: keysDiffer ? 86 : 85,
        codeName: keysDiffer ? 'IndexKeySpecsConflict' : 'IndexOptionsConflict',
      })
    }
    if (wanted.unique === true) {
      // Building a unique index over stored duplicates fails, as on a server.
      const docs = [...ns.docs.values()].map((entry) => decode(entry.bytes))
      docs.forEach((doc, i) => {
        const clash = docs.slice(i + 1).find((other) => sameIndexKey(wanted, doc, other))
        if (clash !== undefined) throw duplicateKey(this.target, name, keys, Object.fromEntries(Object.keys(keys).map((path) => [path, resolvePath(doc, path)])))
      })
    }
    ns.indexes.push(wanted)
    return name
  }

  listIndexes(): { toArray(): Promise<IndexDescription[]> } {
    return {
      toArray: async () => {
        this.server.record(this.target, 'listIndexes', [])
        const ns = this.server.namespace(this.target, false)
        if (ns === undefined) throw new MongoServerError({ message: `ns does not exist: ${this.target}`, code: 26, codeName: 'NamespaceNotFound' })
        return [...ns.indexes]
      },
    }
  }

  watch(pipeline: Doc[] = [], options: Doc = {}): FakeChangeStream {
    this.server.record(this.target, 'watch', [pipeline, options])
    return new FakeChangeStream(this.server, this.target, pipeline, options, this.client)
  }

  private async run<T>(name: string, args: unknown[], session: FakeSession | undefined, body: (view: View) => T): Promise<T> {
    const epoch = this.client?.epoch
    await Promise.resolve()
    // The client closed while this operation was on its way: it fails, as on a closed connection.
    if (this.client !== undefined && this.client.epoch !== epoch) throw new MongoTopologyClosedError()
    const transaction = session?.activeTransaction()
    try {
      this.server.record(this.target, name, args, session)
      transaction?.assertActive()
      const view = new View(this.server, this.target, transaction)
      const result = body(view)
      view.flush()
      return result
    } catch (error) {
      // A failed command aborts the transaction it ran in, as on a real server.
      transaction?.markFailed()
      throw error
    }
  }
}

/** The documents of one namespace as one command sees them: committed ones, under a transaction's own writes. */
class View {
  private readonly pending: { key: string; bytes: Uint8Array | null; inserted: boolean }[] = []

  constructor(
    private readonly server: FakeMongoServer,
    private readonly target: string,
    private readonly transaction: FakeTransaction | undefined,
  ) {}

  /** The bytes of every document this command sees, by key. */
  private entries(): Map<string, Uint8Array> {
    const merged = new Map<string, Uint8Array>()
    // A transaction reads its snapshot; a plain command reads what is committed now.
    for (const [key, bytes] of this.server.committedAt(this.target, this.transaction?.snapshotTime())) merged.set(key, bytes)
    for (const [key, bytes] of this.transaction?.writesTo(this.target) ?? []) {
      if (bytes === null) merged.delete(key)
      else merged.set(key, bytes)
    }
    for (const write of this.pending) {
      if (write.bytes === null) merged.delete(write.key)
      else merged.set(write.key, write.bytes)
    }
    return merged
  }

  /** Fresh copies of the documents passing `filter`. */
  find(filter: Doc): Doc[] {
    return [...this.entries().values()].filter((bytes) => matches(peek(bytes), filter)).map(decode)
  }

  write(key: string, doc: Doc, inserting: boolean): void {
    const bytes = encode(doc)
    if (inserting && this.entries().has(key)) throw duplicateKey(this.target, '_id_', { _id: 1 }, { _id: doc['_id'] })
    this.checkUnique(key, peek(bytes))
    this.transaction?.lock(this.target, key)
    this.pending.push({ key, bytes, inserted: inserting })
  }

  remove(key: string): void {
    this.transaction?.lock(this.target, key)
    this.pending.push({ key, bytes: null, inserted: false })
  }

  /** Commit now, or hand the writes to the transaction for its commit. */
  flush(): void {
    if (this.transaction !== undefined) this.transaction.stage(this.target, this.pending)
    else this.server.apply(this.pending.map((write) => ({ target: this.target, ...write })))
  }

  /**
   * A unique key another document holds is E11000; one that a transaction holds uncommitted, or that
   * changed since this transaction's snapshot, is a WriteConflict (the index entry is contended).
   */
  private checkUnique(key: string, doc: Doc): void {
    const ns = this.server.namespace(this.target, true)!
    for (const index of ns.indexes) {
      if (index.unique !== true || index.name === '_id_') continue
      if (this.transaction !== undefined) {
        const snapshot = this.transaction.snapshotTime()
        for (const [otherKey, entry] of ns.docs) {
          if (otherKey !== key && entry.time > snapshot && sameIndexKey(index, peek(entry.bytes), doc)) throw writeConflict()
        }
        for (const [otherKey, holder] of ns.locks) {
          if (holder === this.transaction || otherKey === key) continue
          const staged = holder.writesTo(this.target).get(otherKey)
          if (staged != null && sameIndexKey(index, peek(staged), doc)) throw writeConflict()
        }
      }
      const clash = [...this.entries()].find(([otherKey, other]) => otherKey !== key && sameIndexKey(index, peek(other), doc))
      if (clash !== undefined) {
        const keyValue = Object.fromEntries(Object.keys(index.key).map((path) => [path, resolvePath(doc, path)]))
        throw duplicateKey(this.target, index.name, index.key, keyValue)
      }
    }
  }
}
