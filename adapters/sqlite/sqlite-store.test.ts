import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeTempDir, type TempDir } from '../../conformance/support/temp-dir.js'
import { PortUnavailableError } from '../../ports/errors.js'
import type { Json, Write } from '../../ports/store.js'
import { documentTable } from './sqlite-collection-tables.js'
import { STORE_LAYOUT } from './sqlite-layout.js'
import { SqliteStore } from './sqlite-store.js'

// The Store contract itself is proven by conformance/matrix.test.ts; these are SqliteStore's own promises.
describe('SqliteStore', () => {
  let dir: TempDir
  const opened: { close(): unknown }[] = []
  const track = <T extends { close(): unknown }>(closable: T): T => {
    opened.push(closable)
    return closable
  }

  beforeEach(async () => {
    dir = await makeTempDir('cairn-sqlite-test-')
  })
  afterEach(async () => {
    for (const closable of opened.splice(0)) await closable.close()
    await dir.remove()
  })

  const putUser = (key: string, email: string): Write => ({ kind: 'put', collection: 'users', key, value: { email }, expect: { kind: 'absent' } })

  it('touches the disk only on first use, then runs WAL with synchronous=FULL', async () => {
    const file = join(dir.path, 'nested', 'store.sqlite')
    const store = track(new SqliteStore(file))
    expect(existsSync(file)).toBe(false)
    await store.get('c', 'k')
    expect(existsSync(file)).toBe(true)
    const raw = track(new Database(file, { readonly: true }))
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal')
    // synchronous is a per-connection setting: read it on a connection the store set up.
    const database = track(new Database(join(dir.path, 'injected.sqlite')))
    await track(new SqliteStore({ database })).get('c', 'k')
    expect(database.pragma('synchronous', { simple: true })).toBe(2)
  })

  it('keeps what was committed across a reopen', async () => {
    const file = join(dir.path, 'store.sqlite')
    const first = new SqliteStore(file)
    await first.declare([{ name: 'users', uniqueKeys: [{ name: 'byEmail', field: 'email' }] }])
    await first.commit([putUser('u1', 'a@example.org'), { kind: 'append', stream: 's', value: 1, expectHead: null }])
    await first.close()
    const again = track(new SqliteStore(file))
    expect(await again.getByUnique('users', 'byEmail', 'a@example.org')).toMatchObject({ key: 'u1', version: 1 })
    expect(await again.streamHead('s')).toMatchObject({ sequence: 1 })
  })

  it('uses but never closes an injected connection', async () => {
    const database = track(new Database(':memory:'))
    const store = new SqliteStore({ database })
    await store.commit([putUser('u1', 'a')])
    await store.close()
    expect(database.open).toBe(true)
    await expect(store.get('users', 'u1')).rejects.toBeInstanceOf(PortUnavailableError)
  })

  it('enforces a unique key another connection declared, which this one never heard of', async () => {
    const file = join(dir.path, 'store.sqlite')
    const declaring = track(new SqliteStore(file))
    const other = track(new SqliteStore(file))
    await other.get('users', 'u0') // opened (and specs read) before the declaration
    await declaring.declare([{ name: 'users', uniqueKeys: [{ name: 'byEmail', field: 'email' }], indexes: [{ name: 'byEmail', fields: ['email'] }] }])
    await declaring.commit([putUser('u1', 'taken@example.org')])
    expect(await other.commit([putUser('u2', 'taken@example.org')])).toEqual({
      ok: false,
      conflict: { _tag: 'UniqueViolation', writeIndex: 0, uniqueKey: 'byEmail', value: 'taken@example.org' },
    })
    expect((await other.query('users', { index: 'byEmail' })).items.map((item) => item.key)).toEqual(['u1'])
  })

  it('answers queries from the expression index it declared, on the table of its collection', async () => {
    const file = join(dir.path, 'store.sqlite')
    const store = track(new SqliteStore(file))
    await store.declare([{ name: 'items', indexes: [{ name: 'byGroupRank', fields: ['group', 'rank'] }] }])
    await store.commit([{ kind: 'put', collection: 'other', key: 'x', value: { group: 'g' }, expect: { kind: 'absent' } }])
    const raw = track(new Database(file, { readonly: true }))
    const indexes = raw.prepare("SELECT name, tbl_name AS tableName FROM sqlite_master WHERE type = 'index' AND name LIKE 'cairn_index_%'").all()
    expect(indexes).toEqual([{ name: expect.any(String), tableName: 'documents:items' }])
    const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'documents%' ORDER BY name").all()
    expect(tables).toEqual([{ name: 'documents:items' }, { name: 'documents:other' }])
  })

  it('reads a collection that has no table yet as empty, and writes make its table', async () => {
    const store = track(new SqliteStore(join(dir.path, 'store.sqlite')))
    await store.declare([{ name: 'users', uniqueKeys: [{ name: 'byEmail', field: 'email' }] }])
    expect(await store.get('never', 'k')).toBeUndefined()
    expect(await store.query('never', { index: 'none' }).catch((error: unknown) => error)).toBeInstanceOf(RangeError)
    expect((await store.commit([{ kind: 'delete', collection: 'never', key: 'k', expect: { kind: 'any' } }])).ok).toBe(true)
    const name = 'odd "name"; DROP TABLE stream_entries'
    expect((await store.commit([{ kind: 'put', collection: name, key: 'k', value: 1, expect: { kind: 'absent' } }])).ok).toBe(true)
    expect(await store.get(name, 'k')).toMatchObject({ version: 1, value: 1 })
  })

  it('keeps a table a failed commit made out of the file, and later commits make it again', async () => {
    const store = track(new SqliteStore(join(dir.path, 'store.sqlite')))
    const settled = await Promise.allSettled([
      store.commit([{ kind: 'put', collection: 'fresh', key: 'a', value: 1, expect: { kind: 'absent' } }, { kind: 'put', collection: 'fresh', key: 'bad', value: undefined as unknown as Json, expect: { kind: 'any' } }]),
      store.commit([{ kind: 'put', collection: 'other', key: 'b', value: 2, expect: { kind: 'absent' } }]),
    ])
    expect(settled.map((result) => result.status)).toEqual(['rejected', 'fulfilled'])
    expect(await store.get('fresh', 'a')).toBeUndefined()
    expect((await store.commit([{ kind: 'put', collection: 'fresh', key: 'a', value: 3, expect: { kind: 'absent' } }])).ok).toBe(true)
    expect(await store.get('fresh', 'a')).toMatchObject({ version: 1, value: 3 })
  })

  it('moves a file of the one-table layout to a table per collection on open, keeping documents, versions, deep values and declarations', async () => {
    const file = join(dir.path, 'old.sqlite')
    const raw = track(new Database(file))
    // Layout 2 as Cairn wrote it: one table, partial indexes, declarations recorded beside them.
    raw.exec(`
      CREATE TABLE documents (collection TEXT NOT NULL, key TEXT NOT NULL, version INTEGER NOT NULL, value TEXT NOT NULL, deep_value TEXT, PRIMARY KEY (collection, key));
      CREATE TABLE stream_entries (stream TEXT NOT NULL, sequence INTEGER NOT NULL, value TEXT NOT NULL, entry_digest TEXT NOT NULL, prior_head TEXT, head TEXT NOT NULL, PRIMARY KEY (stream, sequence));
      CREATE TABLE declared_specs (collection TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, fields TEXT NOT NULL, PRIMARY KEY (collection, kind, name));
      INSERT INTO declared_specs VALUES ('users', 'uniqueKey', 'byEmail', '["email"]'), ('items', 'index', 'byRank', '["rank"]');
      CREATE UNIQUE INDEX old_unique ON documents (json_extract(value, '$."email"')) WHERE collection = 'users' AND json_type(value, '$."email"') = 'text';
      CREATE INDEX old_index ON documents (json_extract(value, '$."rank"'), key) WHERE collection = 'items';
      INSERT INTO documents VALUES ('users', 'u1', 3, '{"email":"a@example.org"}', NULL), ('items', 'big', 1, '{"rank":1234567890123456789}', NULL),
        ('items', 'small', 2, '{"rank":2}', NULL), ('deep', 'd', 1, '{}', '{"deep":[[["x"]]]}');
      PRAGMA user_version = 2;
    `)
    const store = track(new SqliteStore(file))
    expect(await store.get('users', 'u1')).toMatchObject({ version: 3, value: { email: 'a@example.org' } })
    expect(await store.get('deep', 'd')).toMatchObject({ value: { deep: [[['x']]] } })
    expect((await store.query('items', { index: 'byRank' })).items.map((item) => item.key)).toEqual(['small', 'big'])
    expect((await store.query('items', { index: 'byRank', equals: [1234567890123456789] })).items.map((item) => item.key)).toEqual(['big'])
    expect(await store.commit([putUser('u2', 'a@example.org')])).toMatchObject({ ok: false, conflict: { _tag: 'UniqueViolation' } })
    expect(raw.prepare("SELECT name FROM sqlite_master WHERE name IN ('documents', 'old_unique', 'old_index')").all()).toEqual([])
    expect(raw.prepare(`SELECT count(*) AS n FROM ${documentTable('items')}`).get()).toEqual({ n: 2 })
    expect(raw.pragma('user_version', { simple: true })).toBe(STORE_LAYOUT)
  })

  it('refuses a file of a later layout than it knows, and writes nothing to it', async () => {
    const file = join(dir.path, 'later.sqlite')
    const raw = track(new Database(file))
    raw.pragma(`user_version = ${STORE_LAYOUT + 1}`)
    const store = track(new SqliteStore(file))
    await expect(store.get('c', 'k')).rejects.toThrow(`layout ${STORE_LAYOUT + 1}, written by a later Cairn`)
    await expect(store.commit([putUser('u1', 'a')])).rejects.toBeInstanceOf(PortUnavailableError)
    expect(raw.prepare('SELECT name FROM sqlite_master').all()).toEqual([])
    expect(raw.pragma('journal_mode', { simple: true })).toBe('delete')
  })

  it('moves a file made before deep values had a column of their own', async () => {
    const file = join(dir.path, 'old.sqlite')
    const raw = track(new Database(file))
    raw.exec('CREATE TABLE documents (collection TEXT NOT NULL, key TEXT NOT NULL, version INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (collection, key))')
    raw.exec(`INSERT INTO documents VALUES ('c', 'old', 1, '{"kept":true}')`)
    const store = track(new SqliteStore(file))
    let deep: Json = 'bottom'
    for (let i = 0; i < 1100; i += 1) deep = [deep]
    expect((await store.commit([{ kind: 'put', collection: 'c', key: 'deep', value: { deep }, expect: { kind: 'absent' } }])).ok).toBe(true)
    expect(await store.get('c', 'old')).toMatchObject({ value: { kept: true } })
    expect(JSON.stringify((await store.get('c', 'deep'))?.value)).toBe(JSON.stringify({ deep }))
    expect(raw.prepare(`SELECT value FROM ${documentTable('c')} WHERE key = 'deep'`).get()).toEqual({ value: '{}' })
  })

  it('refuses a unique key over duplicates already stored, and remembers nothing of it', async () => {
    const store = track(new SqliteStore(join(dir.path, 'store.sqlite')))
    await store.commit([putUser('u1', 'same'), putUser('u2', 'same')])
    await expect(store.declare([{ name: 'users', uniqueKeys: [{ name: 'byEmail', field: 'email' }] }])).rejects.toBeInstanceOf(RangeError)
    await expect(store.getByUnique('users', 'byEmail', 'same')).rejects.toBeInstanceOf(RangeError)
  })

  it('reports a write lock held past the busy timeout as PortUnavailableError', async () => {
    const file = join(dir.path, 'store.sqlite')
    const store = track(new SqliteStore({ file, busyTimeoutMs: 50 }))
    await store.get('c', 'k')
    const holder = track(new Database(file))
    holder.exec('BEGIN IMMEDIATE')
    try {
      await expect(store.commit([putUser('u1', 'a')])).rejects.toBeInstanceOf(PortUnavailableError)
    } finally {
      holder.exec('ROLLBACK')
    }
    expect((await store.commit([putUser('u1', 'a')])).ok).toBe(true)
  })

  it('commits concurrent commits in one transaction, each checked against what the earlier ones left, each told its own outcome', async () => {
    const statements: string[] = []
    const database = track(new Database(join(dir.path, 'group.sqlite'), { verbose: (sql) => statements.push(String(sql)) }))
    const store = track(new SqliteStore({ database }))
    await store.get('c', 'k')
    statements.length = 0
    const put = (value: Json, expect: Extract<Write, { kind: 'put' }>['expect']): Write => ({ kind: 'put', collection: 'c', key: 'k', value, expect })
    const outcomes = [
      store.commit([put(1, { kind: 'absent' })]),
      store.commit([put(2, { kind: 'absent' })]), // the first left k: this one conflicts
      store.commit([{ kind: 'put', collection: 'c', key: 'bad', value: undefined as unknown as Json, expect: { kind: 'any' } }]),
      store.commit([put(3, { kind: 'version', version: 1 })]),
      store.commit([{ kind: 'append', stream: 's', value: 'x', expectHead: null }, put(4, { kind: 'version', version: 1 })]), // stale: nothing of it is written
      store.commit([put(5, { kind: 'version', version: 2 }), { kind: 'append', stream: 's', value: 'y', expectHead: null }]),
    ]
    const settled = await Promise.allSettled(outcomes)
    expect(settled.map((result) => (result.status === 'fulfilled' ? result.value.ok : 'rejected'))).toEqual([true, false, 'rejected', true, false, true])
    expect(statements.filter((sql) => /^BEGIN/i.test(sql))).toHaveLength(1)
    expect(statements.filter((sql) => /^COMMIT/i.test(sql))).toHaveLength(1)
    expect(await store.get('c', 'k')).toMatchObject({ version: 3, value: 5 })
    expect(await store.get('c', 'bad')).toBeUndefined()
    expect((await store.readStream('s')).items.map((entry) => entry.value)).toEqual(['y'])
  })

  it('fails one commit alone when SQLite refuses its statement but the shared transaction lives on', async () => {
    const file = join(dir.path, 'store.sqlite')
    const store = track(new SqliteStore(file))
    await store.commit([{ kind: 'put', collection: 'c', key: 'k', value: 0, expect: { kind: 'absent' } }])
    // A statement-level refusal (RAISE(ABORT)) rolls back that statement only, as bad data does.
    const raw = track(new Database(file))
    raw.exec(`CREATE TRIGGER refuse_poison BEFORE INSERT ON ${documentTable('c')} WHEN NEW.key = 'poison' BEGIN SELECT RAISE(ABORT, 'poisoned'); END`)
    const settled = await Promise.allSettled([
      store.commit([putUser('u1', 'a')]),
      store.commit([{ kind: 'put', collection: 'c', key: 'poison', value: 1, expect: { kind: 'absent' } }]),
      store.commit([putUser('u2', 'b')]),
    ])
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((settled[1] as PromiseRejectedResult).reason).toBeInstanceOf(PortUnavailableError)
    expect(await store.get('users', 'u1')).toMatchObject({ version: 1 })
    expect(await store.get('users', 'u2')).toMatchObject({ version: 1 })
    expect(await store.get('c', 'poison')).toBeUndefined()
  })

  it('reports a file it cannot open as PortUnavailableError', async () => {
    const notADirectory = join(dir.path, 'plain-file')
    await writeFile(notADirectory, 'x')
    const store = new SqliteStore(join(notADirectory, 'store.sqlite'))
    await expect(store.get('c', 'k')).rejects.toBeInstanceOf(PortUnavailableError)
    const garbage = join(dir.path, 'garbage.sqlite')
    await writeFile(garbage, 'this is not a database, only some text long enough to have a header'.repeat(20))
    await expect(new SqliteStore(garbage).get('c', 'k')).rejects.toBeInstanceOf(PortUnavailableError)
  })
})
