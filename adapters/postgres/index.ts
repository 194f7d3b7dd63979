export { PostgresStore, POSTGRES_STORE_NAME, type PostgresStoreOptions } from './postgres-store.js'
export { PostgresEventBus, POSTGRES_EVENT_BUS_NAME, type PostgresEventBusOptions } from './postgres-event-bus.js'
export { DEFAULT_SCHEMA, type PostgresConnectionOptions } from './postgres-connection.js'
export type { CommitIsolation } from './postgres-commit.js'
