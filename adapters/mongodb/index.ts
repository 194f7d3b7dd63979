export { MongoStore, MONGO_STORE_NAME, type MongoStoreOptions } from './mongo-store.js'
export { MongoEventBus, MONGO_EVENT_BUS_NAME, type MongoEventBusOptions } from './mongo-event-bus.js'
export { GridFsBlobStore, GRIDFS_BLOB_STORE_NAME, type GridFsBlobStoreOptions } from './gridfs-blob-store.js'
export { DEFAULT_DB_NAME, SharedMongoClient, type MongoConnectionOptions } from './mongo-connection.js'
