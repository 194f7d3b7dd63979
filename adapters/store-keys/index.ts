export {
  KEY_ENCRYPTION_KEY_ENV,
  KEY_RING_DOCUMENT,
  keyEncryptionKeyOf,
  SIGNING_KEYS_COLLECTION,
  STORE_KEY_STORE_NAME,
  StoreKeyStore,
  type StoreKeyStoreOptions,
} from './store-key-store.js'
