export { SqliteStore, SQLITE_STORE_NAME, type SqliteStoreOptions } from './sqlite-store.js'
export type { SqliteSynchronous } from './sqlite-schema.js'
