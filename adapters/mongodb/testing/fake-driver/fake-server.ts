// The fake server (FakeMongoServer: data, command log, planned failures), its client and databases.
import { MongoServerError, MongoTopologyClosedError, Timestamp, type MongoClient } from 'mongodb'
import { decode, encode, type Doc } from './documents.js'
import { resumeTokenAt, type FakeChangeStream } from './fake-change-stream.js'
import { FakeCollection } from './fake-collection.js'
import { FakeSession, type FakeTransaction } from './fake-session.js'
import type { IndexDescription } from './indexes.js'
import { matches } from './query.js'

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

interface Namespace {
  readonly docs: Map<string, StoredEntry>
  /** Every committed version of every document (null: deleted), oldest first: what snapshots read. */
  readonly history: Map<string, { readonly bytes: Uint8Array | null; readonly time: number }[]>
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
  /** Positions before this were truncated from the oplog (`forgetChangesBefore`): resuming there is lost history. */
  changeLogStart = 0
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
      const changedEntry = { bytes: encode(change(doc)), time: ++this.clusterTime }
      ns!.docs.set(key, changedEntry)
      ns!.history.get(key)?.push(changedEntry)
      changed += 1
    }
    return changed
  }

  /** Called with every command as it is recorded: lets a test act at an exact point (close a client mid-call). */
  onCommand: ((command: RecordedCommand) => void) | undefined

  /** @internal */
  record(target: string, name: string, args: readonly unknown[], session?: FakeSession): void {
    const given = [...args]
    while (given.length > 0 && given.at(-1) === undefined) given.pop()
    const command = { target, name, args: given.map(withoutSession), inTransaction: session?.inTransaction() ?? false }
    this.commands.push(command)
    this.onCommand?.(command)
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
      ns = { docs: new Map(), history: new Map(), indexes: [{ v: 2, key: { _id: 1 }, name: '_id_' }], locks: new Map() }
      this.namespaces.set(target, ns)
    }
    return ns
  }

  /** @internal collMod of one index's TTL; unknown namespaces and indexes fail as on a server. */
  collMod(target: string, change: Doc | undefined): void {
    const ns = this.namespaces.get(target)
    if (ns === undefined) throw new MongoServerError({ message: `ns does not exist: ${target}`, code: 26, codeName: 'NamespaceNotFound' })
    if (change === undefined) return
    const position = ns.indexes.findIndex((index) => index.name === change['name'])
    if (position === -1) throw new MongoServerError({ message: `cannot find index ${String(change['name'])} for ns ${target}`, code: 27, codeName: 'IndexNotFound' })
    if (typeof change['expireAfterSeconds'] === 'number') ns.indexes[position] = { ...ns.indexes[position]!, expireAfterSeconds: change['expireAfterSeconds'] }
  }

  /** Truncate the change log (as an oplog rolls over): resuming before `position` is ChangeStreamHistoryLost. */
  forgetChangesBefore(position: number = this.changeLog.length): void {
    this.changeLogStart = Math.max(this.changeLogStart, position)
  }

  /** @internal Cluster time of the last committed change (write or delete) of a document; 0 if never. */
  lastChange(target: string, key: string): number {
    return this.namespaces.get(target)?.history.get(key)?.at(-1)?.time ?? 0
  }

  /** @internal The documents of `target` as committed at cluster time `time` (or now). */
  committedAt(target: string, time: number | undefined): Map<string, Uint8Array> {
    const ns = this.namespaces.get(target)
    const seen = new Map<string, Uint8Array>()
    if (ns === undefined) return seen
    if (time === undefined) {
      for (const [key, entry] of ns.docs) seen.set(key, entry.bytes)
      return seen
    }
    for (const [key, versions] of ns.history) {
      const visible = versions.findLast((version) => version.time <= time)
      if (visible?.bytes != null) seen.set(key, visible.bytes)
    }
    return seen
  }

  /** @internal Apply writes as one commit at a new cluster time, and tell the change streams. */
  apply(writes: readonly { target: string; key: string; bytes: Uint8Array | null; inserted: boolean }[]): void {
    if (writes.length === 0) return
    const time = ++this.clusterTime
    for (const write of writes) {
      const ns = this.namespace(write.target, true)!
      if (write.bytes === null) ns.docs.delete(write.key)
      else ns.docs.set(write.key, { bytes: write.bytes, time })
      const versions = ns.history.get(write.key) ?? []
      versions.push({ bytes: write.bytes, time })
      ns.history.set(write.key, versions)
      if (write.inserted && write.bytes !== null) {
        const [db, ...coll] = write.target.split('.')
        const fullDocument = decode(write.bytes)
        this.changeLog.push({
          namespace: write.target,
          time,
          event: {
            _id: resumeTokenAt(this.changeLog.length + 1),
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
  /** Grows at every close: an operation that started in an earlier epoch fails. */
  epoch = 0

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

  /** Like the driver's: operations still running on this client fail (its change streams end). */
  async close(): Promise<void> {
    this.server.record('client', 'close', [])
    this.connected = false
    this.epoch += 1
    for (const stream of this.server.changeStreams) {
      if (stream.client === this) stream.end(new MongoTopologyClosedError())
    }
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
    return new FakeCollection(this.server, `${this.databaseName}.${name}`, this.client)
  }

  /** Like a server's `create`: NamespaceExists (48) when the collection is there. */
  async createCollection(name: string): Promise<FakeCollection> {
    const target = `${this.databaseName}.${name}`
    this.server.record(this.databaseName, 'createCollection', [name])
    if (this.server.namespace(target, false) !== undefined) {
      throw new MongoServerError({ message: `Collection ${target} already exists.`, code: 48, codeName: 'NamespaceExists' })
    }
    this.server.namespace(target, true)
    return this.collection(name)
  }

  /** `ping`, and `collMod` changing an index's `expireAfterSeconds` (how a TTL changes without a rebuild). */
  async command(command: Doc): Promise<Doc> {
    this.server.record(this.databaseName, 'command', [command])
    if (typeof command['collMod'] === 'string') this.server.collMod(`${this.databaseName}.${command['collMod']}`, command['index'] as Doc | undefined)
    return { ok: 1, operationTime: new Timestamp({ t: 1, i: this.server.clusterTime }) }
  }
}
