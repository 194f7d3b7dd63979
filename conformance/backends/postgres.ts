/**
 * The PostgreSQL backends of the matrix (store=postgres with its EventBus and the KeyStore kept in
 * the store), on a throwaway cluster this test file starts itself (adapters/postgres/testing) and
 * removes afterwards. Every fixture gets a fresh schema of one database, dropped afterwards; `inspect`
 * reads the tables over a plain `pg` client, not through the adapter. Without server binaries the
 * combinations are skipped, and the matrix says why.
 */
import pg from 'pg'
import { PostgresEventBus } from '../../adapters/postgres/postgres-event-bus.js'
import { PostgresStore, type PostgresStoreOptions } from '../../adapters/postgres/postgres-store.js'
import { freshSchema } from '../../adapters/postgres/testing/cluster-per-file.js'
import { postgresSkipReason } from '../../adapters/postgres/testing/throwaway-cluster.js'
import type { Json } from '../../ports/store.js'
import type { StoreInspector } from '../targets.js'
import { storeKeptKeys } from './store-kept-keys.js'
import type { StoreBackend } from './types.js'

export { postgresSkipReason }

/** Reads a PostgresStore's tables directly over its own client. */
export function openPostgresInspector(connectionString: string, schema: string): StoreInspector & { close(): Promise<void> } {
  const client = new pg.Client({ connectionString })
  const connected = client.connect()
  const tables = { documents: `"${schema}".documents`, entries: `"${schema}".stream_entries` }
  /** Rows of a query; none while the store has not made its tables yet. */
  const rowsOf = async <R extends pg.QueryResultRow>(sql: string, values: unknown[]): Promise<R[]> => {
    await connected
    try {
      return (await client.query<R>(sql, values)).rows
    } catch (error) {
      if ((error as { code?: string }).code === '42P01') return []
      throw error
    }
  }
  return {
    readDocument: async (collection, key) => {
      const [row] = await rowsOf<{ version: string; value: Json }>(
        `SELECT version::text AS version, value FROM ${tables.documents} WHERE collection = $1 AND key = $2`,
        [collection, key],
      )
      return row === undefined ? undefined : { version: Number(row.version), value: row.value }
    },
    readStreamLength: async (stream) => {
      const [row] = await rowsOf<{ length: number }>(`SELECT count(*)::int AS length FROM ${tables.entries} WHERE stream = $1`, [stream])
      return row?.length ?? 0
    },
    close: () => client.end(),
  }
}

/** A store backend in the given isolation (the matrix runs the default; the adapter's tests the other). */
export function postgresStoreBackend(options: Pick<PostgresStoreOptions, 'isolation'> = {}): StoreBackend {
  return {
    capabilities: { multiProcess: true },
    propertyRuns: 20,
    store: async () => {
      const { connectionString, schema, drop } = await freshSchema()
      const open = () => new PostgresStore({ connectionString, schema, poolSize: 8, ...options })
      const inspector = openPostgresInspector(connectionString, schema)
      return {
        store: open(),
        // Another host: its own pool.
        connectAgain: async () => open(),
        inspect: inspector,
        destroy: async () => {
          await inspector.close()
          await drop()
        },
      }
    },
    eventBus: async () => {
      const { connectionString, schema, drop } = await freshSchema()
      const open = () => new PostgresEventBus({ connectionString, schema, poolSize: 2 })
      return { bus: open(), connectAgain: async () => open(), destroy: drop }
    },
    // A PostgreSQL deployment keeps its signing keys in the store, encrypted (hosts/library/select-adapters.ts).
    keyStore: async () => {
      const { connectionString, schema, drop } = await freshSchema()
      return storeKeptKeys(() => new PostgresStore({ connectionString, schema, poolSize: 2 }), drop)
    },
  }
}

export const postgresBackend: StoreBackend | undefined = postgresSkipReason === undefined ? postgresStoreBackend() : undefined
