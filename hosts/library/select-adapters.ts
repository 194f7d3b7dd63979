/**
 * Adapters chosen by configuration, for the CLI and for teams that configure Cairn by strings:
 *
 * - store: `memory` | `sqlite` (in the data dir) | `sqlite:<file>` | `mongodb://…` / `mongodb+srv://…` |
 *   `postgres://…` / `postgresql://…` (adapters/postgres/parse-postgres-url.ts for pool size, timeouts, schema)
 * - blobs: `memory` | `fs` (in the data dir) | `fs:<dir>` | `gridfs` (with a MongoDB store) | `s3://bucket/prefix?endpoint=…`
 * - a data dir makes `sqlite` + `fs` the defaults and keeps signing keys in `<dataDir>/keys.json`
 * - with a MongoDB or PostgreSQL store, signing keys live in the store itself (StoreKeyStore),
 *   encrypted with `keyEncryptionKey` when given, so no host needs a shared file; an explicit `keyFile` wins
 *
 * The EventBus goes with the store: every host on a SQLite file, a MongoDB deployment or a
 * PostgreSQL database receives every host's live updates. One MongoClient serves the store, GridFS
 * and the change-stream EventBus; one `pg` pool serves the PostgreSQL store and its LISTEN/NOTIFY EventBus.
 * Both are made when the first adapter connects, importing the driver then (an optional peer
 * dependency): selecting memory or SQLite never loads `mongodb` or `pg`.
 */
import { join } from 'node:path'
import { FileKeyStore, FsBlobStore } from '../../adapters/fs/index.js'
import { MemoryBlobStore, MemoryEventBus, MemoryKeyStore, MemoryStore } from '../../adapters/memory/index.js'
import { GridFsBlobStore, MongoEventBus, MongoStore, SharedMongoClient } from '../../adapters/mongodb/index.js'
import { isPostgresUrl, parsePostgresUrl, PostgresEventBus, PostgresStore, SharedPostgresPool } from '../../adapters/postgres/index.js'
import { parseS3Url, S3BlobStore } from '../../adapters/s3/index.js'
import { SqliteEventBus, SqliteStore } from '../../adapters/sqlite/index.js'
import { StoreKeyStore } from '../../adapters/store-keys/index.js'
import type { BlobStore } from '../../ports/blob-store.js'
import type { EventBus } from '../../ports/event-bus.js'
import type { KeyStore } from '../../ports/key-store.js'
import type { Store } from '../../ports/store.js'

export interface StorageSettings {
  /** @default 'sqlite' with a data dir, else 'memory' */
  readonly store?: string
  /** @default 'fs' with a data dir, else 'memory' */
  readonly blobs?: string
  /** Where durable single-machine state lives. */
  readonly dataDir?: string
  /** Signing keys file. @default `<dataDir>/keys.json` with a data dir, else keys live in memory (or in a MongoDB store) */
  readonly keyFile?: string
  /** 32 bytes as base64url: encrypts private keys kept in the store (CAIRN_KEY_ENCRYPTION_KEY). */
  readonly keyEncryptionKey?: string
  /** Days a token-signing key signs before a new one replaces it; 0: never on a schedule. @default 30 */
  readonly keyRotationDays?: number
}

export interface SelectedAdapters {
  readonly store: Store
  readonly blobs: BlobStore
  readonly events: EventBus
  readonly keys: KeyStore
  /** Human-readable choice, for the start-up log line. */
  readonly description: string
  /** Closes what the selection itself opened (the shared MongoClient or `pg` pool). */
  close(): Promise<void>
}

/** Throws an Error with a plain sentence when the settings do not fit together. */
export function selectAdapters(settings: StorageSettings): SelectedAdapters {
  const { dataDir } = settings
  const storeSetting = settings.store ?? (dataDir ? 'sqlite' : 'memory')
  const blobSetting = settings.blobs ?? (dataDir ? 'fs' : 'memory')
  const needsDataDir = (what: string) => {
    if (!dataDir) throw new Error(`${what} needs a data directory (--data-dir or CAIRN_DATA_DIR), or a path after the colon`)
    return dataDir
  }

  const mongoUri = /^mongodb(\+srv)?:\/\//.test(storeSetting) ? storeSetting : undefined
  const client = mongoUri ? new SharedMongoClient(mongoUri) : undefined
  const postgres = isPostgresUrl(storeSetting) ? parsePostgresUrl(storeSetting) : undefined
  const pool = postgres ? new SharedPostgresPool(postgres) : undefined

  let store: Store
  let events: EventBus
  const sqliteFile =
    storeSetting === 'sqlite' ? join(needsDataDir('The sqlite store'), 'cairn.sqlite')
    : storeSetting.startsWith('sqlite:') ? storeSetting.slice('sqlite:'.length)
    : undefined
  if (storeSetting === 'memory') (store = new MemoryStore()), (events = new MemoryEventBus())
  // Live updates travel through the same file, so every host sharing the store receives them.
  else if (sqliteFile !== undefined) (store = new SqliteStore({ file: sqliteFile })), (events = new SqliteEventBus({ file: sqliteFile }))
  else if (client) (store = new MongoStore({ client })), (events = new MongoEventBus({ client }))
  else if (postgres && pool) (store = new PostgresStore({ ...postgres, pool })), (events = new PostgresEventBus({ ...postgres, pool }))
  // The setting may be a connection string with a password: never repeat its credentials.
  else throw new Error(`Unknown store "${storeSetting.replace(/\/\/[^@/]*@/, '//***@')}" (memory, sqlite, sqlite:<file>, mongodb://…, postgres://…)`)

  let blobs: BlobStore
  if (blobSetting === 'memory') blobs = new MemoryBlobStore()
  else if (blobSetting === 'fs') blobs = new FsBlobStore({ root: join(needsDataDir('The fs blob store'), 'blobs') })
  else if (blobSetting.startsWith('fs:')) blobs = new FsBlobStore({ root: blobSetting.slice('fs:'.length) })
  else if (blobSetting === 'gridfs') {
    if (!client) throw new Error('gridfs blobs go with a MongoDB store (--store mongodb://…)')
    blobs = new GridFsBlobStore({ client })
  } else if (blobSetting.startsWith('s3://')) blobs = new S3BlobStore(parseS3Url(blobSetting))
  else throw new Error(`Unknown blob store "${blobSetting}" (memory, fs, fs:<dir>, gridfs, s3://bucket/prefix?endpoint=…)`)

  const keysInStore = settings.keyFile === undefined && (client !== undefined || pool !== undefined)
  const keyFile = keysInStore ? undefined : (settings.keyFile ?? (dataDir ? join(dataDir, 'keys.json') : undefined))
  const ring = settings.keyRotationDays === undefined ? {} : { tokenKeyRotationMs: settings.keyRotationDays * 24 * 60 * 60 * 1000 }
  const keys = keysInStore
    ? new StoreKeyStore({ store, ...ring, ...(settings.keyEncryptionKey ? { keyEncryptionKey: settings.keyEncryptionKey } : {}) })
    : keyFile
      ? new FileKeyStore({ file: keyFile, ...ring })
      : new MemoryKeyStore(ring)
  return {
    store,
    blobs,
    events,
    keys,
    // Never the connection string itself: it may carry a password.
    description: `store=${mongoUri ? 'mongodb' : postgres ? 'postgres' : storeSetting.split(':')[0]} blobs=${blobSetting.split(':')[0]}${keyFile ? ' keys=file' : keysInStore ? ' keys=store' : ''}`,
    close: async () => {
      await client?.close()
      await pool?.end()
    },
  }
}
