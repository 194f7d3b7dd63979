/**
 * The KeyStore fixture of a backend that keeps its signing keys in the Store (MongoDB, PostgreSQL:
 * hosts/library/select-adapters.ts): a StoreKeyStore with a key-encryption key over a store of the
 * backend, `reopen` a new one over a new connection, every connection closed before `drop`.
 */
import { StoreKeyStore } from '../../adapters/store-keys/index.js'
import type { Store } from '../../ports/store.js'
import type { KeyStoreFixture } from '../targets.js'

export function storeKeptKeys(connect: () => Store, drop: () => Promise<void>): KeyStoreFixture {
  const stores: Store[] = []
  const open = () => {
    const store = connect()
    stores.push(store)
    return new StoreKeyStore({ store, keyEncryptionKey: new Uint8Array(32).fill(7) })
  }
  return {
    keys: open(),
    reopen: async () => open(),
    destroy: async () => {
      for (const store of stores) await store.close()
      await drop()
    },
  }
}
