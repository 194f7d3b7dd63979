/**
 * The MongoDB backends of the matrix (store=mongodb with its EventBus, blobs=gridfs), on the replica
 * set at MONGODB_URI. Every fixture gets a fresh database, dropped afterwards; `inspect` and
 * `corrupt` go through a separate plain MongoClient, not the adapter under test. Without
 * MONGODB_URI the combinations are skipped (the matrix says so once). Adapters and the driver are
 * imported lazily, so the matrix loads without a MongoDB server.
 */
import { afterAll } from 'vitest'
import type { MongoClient } from 'mongodb'
import type { Json } from '../../ports/store.js'
import type { BlobBackend, StoreBackend } from './types.js'

const uri = process.env['MONGODB_URI'] ?? ''

/** Why the MongoDB combinations do not run (undefined: they run). */
export const mongodbSkipReason: string | undefined =
  uri === '' ? 'MONGODB_URI is not set (a replica set, e.g. mongodb://127.0.0.1:27017/?replicaSet=rs0)' : undefined

let inspector: Promise<MongoClient> | undefined
let databases = 0

/** The plain client that reads and damages the backend behind the adapters' back. */
function plainClient(): Promise<MongoClient> {
  inspector ??= import('mongodb').then(({ MongoClient }) => new MongoClient(uri).connect())
  return inspector
}

afterAll(async () => {
  const client = inspector
  inspector = undefined
  await (await client)?.close()
})

/** A fresh database name for one fixture. */
function freshDatabase(): string {
  databases += 1
  return `cairn_conformance_${process.pid}_${Date.now().toString(36)}_${databases}`
}

async function dropDatabase(dbName: string): Promise<void> {
  await (await plainClient()).db(dbName).dropDatabase()
}

const storeBackend: StoreBackend = {
  capabilities: { multiProcess: true },
  store: async () => {
    const [{ MongoStore }, { decodeJson }] = await Promise.all([
      import('../../adapters/mongodb/mongo-store.js'),
      import('../../adapters/mongodb/json-document.js'),
    ])
    const dbName = freshDatabase()
    const db = (await plainClient()).db(dbName)
    return {
      store: new MongoStore({ uri, dbName }),
      // Another host: its own client and connection pool.
      connectAgain: async () => new MongoStore({ uri, dbName }),
      inspect: {
        readDocument: async (collection: string, key: string) => {
          const record = await db.collection<{ _id: string; version: number; value?: unknown; json?: string }>(`docs_${collection}`).findOne({ _id: key })
          return record === null ? undefined : { version: record.version, value: decodeJson(record) as Json }
        },
        readStreamLength: (stream: string) => db.collection('stream_entries').countDocuments({ stream }),
      },
      destroy: () => dropDatabase(dbName),
    }
  },
  eventBus: async () => {
    const { MongoEventBus } = await import('../../adapters/mongodb/mongo-event-bus.js')
    const dbName = freshDatabase()
    return {
      bus: new MongoEventBus({ uri, dbName }),
      connectAgain: async () => new MongoEventBus({ uri, dbName }),
      destroy: () => dropDatabase(dbName),
    }
  },
  // A MongoDB deployment keeps its signing keys in the store (hosts/library/select-adapters.ts).
  keyStore: async () => {
    const [{ MongoStore }, { storeKeptKeys }] = await Promise.all([import('../../adapters/mongodb/mongo-store.js'), import('./store-kept-keys.js')])
    const dbName = freshDatabase()
    return storeKeptKeys(() => new MongoStore({ uri, dbName }), () => dropDatabase(dbName))
  },
}

const blobBackend: BlobBackend = {
  blobs: async () => {
    const { GridFsBlobStore } = await import('../../adapters/mongodb/gridfs-blob-store.js')
    const dbName = freshDatabase()
    const db = (await plainClient()).db(dbName)
    return {
      blobs: new GridFsBlobStore({ uri, dbName }),
      // Flip one bit in the middle of the first chunk of the stored file.
      corrupt: async (sha256) => {
        const file = await db.collection('blobs.files').findOne({ filename: sha256 })
        if (file === null) throw new Error(`No GridFS file ${sha256} to damage`)
        const chunks = db.collection('blobs.chunks')
        const chunk = await chunks.findOne({ files_id: file['_id'], n: 0 })
        const data = Buffer.from((chunk!['data'] as { buffer: Uint8Array }).buffer)
        data[data.byteLength >> 1]! ^= 0x01
        await chunks.updateOne({ _id: chunk!['_id'] }, { $set: { data } })
      },
      destroy: () => dropDatabase(dbName),
    }
  },
}

export const mongodbStoreBackend: StoreBackend | undefined = mongodbSkipReason === undefined ? storeBackend : undefined

export const gridfsBlobBackend: BlobBackend | undefined = mongodbSkipReason === undefined ? blobBackend : undefined
