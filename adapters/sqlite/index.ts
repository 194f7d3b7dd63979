export { SqliteStore, SQLITE_STORE_NAME, type SqliteStoreOptions } from './sqlite-store.js'
export type { SqliteSynchronous } from './sqlite-schema.js'
export { SqliteEventBus, SQLITE_EVENT_BUS_NAME, type SqliteEventBusOptions } from './sqlite-event-bus.js'
