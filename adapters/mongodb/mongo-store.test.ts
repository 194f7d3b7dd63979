import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { MongoNetworkError, MongoServerError, MongoServerSelectionError } from 'mongodb'
import { chainHead, entryDigestOf } from '../../core/digest/chain.js'
import { PortUnavailableError } from '../../ports/errors.js'
import type { CollectionSpec, Expectation, Json, StoredDocument, Write } from '../../ports/store.js'
import { COMMIT_TRANSACTION_OPTIONS } from './mongo-commit.js'
import { MongoStore } from './mongo-store.js'
import { FakeMongoServer, writeConflict } from './testing/index.js'

const USERS: CollectionSpec = {
  name: 'users',
  uniqueKeys: [{ name: 'email', field: 'email' }],
  indexes: [{ name: 'byTeam', fields: ['team', 'joined'] }],
}

async function openStore(options: { commitRetryWindowMs?: number } = {}) {
  const server = new FakeMongoServer()
  const store = new MongoStore({ client: server.client(), collectionPrefix: 't_', ...options })
  await store.declare([USERS])
  server.commands.length = 0
  return { server, store }
}

function put(key: string, value: Json, expect: Expectation = { kind: 'any' }): Write {
  return { kind: 'put', collection: 'users', key, value, expect }
}

describe('MongoStore connection', () => {
  it('makes no call to an injected client before first use, then connects and picks the database', async () => {
    const server = new FakeMongoServer()
    const store = new MongoStore({ client: server.client(), dbName: 'tenant' })
    expect(server.commands).toEqual([])
    await store.get('users', 'nobody')
    expect(server.commands.slice(0, 2).map((command) => [command.name, command.args])).toEqual([
      ['connect', []],
      ['db', ['tenant']],
    ])
    // Reads outside a commit never see what a failover could roll back.
    expect(server.commands[2]).toMatchObject({ target: 'tenant.docs_users', name: 'findOne', args: [{ _id: 'nobody' }, { readConcern: { level: 'majority' } }] })
    await store.close()
    expect(server.commandsNamed('close')).toEqual([])
  })

  it('refuses every call once closed', async () => {
    const { store } = await openStore()
    await store.close()
    await expect(store.get('users', 'u1')).rejects.toBeInstanceOf(PortUnavailableError)
    await expect(store.commit([put('u1', 1)])).rejects.toBeInstanceOf(PortUnavailableError)
  })

  it('needs a connection string or a client', () => {
    expect(() => new MongoStore({})).toThrow(TypeError)
  })

  it('reports a server nobody answers at as PortUnavailableError (real driver, 127.0.0.1, closed port)', async () => {
    const store = new MongoStore({ uri: 'mongodb://127.0.0.1:9/?serverSelectionTimeoutMS=200&directConnection=true' })
    const failure = await store.get('users', 'k').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(PortUnavailableError)
    expect((failure as PortUnavailableError).cause).toBeInstanceOf(MongoServerSelectionError)
    await store.close()
  })
})

describe('MongoStore.declare', () => {
  it('creates named unique (partial) and query indexes, and the stream index', async () => {
    const server = new FakeMongoServer()
    const store = new MongoStore({ client: server.client() })
    await store.declare([USERS])
    expect(server.commandsNamed('createIndex').map((command) => [command.target, ...command.args])).toEqual([
      ['cairn.stream_entries', { stream: 1, sequence: 1 }, { name: 'stream_sequence', unique: true }],
      [
        'cairn.docs_users',
        { 'indexed.email': 1 },
        { name: 'unique_email', unique: true, partialFilterExpression: { 'indexed.email': { $type: 'string' } } },
      ],
      ['cairn.docs_users', { 'indexed.team': 1, 'indexed.joined': 1, _id: 1 }, { name: 'index_byTeam' }],
    ])
  })

  it('is idempotent: a host declaring again sends the same specs and changes nothing; the same store sends nothing', async () => {
    const server = new FakeMongoServer()
    await new MongoStore({ client: server.client() }).declare([USERS])
    const indexes = server.indexes('cairn.docs_users')
    const first = server.commandsNamed('createIndex', 'cairn.docs_users').map((command) => command.args)
    server.commands.length = 0
    const anotherHost = new MongoStore({ client: server.client() })
    await anotherHost.declare([USERS])
    expect(server.commandsNamed('createIndex', 'cairn.docs_users').map((command) => command.args)).toEqual(first)
    expect(server.indexes('cairn.docs_users')).toEqual(indexes)
    expect(indexes.map((index) => index.name)).toEqual(['_id_', 'unique_email', 'index_byTeam'])
    server.commands.length = 0
    await anotherHost.declare([USERS])
    expect(server.commandsNamed('createIndex')).toEqual([])
  })

  it('refuses a name declared again over other fields, in this process or on another host', async () => {
    const server = new FakeMongoServer()
    const store = new MongoStore({ client: server.client() })
    await store.declare([USERS])
    const changed = { ...USERS, indexes: [{ name: 'byTeam', fields: ['team'] }] }
    await expect(store.declare([changed])).rejects.toThrow(RangeError)
    await expect(new MongoStore({ client: server.client() }).declare([changed])).rejects.toThrow(RangeError)
  })

  it('refuses a new unique key that stored documents already violate', async () => {
    const server = new FakeMongoServer()
    const store = new MongoStore({ client: server.client() })
    await store.declare([{ name: 'users' }])
    await store.commit([put('u1', { nick: 'a' }), put('u2', { nick: 'a' })])
    await expect(store.declare([{ name: 'users', uniqueKeys: [{ name: 'nick', field: 'nick' }] }])).rejects.toThrow(RangeError)
  })
})

describe('MongoStore.commit', () => {
  it('lets commits of this process appending to one stream take turns instead of colliding on its head', async () => {
    const { server, store } = await openStore()
    const COMMITS = 12
    const outcomes = await Promise.all(Array.from({ length: COMMITS }, (_, i) =>
      store.commit([put(`u${i}`, { n: i }, { kind: 'absent' }), { kind: 'appendNext', stream: 'log', value: { i } }])))
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true)
    // One transaction each: none collided and ran again.
    expect(server.commandsNamed('startTransaction')).toHaveLength(COMMITS)
    expect((await store.readStream('log', { limit: 100 })).items.map((entry) => entry.sequence)).toEqual(Array.from({ length: COMMITS }, (_, i) => i + 1))
  })

  it('runs in a snapshot / majority / primary transaction and inserts an absent document at version 1', async () => {
    const { server, store } = await openStore()
    const outcome = await store.commit([put('u1', { email: 'a@x', team: 'red', joined: 1 }, { kind: 'absent' })])
    expect(outcome).toEqual({
      ok: true,
      documents: [{ collection: 'users', key: 'u1', version: 1, value: { email: 'a@x', team: 'red', joined: 1 } }],
      appended: [],
    })
    // The commit window bounds the server's commit too (maxCommitTimeMS).
    expect(server.commandsNamed('startTransaction')[0]?.args).toEqual([{ ...COMMIT_TRANSACTION_OPTIONS, maxCommitTimeMS: 2000 }])
    expect(COMMIT_TRANSACTION_OPTIONS).toEqual({ readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' }, readPreference: 'primary' })
    const writes = server.commands.filter((command) => command.target === 'cairn.t_docs_users')
    expect(writes.map(({ name, args, inTransaction }) => ({ name, args, inTransaction }))).toEqual([
      { name: 'findOne', args: [{ _id: 'u1' }, {}], inTransaction: true },
      {
        name: 'insertOne',
        args: [{ _id: 'u1', version: 1, value: { email: 'a@x', team: 'red', joined: 1 }, indexed: { email: 'a@x', team: 'red', joined: 1 } }, {}],
        inTransaction: true,
      },
    ])
    expect(server.commandsNamed('endSession')).toHaveLength(1)
    // Read the backend directly: exactly the document layout the README promises.
    expect(server.documents('cairn.t_docs_users').slice(0, 1)).toEqual([
      { _id: 'u1', version: 1, value: { email: 'a@x', team: 'red', joined: 1 }, indexed: { email: 'a@x', team: 'red', joined: 1 } },
    ])
  })

  it('replaces with a filter that carries the version it expects', async () => {
    const { server, store } = await openStore()
    await store.commit([put('u1', { email: 'a@x' }, { kind: 'absent' })])
    server.commands.length = 0
    const outcome = await store.commit([put('u1', { email: 'b@x' }, { kind: 'version', version: 1 })])
    expect(outcome.ok && outcome.documents[0]?.version).toBe(2)
    expect(server.commandsNamed('replaceOne')[0]).toMatchObject({
      args: [{ _id: 'u1', version: 1 }, { version: 2, value: { email: 'b@x' } }, {}],
      inTransaction: true,
    })
    await store.commit([{ kind: 'delete', collection: 'users', key: 'u1', expect: { kind: 'version', version: 2 } }])
    expect(server.commandsNamed('deleteOne')[0]).toMatchObject({ args: [{ _id: 'u1', version: 2 }, {}], inTransaction: true })
    expect(server.documents('cairn.t_docs_users')).toEqual([])
  })

  it('writes nothing when any expectation fails, and names the first that did', async () => {
    const { server, store } = await openStore()
    await store.commit([put('u1', { email: 'a@x' }, { kind: 'absent' })])
    const before = server.documents('cairn.t_docs_users')
    const outcome = await store.commit([
      put('u2', { email: 'b@x' }, { kind: 'absent' }),
      put('u1', { email: 'c@x' }, { kind: 'version', version: 7 }),
      put('u3', { email: 'd@x' }, { kind: 'absent' }),
    ])
    expect(outcome).toEqual({ ok: false, conflict: { _tag: 'VersionMismatch', writeIndex: 1, expected: { kind: 'version', version: 7 }, actualVersion: 1 } })
    expect(server.documents('cairn.t_docs_users')).toEqual(before)
    expect(server.commandsNamed('abortTransaction')).toHaveLength(1)
  })

  it('turns E11000 on a unique index into UniqueViolation, naming the key and value', async () => {
    const { server, store } = await openStore()
    await store.commit([put('u1', { email: 'a@x' }, { kind: 'absent' })])
    const outcome = await store.commit([put('u0', { team: 'red' }), put('u2', { email: 'a@x' }, { kind: 'absent' })])
    expect(outcome).toEqual({ ok: false, conflict: { _tag: 'UniqueViolation', writeIndex: 1, uniqueKey: 'email', value: 'a@x' } })
    expect(server.documents('cairn.t_docs_users').map((doc) => doc['_id'])).toEqual(['u1'])
    // Documents without the field, or with another type there, are not indexed.
    const unindexed = await store.commit([put('u3', { team: 'red' }), put('u4', { team: 'blue' }), put('u5', { email: 5 }), put('u6', { email: 5 })])
    expect(unindexed.ok).toBe(true)
  })

  it('reports E11000 on the key as the conflict found after the abort, or as unavailable when every expectation still holds', async () => {
    const { server, store } = await openStore()
    await store.commit([put('u1', { email: 'a@x' }, { kind: 'absent' })])
    const duplicateId = new MongoServerError({
      message: 'E11000 duplicate key error collection: cairn.t_docs_users index: _id_ dup key: { _id: "u1" }',
      code: 11000,
      keyPattern: { _id: 1 },
    })
    server.commands.length = 0
    // A lost race is run again, re-checking every expectation: here it then goes through.
    server.failNext('replaceOne', duplicateId, { target: 'cairn.t_docs_users' })
    expect(await store.commit([put('u1', { email: 'b@x' }, { kind: 'version', version: 1 })])).toMatchObject({ ok: true })
    expect(server.commandsNamed('replaceOne')).toHaveLength(2)
    const outcome = await store.commit([put('u1', { email: 'c@x' }, { kind: 'version', version: 1 })])
    expect(outcome).toEqual({ ok: false, conflict: { _tag: 'VersionMismatch', writeIndex: 0, expected: { kind: 'version', version: 1 }, actualVersion: 2 } })
    // Colliding until the window ends while version 2 is still there: a conflict would be false.
    const short = new MongoStore({ client: server.client(), collectionPrefix: 't_', commitRetryWindowMs: 30 })
    server.failNext('replaceOne', duplicateId, { target: 'cairn.t_docs_users', times: 100_000 })
    await expect(short.commit([put('u1', { email: 'c@x' }, { kind: 'version', version: 2 })])).rejects.toBeInstanceOf(PortUnavailableError)
  })

  it('retries a transaction that hit a TransientTransactionError, re-checking every expectation', async () => {
    const { server, store } = await openStore()
    server.failNext('insertOne', writeConflict(), { target: 'cairn.t_docs_users', times: 2 })
    const outcome = await store.commit([put('u1', { email: 'a@x' }, { kind: 'absent' })])
    expect(outcome.ok).toBe(true)
    expect(server.commandsNamed('insertOne')).toHaveLength(3)
    expect(server.commandsNamed('findOne')).toHaveLength(3)
  })

  it('gives up after commitRetryWindowMs: never a false conflict for an expectation that still holds', async () => {
    const { server, store } = await openStore({ commitRetryWindowMs: 30 })
    await store.commit([put('u1', { email: 'a@x' }, { kind: 'absent' })])
    server.commands.length = 0
    server.failNext('replaceOne', writeConflict(), { target: 'cairn.t_docs_users', times: 100_000 })
    const started = Date.now()
    await expect(store.commit([put('u1', { email: 'b@x' }, { kind: 'version', version: 1 })])).rejects.toBeInstanceOf(PortUnavailableError)
    // An `any` put can never conflict: after the window it is unavailable too.
    await expect(store.commit([put('u1', { email: 'b@x' })])).rejects.toBeInstanceOf(PortUnavailableError)
    expect(server.commandsNamed('replaceOne').length).toBeGreaterThan(2)
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('bounds a commit whose result stays unknown by commitRetryWindowMs (the driver alone would ask for 120 s)', async () => {
    const { server, store } = await openStore({ commitRetryWindowMs: 50 })
    const unknownResult = new MongoServerError({ message: 'connection closed during commit', code: 91, errorLabels: ['UnknownTransactionCommitResult'] })
    server.failNext('commitTransaction', unknownResult, { times: 1_000_000 })
    const started = Date.now()
    await expect(store.commit([put('u1', { email: 'a@x' })])).rejects.toBeInstanceOf(PortUnavailableError)
    expect(Date.now() - started).toBeLessThan(2000)
    expect(server.commandsNamed('commitTransaction').length).toBeGreaterThan(1)
  })

  it('retries a commit whose result was unknown, and reports an unresolved one as unavailable, not as a conflict', async () => {
    const { server, store } = await openStore()
    const unknownResult = () =>
      new MongoServerError({ message: 'connection closed during commit', code: 91, errorLabels: ['UnknownTransactionCommitResult'] })
    server.failNext('commitTransaction', unknownResult(), { times: 2 })
    expect((await store.commit([put('u1', { email: 'a@x' }, { kind: 'absent' })])).ok).toBe(true)
    expect(server.commandsNamed('commitTransaction')).toHaveLength(3)
    server.failNext('commitTransaction', new MongoServerError({ message: 'primary stepped down', code: 189 }))
    await expect(store.commit([put('u2', { email: 'b@x' }, { kind: 'absent' })])).rejects.toBeInstanceOf(PortUnavailableError)
  })

  it('lets exactly one of two racing commits win; the loser sees the winner', async () => {
    const { store } = await openStore()
    await store.commit([put('u1', { email: 'a@x' }, { kind: 'absent' })])
    const outcomes = await Promise.all([
      store.commit([put('u1', { email: 'b@x' }, { kind: 'version', version: 1 })]),
      store.commit([put('u1', { email: 'c@x' }, { kind: 'version', version: 1 })]),
    ])
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1)
    expect(outcomes.find((outcome) => !outcome.ok)).toEqual({
      ok: false,
      conflict: { _tag: 'VersionMismatch', writeIndex: 0, expected: { kind: 'version', version: 1 }, actualVersion: 2 },
    })
  })

  it('translates network and server-selection failures into PortUnavailableError', async () => {
    const { server, store } = await openStore()
    server.failNext('findOne', new MongoNetworkError('connection reset by peer'))
    await expect(store.commit([put('u1', { email: 'a@x' })])).rejects.toBeInstanceOf(PortUnavailableError)
    server.failNext('findOne', new MongoNetworkError('connection reset by peer'))
    await expect(store.get('users', 'u1')).rejects.toBeInstanceOf(PortUnavailableError)
    server.failNext('find', new MongoServerSelectionError('Server selection timed out after 30000 ms', {} as never))
    await expect(store.query('users', { index: 'byTeam' })).rejects.toBeInstanceOf(PortUnavailableError)
  })
})

describe('MongoStore on a standalone server', () => {
  it('explains that transactions need a replica set', async () => {
    const { server, store } = await openStore()
    const standalone = new MongoServerError({
      message: 'Transaction numbers are only allowed on a replica set member or mongos',
      code: 20,
      codeName: 'IllegalOperation',
    })
    server.failNext('findOne', standalone)
    const failure = await store.commit([put('u1', { email: 'a@x' })]).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(PortUnavailableError)
    expect((failure as Error).message).toMatch(/needs a replica set.*README/)
  })
})

describe('MongoStore streams', () => {
  it('appends chained entries guarded by the head, in the transaction', async () => {
    const { server, store } = await openStore()
    const first = await store.commit([{ kind: 'append', stream: 'ledger', value: { n: 1 }, expectHead: null }])
    const head1 = chainHead(null, entryDigestOf({ n: 1 }))
    expect(first.ok && first.appended).toEqual([
      { stream: 'ledger', sequence: 1, cursor: '0000000000000001', value: { n: 1 }, entryDigest: entryDigestOf({ n: 1 }), priorHead: null, head: head1 },
    ])
    expect(server.documents('cairn.t_stream_heads')).toEqual([{ _id: 'ledger', head: head1, sequence: 1 }])
    server.commands.length = 0

    const second = await store.commit([{ kind: 'append', stream: 'ledger', value: { n: 2 }, expectHead: head1 }])
    const head2 = chainHead(head1, entryDigestOf({ n: 2 }))
    expect(second.ok && second.appended[0]?.head).toBe(head2)
    expect(server.commandsNamed('updateOne', 'cairn.t_stream_heads')[0]).toMatchObject({
      args: [{ _id: 'ledger', head: head1, sequence: 1 }, { $set: { head: head2, sequence: 2 } }, {}],
      inTransaction: true,
    })

    const stale = await store.commit([put('u1', { email: 'x' }), { kind: 'append', stream: 'ledger', value: { n: 3 }, expectHead: head1 }])
    expect(stale).toEqual({ ok: false, conflict: { _tag: 'HeadMismatch', writeIndex: 1, expectedHead: head1, actualHead: head2 } })
    expect(await store.get('users', 'u1')).toBeUndefined()
    expect(await store.streamHead('ledger')).toEqual({ head: head2, sequence: 2, cursor: '0000000000000002' })
    expect(await store.streamHead('empty')).toBeUndefined()
  })

  it('chains several appends to one stream within one commit', async () => {
    const { store } = await openStore()
    const digest1 = entryDigestOf('a')
    const head1 = chainHead(null, digest1)
    const outcome = await store.commit([
      { kind: 'append', stream: 's', value: 'a', expectHead: null },
      { kind: 'append', stream: 's', value: 'b', expectHead: head1 },
    ])
    expect(outcome.ok && outcome.appended.map((entry) => entry.sequence)).toEqual([1, 2])
  })

  it('reads a stream in pages after a cursor', async () => {
    const { store } = await openStore()
    let head: string | null = null
    for (let n = 0; n < 5; n += 1) {
      const outcome = await store.commit([{ kind: 'append', stream: 's', value: { n }, expectHead: head }])
      head = outcome.ok ? outcome.appended[0]!.head : head
    }
    const page1 = await store.readStream('s', { limit: 2 })
    expect(page1.items.map((entry) => entry.value)).toEqual([{ n: 0 }, { n: 1 }])
    const page2 = await store.readStream('s', { limit: 2, after: page1.nextCursor! })
    const page3 = await store.readStream('s', { limit: 2, after: page2.nextCursor! })
    expect(page3.items.map((entry) => entry.value)).toEqual([{ n: 4 }])
    expect(page3.nextCursor).toBeNull()
    expect((await store.readStream('s', { after: page3.items[0]!.cursor })).items).toEqual([])
    await expect(store.readStream('s', { after: 'garbage' })).rejects.toThrow(RangeError)
  })
})

describe('MongoStore reads', () => {
  it('finds by unique key with the partial filter restated, so the index serves it', async () => {
    const { server, store } = await openStore()
    await store.commit([put('u1', { email: 'a@x', team: 'red' })])
    server.commands.length = 0
    expect(await store.getByUnique('users', 'email', 'a@x')).toEqual({ collection: 'users', key: 'u1', version: 1, value: { email: 'a@x', team: 'red' } })
    expect(server.commandsNamed('findOne')[0]?.args).toEqual([{ 'indexed.email': { $eq: 'a@x', $type: 'string' } }, { readConcern: { level: 'majority' } }])
    expect(await store.getByUnique('users', 'email', 'b@x')).toBeUndefined()
    await expect(store.getByUnique('users', 'nickname', 'a')).rejects.toThrow(RangeError)
  })

  it('pages through an index in MongoDB order (absent < numbers < strings, then key), both ways, without loss or repeat', async () => {
    const teamValue = fc.constantFrom<Json | undefined>(undefined, null, 'red', 'blue')
    const joinedValue = fc.oneof(fc.constantFrom<Json | undefined>(undefined, null, 'x', 'y', 'Z'), fc.integer({ min: -3, max: 3 }))
    const rows = fc.uniqueArray(fc.record({ key: fc.stringMatching(/^[a-e]{1,2}$/), team: teamValue, joined: joinedValue }), {
      selector: (row) => row.key,
      maxLength: 14,
    })
    await fc.assert(
      fc.asyncProperty(rows, fc.integer({ min: 1, max: 4 }), fc.boolean(), fc.boolean(), async (generated, limit, desc, onTeam) => {
        const { store } = await openStore()
        const docs = generated.map(({ key, team, joined }) => ({ key, value: withFields({ team, joined }) }))
        if (docs.length > 0) await store.commit(docs.map((doc) => put(doc.key, doc.value)))
        const equals = onTeam ? ['red'] : []
        const expected = docs
          .filter((doc) => !onTeam || doc.value['team'] === 'red')
          .sort((a, b) => compareRows(a, b, onTeam ? ['joined'] : ['team', 'joined']))
          .map((doc) => doc.key)
        if (desc) expected.reverse()
        const seen: string[] = []
        let after: string | undefined
        for (let pages = 0; pages < 30; pages += 1) {
          const page = await store.query('users', { index: 'byTeam', equals, limit, order: desc ? 'desc' : 'asc', ...(after ? { after } : {}) })
          seen.push(...page.items.map((item: StoredDocument) => item.key))
          if (page.nextCursor === null) break
          after = page.nextCursor
        }
        expect(seen).toEqual(expected)
      }),
      { numRuns: 60 },
    )
  })

  it('returns plain JSON documents: no _id, no BSON types', async () => {
    const { store } = await openStore()
    await store.commit([put('u1', { email: 'a@x', nested: { list: [1, 2.5, 'three', null, false] } })])
    const found = await store.get('users', 'u1')
    expect(found).toEqual({ collection: 'users', key: 'u1', version: 1, value: { email: 'a@x', nested: { list: [1, 2.5, 'three', null, false] } } })
    expect(JSON.parse(JSON.stringify(found))).toEqual(found)
    expect(Object.isFrozen(found) && Object.isFrozen(found!.value)).toBe(true)
    expect(Object.keys(found!.value as object)).not.toContain('_id')
  })
})

function withFields(fields: Record<string, Json | undefined>): Record<string, Json> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Record<string, Json>
}

/** MongoDB's order for index values: absent/null, then numbers, then strings by UTF-8 bytes; ties by key. */
function compareRows(a: { key: string; value: Record<string, Json> }, b: { key: string; value: Record<string, Json> }, fields: string[]): number {
  const rank = (value: Json | undefined) => (value === undefined || value === null ? 0 : typeof value === 'number' ? 1 : 2)
  for (const field of fields) {
    const x = a.value[field]
    const y = b.value[field]
    if (rank(x) !== rank(y)) return rank(x) - rank(y)
    if (typeof x === 'number' && typeof y === 'number' && x !== y) return x - y
    if (typeof x === 'string' && typeof y === 'string' && x !== y) return Buffer.compare(Buffer.from(x), Buffer.from(y))
  }
  return Buffer.compare(Buffer.from(a.key), Buffer.from(b.key))
}
