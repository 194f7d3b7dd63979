/**
 * The conformance suites (Store, EventBus, BlobStore, KeyStore on StoreKeyStore, and the combination) against the MongoDB
 * adapters over the recording fake driver (testing/), so the adapters' logic (expectations,
 * unique keys, query order, cursors, streams, races over two hosts, change-stream delivery, GridFS
 * integrity) is held to the contract of every adapter in CI, without a server. With MONGODB_URI set,
 * the conformance matrix runs the same suites against a real replica set.
 */
import { Binary } from 'mongodb'
import { describeBlobStoreConformance } from '../../conformance/blob-store-conformance.js'
import { describeCombinationConformance } from '../../conformance/combination-conformance.js'
import { describeEventBusConformance } from '../../conformance/event-bus-conformance.js'
import { describeKeyStoreConformance } from '../../conformance/key-store-conformance.js'
import { describeStoreConformance } from '../../conformance/store-conformance.js'
import { describeTransparencyLogScenario } from '../../conformance/scenarios/transparency-log-scenario.js'
import { StoreKeyStore } from '../store-keys/index.js'
import type { BlobStoreFixture, StoreFixture } from '../../conformance/targets.js'
import type { Json } from '../../ports/store.js'
import { GridFsBlobStore } from './gridfs-blob-store.js'
import { decodeJson } from './json-document.js'
import { MongoEventBus } from './mongo-event-bus.js'
import { MongoStore } from './mongo-store.js'
import { FakeMongoServer } from './testing/index.js'

const NAME = 'store=mongodb(fake driver) blobs=gridfs(fake driver)'

async function storeFixture(): Promise<StoreFixture> {
  const server = new FakeMongoServer()
  return {
    store: new MongoStore({ client: server.client() }),
    connectAgain: async () => new MongoStore({ client: server.client() }),
    // Read what the fake server holds, not what the adapter says.
    inspect: {
      readDocument: async (collection, key) => {
        const record = server.documents(`cairn.docs_${collection}`).find((document) => document['_id'] === key)
        return record === undefined ? undefined : { version: record['version'] as number, value: decodeJson(record) as Json }
      },
      readStreamLength: async (stream) => server.documents('cairn.stream_entries').filter((entry) => entry['stream'] === stream).length,
    },
  }
}

async function blobFixture(): Promise<BlobStoreFixture> {
  const server = new FakeMongoServer()
  return {
    blobs: new GridFsBlobStore({ client: server.client() }),
    corrupt: async (sha256) => {
      const [file] = server.documents('cairn.blobs.files').filter((candidate) => candidate['filename'] === sha256)
      const damaged = server.tamper('cairn.blobs.chunks', { files_id: file!['_id'], n: 0 }, (chunk) => {
        const data = Buffer.from((chunk['data'] as Binary).buffer)
        data[data.byteLength >> 1]! ^= 0x01
        return { ...chunk, data: new Binary(data) }
      })
      if (damaged !== 1) throw new Error(`No chunk of ${sha256} to damage`)
    },
  }
}

describeStoreConformance({ name: NAME, capabilities: { multiProcess: true }, create: storeFixture })

describeEventBusConformance({
  name: NAME,
  create: async () => {
    const server = new FakeMongoServer()
    return { bus: new MongoEventBus({ client: server.client() }), connectAgain: async () => new MongoEventBus({ client: server.client() }) }
  },
})

describeBlobStoreConformance({ name: NAME, create: blobFixture })

// A MongoDB deployment keeps its signing keys in the store: the KeyStore suite on StoreKeyStore, with
// a restart (reopen) on the same fake server.
describeKeyStoreConformance({
  name: NAME,
  create: async () => {
    const server = new FakeMongoServer()
    const open = () => new StoreKeyStore({ store: new MongoStore({ client: server.client() }), keyEncryptionKey: new Uint8Array(32).fill(7) })
    return { keys: open(), reopen: async () => open() }
  },
})

describeCombinationConformance({ name: NAME, store: storeFixture, blobs: blobFixture })

describeTransparencyLogScenario({ name: NAME, store: storeFixture, blobs: blobFixture })
