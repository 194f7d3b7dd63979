/**
 * The one MongoDB connection an adapter uses: made on first use, never in a constructor (unstorage's
 * `drivers/mongodb.ts` habit), from a connection string, an injected client or a client several
 * adapters share. The driver itself is imported then too (mongo-driver.ts).
 */
import type { Db, MongoClient } from 'mongodb'
import { PortUnavailableError } from '../../ports/errors.js'
import { MadeOnFirstUse } from '../shared/made-on-first-use.js'
import { loadMongoDriver } from './mongo-driver.js'
import { toPortError } from './mongo-errors.js'

/** How an adapter reaches MongoDB. Give `uri` or `client`. */
export interface MongoConnectionOptions {
  /**
   * Connection string of a replica set, e.g. `mongodb://127.0.0.1:27017/?replicaSet=rs0`.
   * Driver options (timeouts, TLS, pool size) ride in its query string.
   */
  readonly uri?: string
  /**
   * An already configured client, shared with the rest of the process, or a SharedMongoClient made
   * on first use. The adapter never closes a client it was given: its owner does.
   */
  readonly client?: MongoClient | SharedMongoClient
  /**
   * Database that holds Cairn's collections.
   * @default 'cairn'
   */
  readonly dbName?: string
}

/** The default database name. */
export const DEFAULT_DB_NAME = 'cairn'

/**
 * A lazily opened client and database.
 *
 * @example const connection = new LazyMongoConnection('Store', { uri }); const db = await connection.db()
 */
export class LazyMongoConnection {
  private opening: Promise<{ client: MongoClient; db: Db }> | undefined
  private readonly ownsClient: boolean
  private closed = false

  constructor(
    private readonly port: string,
    private readonly options: MongoConnectionOptions,
  ) {
    if (options.client === undefined && (options.uri === undefined || options.uri === '')) {
      throw new TypeError(`The MongoDB ${port} adapter needs a connection string (uri) or a client`)
    }
    this.ownsClient = options.client === undefined
  }

  /** The database, connecting on the first call; a failed connection is retried on the next call. */
  async db(): Promise<Db> {
    return (await this.open()).db
  }

  /** The client, connecting on the first call. */
  async client(): Promise<MongoClient> {
    return (await this.open()).client
  }

  /**
   * Close the client if this connection made it; an injected client stays open for its owner. Any
   * later call is a PortUnavailableError, as with every closed adapter.
   */
  async close(): Promise<void> {
    this.closed = true
    const opening = this.opening
    this.opening = undefined
    if (opening === undefined || !this.ownsClient) return
    const connected = await opening.catch(() => undefined)
    await connected?.client.close()
  }

  private open(): Promise<{ client: MongoClient; db: Db }> {
    if (this.closed) return Promise.reject(new PortUnavailableError(this.port, `The MongoDB ${this.port} adapter is closed`))
    this.opening ??= this.connect().catch((error: unknown) => {
      this.opening = undefined
      throw toPortError(this.port, error)
    })
    return this.opening
  }

  private async connect(): Promise<{ client: MongoClient; db: Db }> {
    const { MongoClient } = await loadMongoDriver()
    const given = this.options.client
    const client = given instanceof SharedMongoClient ? await given.client(this.port) : (given ?? new MongoClient(this.options.uri as string))
    // connect() is idempotent on a connected client; calling it surfaces an unreachable server here.
    await client.connect()
    return { client, db: client.db(this.options.dbName ?? DEFAULT_DB_NAME) }
  }
}

/**
 * One client for the store, GridFS and the EventBus of a deployment (hosts/library/select-adapters.ts),
 * made, with the driver, when the first of them connects; its owner closes it.
 *
 * @example const shared = new SharedMongoClient(uri); new MongoStore({ client: shared }); new MongoEventBus({ client: shared })
 */
export class SharedMongoClient {
  private readonly shared: MadeOnFirstUse<MongoClient>

  constructor(uri: string) {
    this.shared = new MadeOnFirstUse(async () => new (await loadMongoDriver()).MongoClient(uri), (client) => client.close())
  }

  /** The client (not yet connected: each adapter's connection connects it). */
  client(port: string): Promise<MongoClient> {
    return this.shared.get(() => new PortUnavailableError(port, `The MongoDB client of the ${port} adapter is closed`))
  }

  close(): Promise<void> {
    return this.shared.dispose()
  }
}
