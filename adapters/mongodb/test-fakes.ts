/**
 * A recording fake of the part of the MongoDB driver the adapters use (MongoClient, Db, Collection,
 * cursors, ClientSession transactions, change streams), so the adapters' tests run in CI without a
 * server. It records every command exactly as the adapter sent it, and it behaves like a small
 * replica set where the adapters depend on it: documents round-trip through BSON bytes, unique and
 * partial indexes reject duplicates with E11000, transactions see their own writes and collide with
 * concurrent ones (WriteConflict, labelled TransientTransactionError), and change streams deliver
 * inserts in commit order. Query support is the subset the adapters and GridFSBucket send; paths do
 * not traverse arrays.
 *
 * @example
 * const server = new FakeMongoServer()
 * const store = new MongoStore({ client: server.client() })
 * // … then inspect server.commands, server.documents('cairn.docs_users')
 */
import { BSON, Binary, MongoAPIError, MongoServerError, ObjectId, Timestamp, type MongoClient } from 'mongodb'

type Doc = Record<string, unknown>

/** One call the adapter made, with any `session` option replaced by the `inTransaction` flag. */
export interface RecordedCommand {
  /** `db.collection`, the database name, or `client`/`session` for calls on those. */
  readonly target: string
  readonly name: string
  readonly args: readonly unknown[]
  readonly inTransaction: boolean
}

interface StoredEntry {
  readonly bytes: Uint8Array
  /** Cluster time of the commit that wrote it. */
  readonly time: number
}

interface IndexDescription {
  readonly v: 2
  readonly key: Doc
  readonly name: string
  readonly unique?: boolean
  readonly partialFilterExpression?: Doc
  readonly expireAfterSeconds?: number
}

interface Namespace {
  readonly docs: Map<string, StoredEntry>
  readonly indexes: IndexDescription[]
  readonly locks: Map<string, FakeTransaction>
}

interface ChangeEvent {
  readonly namespace: string
  readonly time: number
  readonly event: Doc
}

interface PlannedFailure {
  readonly name: string
  readonly target: string | undefined
  readonly error: unknown
  remaining: number
}

/** The fake server: its data, the command log and planned failures. */
export class FakeMongoServer {
  readonly commands: RecordedCommand[] = []
  clusterTime = 0
  readonly changeLog: ChangeEvent[] = []
  readonly changeStreams = new Set<FakeChangeStream>()
  private readonly namespaces = new Map<string, Namespace>()
  private readonly failures: PlannedFailure[] = []

  /** A client of this server, typed as the driver's (the adapters only use what the fake implements). */
  client(): MongoClient {
    return new FakeMongoClient(this) as unknown as MongoClient
  }

  /** Make the next `times` calls named `name` (on `target`, if given) throw `error`. */
  failNext(name: string, error: unknown, options: { target?: string; times?: number } = {}): void {
    this.failures.push({ name, target: options.target, error, remaining: options.times ?? 1 })
  }

  /** Commands named `name` (on `target`, if given), in order. */
  commandsNamed(name: string, target?: string): RecordedCommand[] {
    return this.commands.filter((command) => command.name === name && (target === undefined || command.target === target))
  }

  /** The documents of `target` (`db.collection`) as committed, read directly. */
  documents(target: string): Doc[] {
    return [...(this.namespaces.get(target)?.docs.values() ?? [])].map((entry) => decode(entry.bytes))
  }

  /** The indexes of `target` as the server holds them. */
  indexes(target: string): IndexDescription[] {
    return [...(this.namespaces.get(target)?.indexes ?? [])]
  }

  /** Rewrite committed documents of `target` directly, as damage at rest would. */
  tamper(target: string, filter: Doc, change: (doc: Doc) => Doc): number {
    const ns = this.namespaces.get(target)
    let changed = 0
    for (const [key, entry] of ns?.docs ?? []) {
      const doc = decode(entry.bytes)
      if (!matches(doc, filter)) continue
      ns!.docs.set(key, { bytes: encode(change(doc)), time: ++this.clusterTime })
      changed += 1
    }
    return changed
  }

  /** @internal */
  record(target: string, name: string, args: readonly unknown[], session?: FakeSession): void {
    const given = [...args]
    while (given.length > 0 && given.at(-1) === undefined) given.pop()
    this.commands.push({ target, name, args: given.map(withoutSession), inTransaction: session?.inTransaction() ?? false })
    const planned = this.failures.find((failure) => failure.name === name && (failure.target ?? target) === target)
    if (planned === undefined) return
    planned.remaining -= 1
    if (planned.remaining <= 0) this.failures.splice(this.failures.indexOf(planned), 1)
    throw planned.error
  }

  /** @internal */
  namespace(target: string, create: boolean): Namespace | undefined {
    let ns = this.namespaces.get(target)
    if (ns === undefined && create) {
      ns = { docs: new Map(), indexes: [{ v: 2, key: { _id: 1 }, name: '_id_' }], locks: new Map() }
      this.namespaces.set(target, ns)
    }
    return ns
  }

  /** @internal Apply writes as one commit at a new cluster time, and tell the change streams. */
  apply(writes: readonly { target: string; key: string; bytes: Uint8Array | null; inserted: boolean }[]): void {
    if (writes.length === 0) return
    const time = ++this.clusterTime
    for (const write of writes) {
      const ns = this.namespace(write.target, true)!
      if (write.bytes === null) ns.docs.delete(write.key)
      else ns.docs.set(write.key, { bytes: write.bytes, time })
      if (write.inserted && write.bytes !== null) {
        const [db, ...coll] = write.target.split('.')
        const fullDocument = decode(write.bytes)
        this.changeLog.push({
          namespace: write.target,
          time,
          event: {
            _id: { _data: `${time}:${this.changeLog.length}` },
            operationType: 'insert',
            clusterTime: new Timestamp({ t: 1, i: time }),
            ns: { db, coll: coll.join('.') },
            documentKey: { _id: fullDocument['_id'] },
            fullDocument,
          },
        })
      }
    }
    for (const stream of this.changeStreams) stream.wake()
  }
}

function withoutSession(arg: unknown): unknown {
  if (arg === null || typeof arg !== 'object' || !('session' in arg)) return arg
  const { session: _session, ...rest } = arg as Doc
  return rest
}

/** The client: connect, db, startSession, close. */
export class FakeMongoClient {
  connected = false

  constructor(readonly server: FakeMongoServer) {}

  async connect(): Promise<this> {
    this.server.record('client', 'connect', [])
    this.connected = true
    return this
  }

  db(name: string): FakeDb {
    this.server.record('client', 'db', [name])
    return new FakeDb(this.server, name, this)
  }

  startSession(): FakeSession {
    this.server.record('client', 'startSession', [])
    return new FakeSession(this.server)
  }

  async close(): Promise<void> {
    this.server.record('client', 'close', [])
    this.connected = false
  }
}

/** A database: collections and commands. */
export class FakeDb {
  // GridFSBucket reads these (through resolveOptions) from a real Db.
  readonly readConcern = undefined
  readonly writeConcern = undefined
  readonly readPreference = undefined
  readonly bsonOptions = {}

  constructor(
    private readonly server: FakeMongoServer,
    readonly databaseName: string,
    readonly client: FakeMongoClient,
  ) {}

  collection(name: string): FakeCollection {
    return new FakeCollection(this.server, `${this.databaseName}.${name}`)
  }

  async command(command: Doc): Promise<Doc> {
    this.server.record(this.databaseName, 'command', [command])
    return { ok: 1, operationTime: new Timestamp({ t: 1, i: this.server.clusterTime }) }
  }
}

type Options = { session?: FakeSession } & Doc

/** One collection: the CRUD, index and change-stream calls the adapters and GridFSBucket make. */
export class FakeCollection {
  constructor(
    private readonly server: FakeMongoServer,
    readonly target: string,
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
      const [found] = view.find(filter)
      if (found === undefined) return { matchedCount: 0, modifiedCount: 0 }
      const unsupported = Object.keys(update).filter((operator) => operator !== '$set')
      if (unsupported.length > 0) throw new Error(`The fake supports $set only, not ${unsupported.join(', ')}`)
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
    return new FakeChangeStream(this.server, this.target, pipeline, options)
  }

  private async run<T>(name: string, args: unknown[], session: FakeSession | undefined, body: (view: View) => T): Promise<T> {
    await Promise.resolve()
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
    for (const [key, entry] of this.server.namespace(this.target, false)?.docs ?? []) merged.set(key, entry.bytes)
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

  private checkUnique(key: string, doc: Doc): void {
    const ns = this.server.namespace(this.target, true)!
    for (const index of ns.indexes) {
      if (index.unique !== true || index.name === '_id_') continue
      const clash = [...this.entries()].find(([otherKey, other]) => otherKey !== key && sameIndexKey(index, peek(other), doc))
      if (clash !== undefined) {
        const keyValue = Object.fromEntries(Object.keys(index.key).map((path) => [path, resolvePath(doc, path)]))
        throw duplicateKey(this.target, index.name, index.key, keyValue)
      }
    }
  }
}

function sameIndexKey(index: IndexDescription, a: Doc, b: Doc): boolean {
  const filter = index.partialFilterExpression
  if (filter !== undefined && !(matches(a, filter) && matches(b, filter))) return false
  return Object.keys(index.key).every((path) => compareValues(resolvePath(a, path), resolvePath(b, path)) === 0)
}

function duplicateKey(target: string, indexName: string, keyPattern: Doc, keyValue: Doc): MongoServerError {
  return new MongoServerError({
    message: `E11000 duplicate key error collection: ${target} index: ${indexName} dup key: ${JSON.stringify(keyValue)}`,
    code: 11000,
    keyPattern,
    keyValue,
  })
}

/** Settings a cursor gathers before it runs. */
interface CursorSettings {
  sort?: Doc
  limit?: number
  skip?: number
}

/** A find cursor: sort/limit/skip chain, then next/toArray/iteration. */
export class FakeCursor {
  private settings: CursorSettings
  private results: Doc[] | undefined
  private closed = false

  constructor(
    options: Doc,
    private readonly execute: (settings: CursorSettings) => Promise<Doc[]>,
  ) {
    const { session: _session, ...rest } = options
    this.settings = { ...(rest as CursorSettings) }
  }

  sort(sort: Doc): this {
    this.settings = { ...this.settings, sort }
    return this
  }

  limit(limit: number): this {
    this.settings = { ...this.settings, limit }
    return this
  }

  skip(skip: number): this {
    this.settings = { ...this.settings, skip }
    return this
  }

  project(): this {
    return this
  }

  withReadPreference(): this {
    return this
  }

  async toArray(): Promise<Doc[]> {
    const results = await this.load()
    const rest = [...results]
    results.length = 0
    return rest
  }

  async next(): Promise<Doc | null> {
    if (this.closed) return null
    return (await this.load()).shift() ?? null
  }

  async hasNext(): Promise<boolean> {
    return (await this.load()).length > 0
  }

  async close(): Promise<void> {
    this.closed = true
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Doc> {
    for (let doc = await this.next(); doc !== null; doc = await this.next()) yield doc
  }

  private async load(): Promise<Doc[]> {
    this.results ??= await this.execute(this.settings)
    return this.results
  }
}

function page(docs: Doc[], settings: CursorSettings): Doc[] {
  const sorted = settings.sort === undefined ? docs : [...docs].sort((a, b) => compareBySort(a, b, settings.sort!))
  const start = settings.skip ?? 0
  return sorted.slice(start, settings.limit === undefined || settings.limit === 0 ? undefined : start + settings.limit)
}

function compareBySort(a: Doc, b: Doc, sort: Doc): number {
  for (const [path, direction] of Object.entries(sort)) {
    const order = compareValues(resolvePath(a, path), resolvePath(b, path))
    if (order !== 0) return direction === -1 ? -order : order
  }
  return 0
}

/** A session: one transaction at a time, driven by withTransaction like the driver's. */
export class FakeSession {
  private transaction: FakeTransaction | undefined
  ended = false

  constructor(private readonly server: FakeMongoServer) {}

  inTransaction(): boolean {
    return this.transaction?.state === 'active' || this.transaction?.state === 'failed'
  }

  activeTransaction(): FakeTransaction | undefined {
    return this.inTransaction() ? this.transaction : undefined
  }

  /** Like the driver's: retries the callback on TransientTransactionError and the commit on UnknownTransactionCommitResult. */
  async withTransaction<T>(fn: (session: FakeSession) => Promise<T>, options?: Doc): Promise<T> {
    this.server.record('session', 'withTransaction', [options])
    for (let attempt = 1; ; attempt += 1) {
      if (attempt > 10_000) throw new Error('The fake gave up after 10000 transaction attempts')
      // The driver's backoff between attempts: jitter × min(5 ms × 1.5^attempt, 500 ms).
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(5 * 1.5 ** attempt, 500)))
      this.transaction = new FakeTransaction(this.server)
      let result: T
      try {
        result = await fn(this)
      } catch (error) {
        this.server.record('session', 'abortTransaction', [])
        this.transaction.release()
        this.transaction = undefined
        if (hasLabel(error, 'TransientTransactionError')) continue
        throw error
      }
      try {
        await this.commit()
        return result
      } catch (error) {
        if (hasLabel(error, 'TransientTransactionError')) continue
        throw error
      }
    }
  }

  async endSession(): Promise<void> {
    this.server.record('session', 'endSession', [])
    this.ended = true
  }

  private async commit(): Promise<void> {
    const transaction = this.transaction!
    for (;;) {
      try {
        this.server.record('session', 'commitTransaction', [])
        transaction.commit()
        this.transaction = undefined
        return
      } catch (error) {
        if (hasLabel(error, 'UnknownTransactionCommitResult')) continue
        transaction.release()
        this.transaction = undefined
        throw error
      }
    }
  }
}

function hasLabel(error: unknown, label: string): boolean {
  return error instanceof MongoServerError && error.hasErrorLabel(label)
}

/** A WriteConflict, as a server reports a collision between transactions. */
export function writeConflict(): MongoServerError {
  return new MongoServerError({
    message: 'WriteConflict error: this operation conflicted with another operation. Please retry your operation or multi-document transaction.',
    code: 112,
    codeName: 'WriteConflict',
    errorLabels: ['TransientTransactionError'],
  })
}

/** One transaction: its writes wait in an overlay until commit; the documents it wrote are locked. */
class FakeTransaction {
  state: 'active' | 'failed' | 'done' = 'active'
  private readonly startTime: number
  private readonly overlay = new Map<string, Map<string, { bytes: Uint8Array | null; inserted: boolean }>>()

  constructor(private readonly server: FakeMongoServer) {
    this.startTime = server.clusterTime
  }

  assertActive(): void {
    if (this.state === 'failed') {
      throw new MongoServerError({ message: 'Transaction has been aborted.', code: 251, codeName: 'NoSuchTransaction', errorLabels: ['TransientTransactionError'] })
    }
  }

  markFailed(): void {
    if (this.state === 'active') this.state = 'failed'
  }

  writesTo(target: string): Map<string, Uint8Array | null> {
    return new Map([...(this.overlay.get(target) ?? [])].map(([key, write]) => [key, write.bytes]))
  }

  /** A document written since this transaction started, or locked by another one, is a WriteConflict. */
  lock(target: string, key: string): void {
    const ns = this.server.namespace(target, true)!
    const holder = ns.locks.get(key)
    const committed = ns.docs.get(key)
    if ((holder !== undefined && holder !== this) || (committed !== undefined && committed.time > this.startTime)) {
      throw writeConflict()
    }
    ns.locks.set(key, this)
  }

  stage(target: string, writes: readonly { key: string; bytes: Uint8Array | null; inserted: boolean }[]): void {
    let staged = this.overlay.get(target)
    if (staged === undefined) {
      staged = new Map()
      this.overlay.set(target, staged)
    }
    for (const write of writes) {
      const earlier = staged.get(write.key)
      staged.set(write.key, { bytes: write.bytes, inserted: write.inserted || (earlier?.inserted ?? false) })
    }
  }

  commit(): void {
    if (this.state !== 'active') throw new MongoServerError({ message: 'Transaction has been aborted.', code: 251, codeName: 'NoSuchTransaction', errorLabels: ['TransientTransactionError'] })
    const writes = [...this.overlay].flatMap(([target, staged]) => [...staged].map(([key, write]) => ({ target, key, ...write })))
    for (const write of writes) {
      const ns = this.server.namespace(write.target, true)!
      // A document written outside the transaction since it started collides with it.
      if ((ns.docs.get(write.key)?.time ?? 0) > this.startTime) throw writeConflict()
      if (write.bytes === null) continue
      // So do unique keys written since it started.
      const doc = peek(write.bytes)
      for (const index of ns.indexes.filter((candidate) => candidate.unique === true && candidate.name !== '_id_')) {
        for (const [key, entry] of ns.docs) {
          if (key !== write.key && entry.time > this.startTime && sameIndexKey(index, peek(entry.bytes), doc)) throw writeConflict()
        }
      }
    }
    this.server.apply(writes)
    this.state = 'done'
    this.release()
  }

  release(): void {
    for (const target of this.overlay.keys()) {
      const locks = this.server.namespace(target, true)!.locks
      for (const [key, holder] of locks) if (holder === this) locks.delete(key)
    }
    this.state = this.state === 'active' ? 'done' : this.state
  }
}

/** A change stream over one namespace: `$match` stages, start/resume positions, next/tryNext/close. */
export class FakeChangeStream {
  private position: number
  private waiting: { resolve: (event: Doc) => void; reject: (error: unknown) => void } | undefined
  closed = false

  constructor(
    private readonly server: FakeMongoServer,
    private readonly target: string,
    private readonly pipeline: Doc[],
    options: Doc,
  ) {
    const resumeAfter = options['resumeAfter'] as { _data: string } | undefined
    const startAt = options['startAtOperationTime'] as Timestamp | undefined
    if (resumeAfter !== undefined) {
      this.position = server.changeLog.findIndex((change) => (change.event['_id'] as { _data: string })._data === resumeAfter._data) + 1
    } else if (startAt !== undefined) {
      const index = server.changeLog.findIndex((change) => change.time >= startAt.i)
      this.position = index === -1 ? server.changeLog.length : index
    } else {
      this.position = server.changeLog.length
    }
    server.changeStreams.add(this)
  }

  async tryNext(): Promise<Doc | null> {
    if (this.closed) throw new MongoAPIError('ChangeStream is closed')
    return this.take() ?? null
  }

  async next(): Promise<Doc> {
    if (this.closed) throw new MongoAPIError('ChangeStream is closed')
    const ready = this.take()
    if (ready !== undefined) return ready
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject }
    })
  }

  async close(): Promise<void> {
    this.closed = true
    this.server.changeStreams.delete(this)
    this.waiting?.reject(new MongoAPIError('ChangeStream is closed'))
    this.waiting = undefined
  }

  /** @internal New changes were committed. */
  wake(): void {
    if (this.waiting === undefined) return
    const ready = this.take()
    if (ready === undefined) return
    const { resolve } = this.waiting
    this.waiting = undefined
    resolve(ready)
  }

  private take(): Doc | undefined {
    while (this.position < this.server.changeLog.length) {
      const change = this.server.changeLog[this.position]!
      this.position += 1
      if (change.namespace !== this.target) continue
      const passes = this.pipeline.every((stage) => !('$match' in stage) || matches(change.event, stage['$match'] as Doc))
      if (passes) return change.event
    }
    return undefined
  }
}

// --- BSON storage and the query subset ---------------------------------------------------------

function encode(doc: Doc): Uint8Array {
  return BSON.serialize(doc)
}

function decode(bytes: Uint8Array): Doc {
  return BSON.deserialize(bytes) as Doc
}

const peeked = new WeakMap<Uint8Array, Doc>()

/** A decoded document kept for matching only (never handed out, so never changed). */
function peek(bytes: Uint8Array): Doc {
  let doc = peeked.get(bytes)
  if (doc === undefined) {
    doc = decode(bytes)
    peeked.set(bytes, doc)
  }
  return doc
}

function idKey(id: unknown): string {
  return canonical({ id })
}

function canonical(value: unknown): string {
  return JSON.stringify(BSON.EJSON.serialize({ value }, { relaxed: false }))
}

function resolvePath(doc: unknown, path: string): unknown {
  let current: unknown = doc
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined
    current = (current as Doc)[part]
  }
  return current
}

function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split('.')
  let current = doc
  for (const part of parts.slice(0, -1)) {
    current[part] = { ...((current[part] as Doc | undefined) ?? {}) }
    current = current[part] as Doc
  }
  current[parts.at(-1)!] = value
}

/** True when `doc` passes `filter` (equality, $eq $ne $gt $gte $lt $lte $in $nin $exists $type, $and, $or). */
export function matches(doc: Doc, filter: Doc): boolean {
  return Object.entries(filter).every(([key, condition]) => {
    if (key === '$and') return (condition as Doc[]).every((part) => matches(doc, part))
    if (key === '$or') return (condition as Doc[]).some((part) => matches(doc, part))
    if (key.startsWith('$')) throw new Error(`The fake does not support ${key}`)
    const value = resolvePath(doc, key)
    if (isOperatorObject(condition)) return Object.entries(condition).every(([operator, argument]) => applyOperator(operator, argument, value))
    return equalsValue(value, condition)
  })
}

function isOperatorObject(condition: unknown): condition is Doc {
  if (condition === null || typeof condition !== 'object' || Array.isArray(condition)) return false
  const keys = Object.keys(condition)
  return keys.length > 0 && keys.every((key) => key.startsWith('$')) && Object.getPrototypeOf(condition) === Object.prototype
}

function applyOperator(operator: string, argument: unknown, value: unknown): boolean {
  switch (operator) {
    case '$eq':
      return equalsValue(value, argument)
    case '$ne':
      return !equalsValue(value, argument)
    case '$gt':
      return comparable(value, argument) && compareValues(value, argument) > 0
    case '$gte':
      return comparable(value, argument) && compareValues(value, argument) >= 0
    case '$lt':
      return comparable(value, argument) && compareValues(value, argument) < 0
    case '$lte':
      return comparable(value, argument) && compareValues(value, argument) <= 0
    case '$in':
      return (argument as unknown[]).some((candidate) => equalsValue(value, candidate))
    case '$nin':
      return !(argument as unknown[]).some((candidate) => equalsValue(value, candidate))
    case '$exists':
      return (value !== undefined) === argument
    case '$type':
      return value !== undefined && (Array.isArray(argument) ? argument : [argument]).includes(typeName(value))
    default:
      throw new Error(`The fake does not support ${operator}`)
  }
}

function equalsValue(value: unknown, argument: unknown): boolean {
  if (argument === null) return value === null || value === undefined
  return value !== undefined && comparable(value, argument) && compareValues(value, argument) === 0
}

/** Comparison operators only compare values of one type class ("type bracketing"). */
function comparable(value: unknown, argument: unknown): boolean {
  return value !== undefined && typeRank(value) === typeRank(argument)
}

function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'number') return 'number'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'bool'
  if (Array.isArray(value)) return 'array'
  if (value instanceof ObjectId) return 'objectId'
  if (value instanceof Date) return 'date'
  if (value instanceof Binary || value instanceof Uint8Array) return 'binData'
  return 'object'
}

/** MongoDB's order of types: null/absent, numbers, strings, objects, arrays, binary, ObjectId, booleans, dates. */
function typeRank(value: unknown): number {
  const ranks: Record<string, number> = { null: 1, number: 2, string: 3, object: 4, array: 5, binData: 6, objectId: 7, bool: 8, date: 9 }
  return value === undefined ? 1 : (ranks[typeName(value)] ?? 10)
}

/** MongoDB's sort order: by type, then numbers numerically, strings by UTF-8 bytes. */
function compareValues(a: unknown, b: unknown): number {
  const rankOrder = typeRank(a) - typeRank(b)
  if (rankOrder !== 0) return Math.sign(rankOrder)
  if (a === undefined || a === null) return 0
  if (typeof a === 'number') return Math.sign(a - (b as number))
  if (typeof a === 'string') return Buffer.compare(Buffer.from(a), Buffer.from(b as string))
  if (typeof a === 'boolean') return Number(a) - Number(b)
  if (a instanceof Date) return Math.sign(a.getTime() - (b as Date).getTime())
  if (a instanceof ObjectId) return Math.sign(a.toHexString().localeCompare((b as ObjectId).toHexString()))
  return Math.sign(canonical(a).localeCompare(canonical(b)))
}
