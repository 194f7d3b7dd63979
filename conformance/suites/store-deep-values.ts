/**
 * Store suite: a value nested far deeper than any backend's native JSON (SQLite's JSON functions
 * stop at 1000 levels, BSON at 100) is stored and read back exactly like any other, in an indexed
 * collection with a unique key; and a commit made beside it in the same moment is not harmed.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import type { Json } from '../../ports/store.js'
import type { OpenStoreFixture } from '../targets.js'
import { absent, atVersion, put } from '../support/writes.js'

const LEVELS = 1100
const NOTES = { name: 'deep_notes', uniqueKeys: [{ name: 'byRef', field: 'ref' }], indexes: [{ name: 'byTopicRank', fields: ['topic', 'rank'] }] }

/** `{ ref, topic, rank, body: [[[…'bottom'…]]] }` with the body `levels` arrays deep. */
export function deepValue(ref: string, levels = LEVELS): Json {
  let body: Json = 'bottom'
  for (let i = 0; i < levels; i += 1) body = [body]
  return { ref, topic: 'deep', rank: 2, flag: true, body }
}

export function describeDeepValues(fixture: () => OpenStoreFixture): void {
  describe(`values nested ${LEVELS} levels deep`, () => {
    beforeEach(async () => {
      await fixture().store.declare([NOTES])
    })

    it('are stored and read back exactly, found by index and unique key, beside a commit of the same moment', async () => {
      const { store, inspect } = fixture()
      const value = deepValue('r1')
      const [deep, beside] = await Promise.all([
        store.commit([put('deep_notes', 'd1', value, absent)]),
        store.commit([put('deep_notes', 'plain', { ref: 'r0', topic: 'deep', rank: 1 }, absent)]),
      ])
      expect(beside.ok).toBe(true)
      expect(deep).toMatchObject({ ok: true, documents: [{ key: 'd1', version: 1 }] })
      expect(JSON.stringify((await store.get('deep_notes', 'd1'))?.value)).toBe(JSON.stringify(value))
      expect(JSON.stringify((await store.getByUnique('deep_notes', 'byRef', 'r1'))?.value)).toBe(JSON.stringify(value))
      const page = await store.query('deep_notes', { index: 'byTopicRank', equals: ['deep'] })
      expect(page.items.map((item) => item.key)).toEqual(['plain', 'd1'])
      expect(JSON.stringify(page.items[1]?.value)).toBe(JSON.stringify(value))
      expect(JSON.stringify((await inspect.readDocument('deep_notes', 'd1'))?.value)).toBe(JSON.stringify(value))
    })

    it('keep their unique key, and a put can make one shallow again', async () => {
      const { store } = fixture()
      await store.commit([put('deep_notes', 'd1', deepValue('r1'), absent)])
      expect(await store.commit([put('deep_notes', 'd2', deepValue('r1'), absent)])).toEqual({
        ok: false,
        conflict: { _tag: 'UniqueViolation', writeIndex: 0, uniqueKey: 'byRef', value: 'r1' },
      })
      expect(await store.commit([put('deep_notes', 'd1', { ref: 'r1', topic: 'deep', rank: 3 }, atVersion(1))])).toMatchObject({ ok: true })
      expect(await store.get('deep_notes', 'd1')).toMatchObject({ version: 2, value: { ref: 'r1', topic: 'deep', rank: 3 } })
      expect((await store.query('deep_notes', { index: 'byTopicRank', equals: ['deep', 3] })).items.map((item) => item.key)).toEqual(['d1'])
    })

    it('are appended to streams and read back exactly', async () => {
      const { store } = fixture()
      const value = deepValue('s1')
      expect((await store.commit([{ kind: 'append', stream: 'deep-stream', value, expectHead: null }])).ok).toBe(true)
      expect(JSON.stringify((await store.readStream('deep-stream')).items[0]?.value)).toBe(JSON.stringify(value))
    })
  })
}
