/**
 * Store suite: several hosts on one backend. What one host declared or wrote, another sees exactly as
 * MemoryStore would: indexes declared after the documents (or by another host during a rolling
 * deploy) see every document, unique keys declared only by another host are enforced and named, and
 * guard-only expectations conflict like every other (no write skew under snapshot isolation). Field
 * names with dots, lone surrogates and arrays in indexed fields behave as the port says, not as a
 * backend's path or index semantics would. Without `connectAgain` the "other host" is the same store.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { MemoryStore } from '../../adapters/memory/memory-store.js'
import type { CollectionSpec, Json, Store, Write } from '../../ports/store.js'
import type { OpenStoreFixture } from '../targets.js'
import { absent, put, remove } from '../support/writes.js'
import { queryAll } from './store-queries.js'

const ROUNDS = 12

/** Values of `rank` whose index order MemoryStore defines and a backend's own semantics would change. */
const ODD_RANKS: Record<string, Json> = {
  'array-low': { rank: [3, 1] },
  'array-string': { rank: ['x'] },
  'empty-array': { rank: [] },
  boolean: { rank: true },
  object: { rank: { n: 1 } },
  null: { rank: null },
  missing: {},
  two: { rank: 2 },
  x: { rank: 'x' },
  'lone-lead': { rank: '\uD800' },
  'lone-trail': { rank: '\uDC00' },
  'lone-lead-after': { rank: 'a\uD800' },
  astral: { rank: '\u{10000}' },
  'private-use': { rank: '\uE000' },
  'dotted-name': { 'rank.inner': 'not the field', rank: 'b' },
  nested: { rank: { inner: 'x' } },
}

const RANKED = { name: 'ranked', indexes: [{ name: 'byRank', fields: ['rank'] }] }

/** What MemoryStore answers for the same writes and queries: the reference. */
async function memoryAnswers(collection: CollectionSpec, writes: readonly Write[], query: (store: Store) => Promise<unknown>): Promise<unknown> {
  const memory = new MemoryStore()
  await memory.declare([collection])
  await memory.commit(writes)
  return query(memory)
}

const keysOf = (items: readonly { readonly key: string }[]) => items.map((item) => item.key)

/** Every page of byRank both ways, and equality on an array's element (which must match nothing). */
async function rankAnswers(store: Store): Promise<unknown> {
  return {
    ascending: keysOf(await queryAll(store, 'ranked', { index: 'byRank', limit: 2 })),
    descending: keysOf(await queryAll(store, 'ranked', { index: 'byRank', limit: 3, order: 'desc' })),
    equalToX: keysOf(await queryAll(store, 'ranked', { index: 'byRank', equals: ['x'] })),
    equalToOne: keysOf(await queryAll(store, 'ranked', { index: 'byRank', equals: [1] })),
    equalToLoneLead: keysOf(await queryAll(store, 'ranked', { index: 'byRank', equals: ['\uD800'] })),
  }
}

export function describeSharedBackend(fixture: () => OpenStoreFixture): void {
  /** Another host on the same backend, or the same store when the fixture has no second connection. */
  const otherHost = async (): Promise<Store> => {
    const { store, connectAgain } = fixture()
    return connectAgain === undefined ? store : connectAgain()
  }

  describe('several hosts on one backend', () => {
    beforeEach(async () => {
      await fixture().store.declare([{ name: 'guards' }])
    })

    it('refuses write skew: of two crossing commits that each delete (expecting absent) what the other creates, one fails', async () => {
      const hosts = [fixture().store, await otherHost()] as const
      for (let round = 0; round < ROUNDS; round += 1) {
        const [x, y] = [`x${round}`, `y${round}`]
        const outcomes = await Promise.all([
          hosts[0].commit([remove('guards', x, absent), put('guards', y, { by: 'first' }, absent)]),
          hosts[1].commit([remove('guards', y, absent), put('guards', x, { by: 'second' }, absent)]),
        ])
        expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1)
        const loser = outcomes.find((outcome) => !outcome.ok)
        expect(loser).toMatchObject({ ok: false, conflict: { _tag: 'VersionMismatch', writeIndex: 0, expected: absent, actualVersion: 1 } })
      }
    })

    it('gives an index declared after the documents exactly the order MemoryStore gives', async () => {
      const { store } = fixture()
      const writes = Object.entries(ODD_RANKS).map(([key, value]) => put('ranked', key, value, absent))
      expect((await store.commit(writes)).ok).toBe(true)
      await store.declare([RANKED])
      expect(await rankAnswers(store)).toEqual(await memoryAnswers(RANKED, writes, rankAnswers))
    })

    it('gives an index another host declared the same order, for documents written by a host that never heard of it', async () => {
      const { store } = fixture()
      const other = await otherHost()
      await other.declare([RANKED])
      const writes = Object.entries(ODD_RANKS).map(([key, value]) => put('ranked', key, value, absent))
      expect((await store.commit(writes)).ok).toBe(true)
      expect(await rankAnswers(other)).toEqual(await memoryAnswers(RANKED, writes, rankAnswers))
    })

    it('enforces and names a unique key only another host declared, and never indexes an array through its elements', async () => {
      const { store } = fixture()
      const other = await otherHost()
      await other.declare([{ name: 'members', uniqueKeys: [{ name: 'byEmail', field: 'email' }] }])
      expect((await store.commit([put('members', 'm1', { email: 'a@example.org' }, absent)])).ok).toBe(true)
      expect(await store.commit([put('members', 'm2', { email: 'a@example.org' }, absent)])).toEqual({
        ok: false,
        conflict: { _tag: 'UniqueViolation', writeIndex: 0, uniqueKey: 'byEmail', value: 'a@example.org' },
      })
      expect(await store.getByUnique('members', 'byEmail', 'a@example.org')).toMatchObject({ key: 'm1' })
      // Arrays are not strings: not indexed, so neither a clash with m1 nor with each other.
      const arrays = await store.commit([
        put('members', 'm3', { email: ['a@example.org'] }, absent),
        put('members', 'm4', { email: ['b@example.org'] }, absent),
        put('members', 'm5', { email: ['b@example.org'] }, absent),
      ])
      expect(arrays.ok).toBe(true)
      expect(await other.getByUnique('members', 'byEmail', 'b@example.org')).toBeUndefined()
    })

    it('enforces unique keys over a field whose name has a dot, and over strings with lone surrogates', async () => {
      const { store } = fixture()
      await store.declare([{ name: 'people', uniqueKeys: [{ name: 'byDotted', field: 'a.b' }, { name: 'byTag', field: 'tag' }] }])
      expect((await store.commit([put('people', 'p1', { 'a.b': 'x' }, absent), put('people', 'p2', { a: { b: 'x' } }, absent)])).ok).toBe(true)
      expect(await store.commit([put('people', 'p3', { 'a.b': 'x' }, absent)])).toEqual({
        ok: false,
        conflict: { _tag: 'UniqueViolation', writeIndex: 0, uniqueKey: 'byDotted', value: 'x' },
      })
      expect(await store.getByUnique('people', 'byDotted', 'x')).toMatchObject({ key: 'p1' })
      // Two different lone surrogates are two values (not both U+FFFD); the same one twice is a clash.
      expect((await store.commit([put('people', 'p4', { tag: '\uD800' }, absent), put('people', 'p5', { tag: '\uDC00' }, absent)])).ok).toBe(true)
      expect(await store.commit([put('people', 'p6', { tag: '\uD800' }, absent)])).toEqual({
        ok: false,
        conflict: { _tag: 'UniqueViolation', writeIndex: 0, uniqueKey: 'byTag', value: '\uD800' },
      })
      expect(await store.getByUnique('people', 'byTag', '\uDC00')).toMatchObject({ key: 'p5', value: { tag: '\uDC00' } })
      expect(await store.getByUnique('people', 'byTag', '\uFFFD')).toBeUndefined()
    })
  })
}
