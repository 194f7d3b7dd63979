/**
 * The fake driver stands for a replica set in CI, so it must fail where a server fails. Each test
 * here pins one behaviour of MongoDB that an adapter bug would otherwise hide behind.
 */
import { describe, expect, it } from 'vitest'
import { MongoServerError, MongoTopologyClosedError } from 'mongodb'
import { FakeMongoServer, resumeTokenAt, type FakeChangeStream, type FakeDb, type FakeMongoClient, type FakeSession } from './index.js'

function open() {
  const server = new FakeMongoServer()
  const client = server.client() as unknown as FakeMongoClient
  const db: FakeDb = client.db('t')
  return { server, client, db, docs: db.collection('docs') }
}

const isWriteConflict = (error: unknown) => error instanceof MongoServerError && error.code === 112 && error.hasErrorLabel('TransientTransactionError')

describe('the fake MongoDB driver', () => {
  it('reads a snapshot inside a transaction and fails the write, not the commit, on a later change', async () => {
    const { client, docs } = open()
    await docs.insertOne({ _id: 'a', n: 1 })
    const session: FakeSession = client.startSession()
    session.startTransaction()
    expect(await docs.findOne({ _id: 'a' }, { session })).toEqual({ _id: 'a', n: 1 })
    await docs.replaceOne({ _id: 'a' }, { n: 2 }) // another writer, after the snapshot
    await docs.insertOne({ _id: 'b', n: 1 })
    expect(await docs.findOne({ _id: 'a' }, { session })).toEqual({ _id: 'a', n: 1 }) // still the snapshot
    expect(await docs.findOne({ _id: 'b' }, { session })).toBeNull()
    await expect(docs.replaceOne({ _id: 'a' }, { n: 3 }, { session })).rejects.toSatisfy(isWriteConflict)
    await session.abortTransaction()
  })

  it('collides two transactions on a unique index entry neither has committed', async () => {
    const { client, docs } = open()
    await docs.createIndex({ email: 1 }, { name: 'email', unique: true })
    const [first, second] = [client.startSession(), client.startSession()]
    first.startTransaction()
    second.startTransaction()
    await docs.insertOne({ _id: 'u1', email: 'a' }, { session: first })
    await expect(docs.insertOne({ _id: 'u2', email: 'a' }, { session: second })).rejects.toSatisfy(isWriteConflict)
    await first.commitTransaction()
  })

  it('walks arrays in paths: equality, $type and comparisons hold for any element', async () => {
    const { docs } = open()
    await docs.insertOne({ _id: 1, tags: ['x', 3], nested: [{ v: 'deep' }] })
    expect(await docs.countDocuments({ tags: 'x' })).toBe(1)
    expect(await docs.countDocuments({ tags: { $type: 'string' } })).toBe(1)
    expect(await docs.countDocuments({ tags: { $gt: 2 } })).toBe(1)
    expect(await docs.countDocuments({ 'nested.v': 'deep' })).toBe(1)
    expect(await docs.countDocuments({ tags: ['x', 3] })).toBe(1)
  })

  it('indexes arrays through their elements: a unique index refuses a shared element', async () => {
    const { docs } = open()
    await docs.createIndex({ email: 1 }, { name: 'email', unique: true, partialFilterExpression: { email: { $type: 'string' } } })
    await docs.insertOne({ _id: 1, email: ['a', 'b'] })
    await expect(docs.insertOne({ _id: 2, email: 'b' })).rejects.toMatchObject({ code: 11000 })
  })

  it('sorts an array by its smallest element ascending and its largest descending', async () => {
    const { docs } = open()
    await docs.insertOne({ _id: 'array', v: [5, 1] })
    await docs.insertOne({ _id: 'two', v: 2 })
    await docs.insertOne({ _id: 'empty', v: [] })
    await docs.insertOne({ _id: 'missing' })
    const ids = async (direction: 1 | -1) => (await docs.find({}, { sort: { v: direction } }).toArray()).map((doc) => doc['_id'])
    expect(await ids(1)).toEqual(['empty', 'missing', 'array', 'two'])
    expect(await ids(-1)).toEqual(['array', 'two', 'missing', 'empty'])
  })

  it('answers an unknown or truncated resume token with ChangeStreamHistoryLost', async () => {
    const { server, docs } = open()
    await docs.insertOne({ _id: 1 })
    await docs.insertOne({ _id: 2 })
    const unknown: FakeChangeStream = docs.watch([], { resumeAfter: { _data: 'not-a-token' } })
    await expect(unknown.tryNext()).rejects.toMatchObject({ code: 286, codeName: 'ChangeStreamHistoryLost' })
    server.forgetChangesBefore(2)
    await expect(docs.watch([], { resumeAfter: resumeTokenAt(1) }).tryNext()).rejects.toMatchObject({ code: 286 })
    expect((await docs.watch([], { resumeAfter: resumeTokenAt(2) }).tryNext())).toBeNull()
  })

  it('refuses an index name again with other options (85) or other keys (86)', async () => {
    const { docs } = open()
    await docs.createIndex({ at: 1 }, { name: 'ttl', expireAfterSeconds: 60 })
    await expect(docs.createIndex({ at: 1 }, { name: 'ttl', expireAfterSeconds: 120 })).rejects.toMatchObject({ code: 85 })
    await expect(docs.createIndex({ other: 1 }, { name: 'ttl', expireAfterSeconds: 60 })).rejects.toMatchObject({ code: 86 })
  })

  it('bounds withTransaction: a callback that always collides ends with its error, not forever', async () => {
    const { client } = open()
    const session = client.startSession()
    const realNow = Date.now
    let calls = 0
    try {
      // Time runs fast: each attempt is a minute later.
      Date.now = () => realNow() + calls * 60_000
      const attempt = () => {
        calls += 1
        return Promise.reject(new MongoServerError({ message: 'WriteConflict', code: 112, errorLabels: ['TransientTransactionError'] }))
      }
      await expect(session.withTransaction(attempt)).rejects.toMatchObject({ code: 112 })
    } finally {
      Date.now = realNow
    }
    expect(calls).toBeGreaterThan(1)
    expect(calls).toBeLessThan(5)
  })

  it('fails operations in flight and ends change streams when the client closes', async () => {
    const { client, docs } = open()
    const stream = docs.watch()
    const waiting = stream.next()
    const inFlight = docs.insertOne({ _id: 1 })
    await client.close()
    await expect(inFlight).rejects.toBeInstanceOf(MongoTopologyClosedError)
    await expect(waiting).rejects.toBeInstanceOf(MongoTopologyClosedError)
  })
})
