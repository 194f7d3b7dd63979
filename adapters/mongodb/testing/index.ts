/**
 * A recording fake of the part of the MongoDB driver the adapters use (MongoClient, Db, Collection,
 * cursors, ClientSession transactions, change streams), so the adapters' tests run in CI without a
 * server. It records every command exactly as the adapter sent it, and it behaves like a small
 * replica set where the adapters depend on it: documents round-trip through BSON bytes, unique and
 * partial indexes reject duplicates with E11000, transactions see their own writes and collide with
 * concurrent ones (WriteConflict, labelled TransientTransactionError), and change streams deliver
 * inserts in commit order. Query support is the subset the adapters and GridFSBucket send; paths do
 * not traverse arrays.
 *
 * The parts live in fake-driver/, one concept a file; this index re-exports them.
 *
 * @example
 * const server = new FakeMongoServer()
 * const store = new MongoStore({ client: server.client() })
 * // … then inspect server.commands, server.documents('cairn.docs_users')
 */
export { changeStreamHistoryLost, FakeChangeStream, resumeTokenAt } from './fake-driver/fake-change-stream.js'
export { FakeCollection } from './fake-driver/fake-collection.js'
export { FakeCursor } from './fake-driver/fake-cursor.js'
export { FakeDb, FakeMongoClient, FakeMongoServer, type RecordedCommand } from './fake-driver/fake-server.js'
export { FakeSession, writeConflict } from './fake-driver/fake-session.js'
export { matches } from './fake-driver/query.js'
