/**
 * The single-machine durable backends of the matrix: SqliteStore on a temporary file, with the
 * SqliteEventBus (its other host a second process on the file) and the FileKeyStore a `--data-dir`
 * deployment uses. The inspector reads the SQLite file over its own read-only connection, not
 * through the adapter.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { FileKeyStore } from '../../adapters/fs/file-key-store.js'
import { SqliteEventBus } from '../../adapters/sqlite/sqlite-event-bus.js'
import { SqliteStore } from '../../adapters/sqlite/sqlite-store.js'
import { documentTable, documentTableName, tableExists } from '../../adapters/sqlite/sqlite-collection-tables.js'
import { spawnFixture } from '../../adapters/sqlite/test-fixtures/spawn-tsx.js'
import { eventBusInChild } from '../support/event-bus-in-child.js'
import type { Json } from '../../ports/store.js'
import type { StoreInspector } from '../targets.js'
import { makeTempDir } from '../support/temp-dir.js'
import type { StoreBackend } from './types.js'

export const sqliteStoreBackend: StoreBackend = {
  store: async () => {
    const dir = await makeTempDir('cairn-sqlite-')
    const file = join(dir.path, 'store.sqlite')
    const inspector = openSqliteInspector(file)
    return {
      store: new SqliteStore({ file }),
      inspect: inspector,
      connectAgain: async () => new SqliteStore({ file }),
      destroy: async () => {
        inspector.close()
        await dir.remove()
      },
    }
  },
  capabilities: { multiProcess: true },
  eventBus: async () => {
    const dir = await makeTempDir('cairn-sqlite-events-')
    const file = join(dir.path, 'cairn.sqlite')
    return {
      bus: new SqliteEventBus({ file }),
      // Another host for real: a second process on the same file.
      connectAgain: () => eventBusInChild(spawnFixture('event-bus-host.ts', [file])),
      destroy: () => dir.remove(),
    }
  },
  keyStore: async () => {
    const dir = await makeTempDir('cairn-keys-')
    const file = join(dir.path, 'keys', 'keys.json')
    return { keys: new FileKeyStore({ file }), reopen: async () => new FileKeyStore({ file }), destroy: () => dir.remove() }
  },
}

/** Reads the tables of a SqliteStore file directly (opened read-only once the file exists). */
export function openSqliteInspector(file: string): StoreInspector & { close(): void } {
  let db: Database.Database | undefined
  const connection = () => {
    if (db === undefined && existsSync(file)) db = new Database(file, { readonly: true, fileMustExist: true })
    return db
  }
  return {
    readDocument: async (collection, key) => {
      const db = connection()
      const row = db !== undefined && tableExists(db, documentTableName(collection)) ? (db.prepare(`SELECT version, COALESCE(deep_value, value) AS value FROM ${documentTable(collection)} WHERE key = ?`).get(key) as { version: number; value: string } | undefined) : undefined
      return row === undefined ? undefined : { version: row.version, value: JSON.parse(row.value) as Json }
    },
    readStreamLength: async (stream) => {
      const row = connection()?.prepare('SELECT count(*) AS length FROM stream_entries WHERE stream = ?').get(stream) as { length: number } | undefined
      return row?.length ?? 0
    },
    close: () => db?.close(),
  }
}
