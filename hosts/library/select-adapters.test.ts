import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FileKeyStore, FsBlobStore } from '../../adapters/fs/index.js'
import { MemoryBlobStore, MemoryEventBus, MemoryKeyStore, MemoryStore } from '../../adapters/memory/index.js'
import { GridFsBlobStore, MongoEventBus, MongoStore } from '../../adapters/mongodb/index.js'
import { PostgresEventBus, PostgresStore } from '../../adapters/postgres/index.js'
import { S3BlobStore } from '../../adapters/s3/index.js'
import { SqliteEventBus, SqliteStore } from '../../adapters/sqlite/index.js'
import { StoreKeyStore } from '../../adapters/store-keys/index.js'
import { PortUnavailableError } from '../../ports/errors.js'
import { selectAdapters } from './select-adapters.js'

const dir = mkdtempSync(join(tmpdir(), 'cairn-select-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('adapters selected by configuration', () => {
  it('keeps everything in memory by default', async () => {
    const selected = selectAdapters({})
    expect(selected.store).toBeInstanceOf(MemoryStore)
    expect(selected.blobs).toBeInstanceOf(MemoryBlobStore)
    expect(selected.events).toBeInstanceOf(MemoryEventBus)
    expect(selected.keys).toBeInstanceOf(MemoryKeyStore)
    expect(selected.description).toBe('store=memory blobs=memory')
    await selected.close()
  })

  it('makes sqlite, fs and a key file the defaults with a data dir', async () => {
    const selected = selectAdapters({ dataDir: dir })
    expect(selected.store).toBeInstanceOf(SqliteStore)
    expect(selected.blobs).toBeInstanceOf(FsBlobStore)
    expect(selected.events).toBeInstanceOf(SqliteEventBus)
    expect(selected.keys).toBeInstanceOf(FileKeyStore)
    expect(selected.description).toBe('store=sqlite blobs=fs keys=file')
    await selected.store.close()
    await selected.events.close()
    await selected.close()
  })

  it('shares one lazily connecting MongoDB client between store, GridFS and the bus', async () => {
    const selected = selectAdapters({ store: 'mongodb://127.0.0.1:1/?replicaSet=rs0', blobs: 'gridfs' })
    expect(selected.store).toBeInstanceOf(MongoStore)
    expect(selected.blobs).toBeInstanceOf(GridFsBlobStore)
    expect(selected.events).toBeInstanceOf(MongoEventBus)
    expect(selected.keys).toBeInstanceOf(StoreKeyStore)
    expect(selected.description).toBe('store=mongodb blobs=gridfs keys=store')
    await selected.close()
  })

  it('keeps keys in a MongoDB store unless a key file is named, and checks the key-encryption key', async () => {
    const uri = 'mongodb://127.0.0.1:1/?replicaSet=rs0'
    const inStore = selectAdapters({ store: uri, dataDir: dir, keyEncryptionKey: Buffer.alloc(32, 7).toString('base64url') })
    expect(inStore.keys).toBeInstanceOf(StoreKeyStore)
    await inStore.close()
    const withFile = selectAdapters({ store: uri, keyFile: join(dir, 'keys.json') })
    expect(withFile.keys).toBeInstanceOf(FileKeyStore)
    expect(withFile.description).toBe('store=mongodb blobs=memory keys=file')
    await withFile.close()
    expect(() => selectAdapters({ store: uri, keyEncryptionKey: 'short' })).toThrow(/32 bytes/)
  })

  it('reads S3 from a URL', async () => {
    const selected = selectAdapters({ blobs: 's3://bucket/prefix?endpoint=http://127.0.0.1:4569&forcePathStyle=true' })
    expect(selected.blobs).toBeInstanceOf(S3BlobStore)
    await selected.close()
  })

  it('shares one lazily connecting pg pool between a PostgreSQL store and its bus, keeps keys in the store, and never names the password', async () => {
    for (const scheme of ['postgres', 'postgresql']) {
      const selected = selectAdapters({ store: `${scheme}://cairn:s3cret@127.0.0.1:1/cairn?poolSize=3&statementTimeoutMs=2000&schema=tenant_a`, blobs: 'fs:' + dir })
      expect(selected.store).toBeInstanceOf(PostgresStore)
      expect(selected.events).toBeInstanceOf(PostgresEventBus)
      expect(selected.keys).toBeInstanceOf(StoreKeyStore)
      expect(selected.description).toBe('store=postgres blobs=fs keys=store')
      // Unreachable: the failure says so without repeating the connection string's password.
      const failure = await selected.store.get('things', 'k').then(() => undefined, (error: unknown) => error as Error)
      expect(failure).toBeInstanceOf(PortUnavailableError)
      expect(`${failure?.message} ${String(failure?.cause)}`).not.toContain('s3cret')
      await selected.close()
    }
  })

  it('refuses combinations that cannot work, with a plain sentence', () => {
    expect(() => selectAdapters({ store: 'sqlite' })).toThrow(/data directory/)
    expect(() => selectAdapters({ blobs: 'gridfs' })).toThrow(/MongoDB store/)
    expect(() => selectAdapters({ store: 'redis://cairn:secret@x' })).toThrow(/^Unknown store "redis:\/\/\*\*\*@x"/)
    expect(() => selectAdapters({ store: 'postgres://x/db?poolSize=0' })).toThrow(/poolSize must be a whole number of at least 1/)
    expect(() => selectAdapters({ store: 'postgres://x/db', blobs: 'gridfs' })).toThrow(/MongoDB store/)
    expect(() => selectAdapters({ blobs: 'ftp://x' })).toThrow(/Unknown blob store/)
  })
})
