/** The in-memory backends of the matrix: the default of `npm start` and the reference of the others. */
import { MemoryBlobStore } from '../../adapters/memory/memory-blob-store.js'
import { MemoryEventBus } from '../../adapters/memory/memory-event-bus.js'
import { MemoryKeyStore } from '../../adapters/memory/memory-key-store.js'
import { MemoryStore } from '../../adapters/memory/memory-store.js'
import type { BlobBackend, StoreBackend } from './types.js'

export const memoryStoreBackend: StoreBackend = {
  store: async () => new MemoryStore(),
  eventBus: async () => new MemoryEventBus(),
  keyStore: async () => new MemoryKeyStore(),
}

export const memoryBlobBackend: BlobBackend = {
  blobs: async () => {
    // The map is the backend: the suite damages bytes in it behind the store's back.
    const bytes = new Map<string, Uint8Array>()
    return {
      blobs: new MemoryBlobStore(bytes),
      corrupt: async (sha256) => {
        const stored = bytes.get(sha256)
        if (stored === undefined || stored.byteLength === 0) throw new Error(`No bytes to damage at ${sha256}`)
        stored[stored.byteLength >> 1]! ^= 0x01
      },
    }
  },
}
