/**
 * How the PostgreSQL adapters reach the server: one `pg.Pool` per adapter made on first use from a
 * connection string (or a pool the caller owns and shares, or a SharedPostgresPool), with the pool
 * size and timeouts a deployment sets; the driver is imported then too (pg-driver.ts). A pool made
 * here never crashes the process when an idle connection dies (the server restarts): the connection
 * leaves the pool and the next query opens another.
 */
import type pg from 'pg'
import { PortUnavailableError } from '../../ports/errors.js'
import { MadeOnFirstUse } from '../shared/made-on-first-use.js'
import { loadPgDriver, type PgDriver } from './pg-driver.js'

export interface PostgresConnectionOptions {
  /** e.g. `postgres://cairn@db.internal/cairn`; `pg`'s parameters (sslmode, application_name…) ride in it. */
  readonly connectionString?: string
  /**
   * A pool the caller made and owns, or a SharedPostgresPool (the adapter never ends it); instead of
   * `connectionString`.
   */
  readonly pool?: pg.Pool | SharedPostgresPool
  /**
   * The schema holding the adapter's tables, created on first use.
   * @default 'cairn'
   */
  readonly schema?: string
  /** Connections of the pool made from `connectionString`. @default 10 */
  readonly poolSize?: number
  /** The server cancels a statement running longer (statement_timeout). @default 10000 */
  readonly statementTimeoutMs?: number
  /** How long to wait for a connection (a new one, or a free one of the pool). @default 5000 */
  readonly connectionTimeoutMs?: number
}

export const DEFAULT_SCHEMA = 'cairn'

/**
 * The pool of an adapter, made on first use, ended by `close` when the adapter made it.
 *
 * @example const connection = new PostgresConnection('Store', { connectionString }); await (await connection.pool()).query('SELECT 1')
 */
export class PostgresConnection {
  readonly schema: string
  private made: pg.Pool | undefined
  private closed = false

  constructor(
    private readonly port: string,
    private readonly options: PostgresConnectionOptions,
  ) {
    if (options.pool === undefined && (options.connectionString === undefined || options.connectionString === '')) {
      throw new TypeError(`The PostgreSQL ${port} adapter needs a connection string or a pool`)
    }
    this.schema = options.schema ?? DEFAULT_SCHEMA
    if (this.schema === '' || this.schema.includes('\u0000')) throw new TypeError(`Unusable schema name ${JSON.stringify(this.schema)}`)
  }

  /** The pool, with the driver loaded on the first call; a PortUnavailableError once closed. */
  async pool(): Promise<pg.Pool> {
    const closed = () => new PortUnavailableError(this.port, `The PostgreSQL ${this.port} adapter is closed`)
    if (this.closed) throw closed()
    const driver = await loadPgDriver()
    if (this.closed) throw closed()
    const given = this.options.pool
    if (given instanceof SharedPostgresPool) return given.pool(this.port)
    if (given !== undefined) return guarded(given)
    this.made ??= makePool(driver, this.options)
    return this.made
  }

  /** A dedicated connection (a LISTEN session), not yet connected. */
  async newClient(): Promise<pg.Client> {
    const given = this.options.pool
    const { Client } = await loadPgDriver()
    return new Client(clientConfig(given instanceof SharedPostgresPool ? given.options : this.options))
  }

  get isClosed(): boolean {
    return this.closed
  }

  async close(): Promise<void> {
    this.closed = true
    const made = this.made
    this.made = undefined
    await made?.end()
  }
}

/**
 * One pool for the store and the EventBus of a deployment (hosts/library/select-adapters.ts), made,
 * with the driver, when the first of them needs it; its owner ends it.
 *
 * @example const shared = new SharedPostgresPool({ connectionString }); new PostgresStore({ pool: shared })
 */
export class SharedPostgresPool {
  private readonly shared: MadeOnFirstUse<pg.Pool>

  constructor(readonly options: Omit<PostgresConnectionOptions, 'pool'> & { readonly connectionString: string }) {
    this.shared = new MadeOnFirstUse(() => createPostgresPool(options), (pool) => pool.end())
  }

  pool(port: string): Promise<pg.Pool> {
    return this.shared.get(() => new PortUnavailableError(port, `The PostgreSQL pool of the ${port} adapter is closed`))
  }

  end(): Promise<void> {
    return this.shared.dispose()
  }
}

function clientConfig(options: PostgresConnectionOptions): pg.ClientConfig {
  const fromPool = options.pool instanceof SharedPostgresPool ? undefined : options.pool?.options
  return {
    ...(fromPool ?? { connectionString: options.connectionString }),
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
    statement_timeout: options.statementTimeoutMs ?? 10_000,
    // A host frozen inside a transaction (SIGSTOP, a debugger) must not hold its locks for ever.
    idle_in_transaction_session_timeout: 60_000,
    keepAlive: true,
  }
}

/**
 * A pool with the adapter's settings, for callers that share one between the Store and the EventBus
 * (hosts/library/select-adapters.ts); its owner ends it.
 */
export async function createPostgresPool(options: PostgresConnectionOptions): Promise<pg.Pool> {
  return makePool(await loadPgDriver(), options)
}

function makePool(driver: PgDriver, options: PostgresConnectionOptions): pg.Pool {
  return guarded(new driver.Pool({ ...clientConfig(options), max: options.poolSize ?? 10, idleTimeoutMillis: 30_000 }))
}

const guardedPools = new WeakSet<pg.Pool>()

/**
 * A connection the server drops (a restart, a terminated backend) emits 'error', idle in the pool or
 * checked out between two queries; without a listener that event ends the process. The query under
 * way fails on its own, and the adapters then discard the connection.
 */
function guarded(pool: pg.Pool): pg.Pool {
  if (guardedPools.has(pool)) return pool
  guardedPools.add(pool)
  pool.on('error', () => undefined)
  pool.on('connect', (client) => client.on('error', () => undefined))
  return pool
}
