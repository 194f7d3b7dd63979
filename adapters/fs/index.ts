export { FsBlobStore, FS_BLOB_STORE_NAME, type FsBlobStoreOptions } from './fs-blob-store.js'
export { FileKeyStore, FILE_KEY_STORE_NAME, type FileKeyStoreOptions } from './file-key-store.js'
