/** Store suite: documents round trip exactly, versions grow by one, expectations guard every write. */
import { describe, expect, it } from 'vitest'
import type { Json } from '../../ports/store.js'
import type { OpenStoreFixture } from '../targets.js'
import { absent, anyVersion, atVersion, put, remove } from '../support/writes.js'

/** Values whose exact JSON must survive a round trip. */
export const AWKWARD_VALUES: readonly Json[] = [
  { text: 'é ✓ 𝄞 \u0000 "quoted" \\ back', empty: '', nested: { deep: [1, [2, [3, { x: null }]]] } },
  { numbers: [0, -1, 1.5, 1e21, 2 ** 53 - 1, -0.000001], flags: [true, false, null] },
  { '': 'empty key', 'dotted.key': 1, $dollar: 2, 'ключ': 'unicode key' },
  ['a', 1, null],
  'just a string',
  42,
  null,
]

export function describeDocuments(fixture: () => OpenStoreFixture): void {
  describe('documents', () => {
    it('reads nothing where nothing was written', async () => {
      expect(await fixture().store.get('notes', 'missing')).toBeUndefined()
    })

    it('round-trips values exactly and starts versions at 1', async () => {
      const { store, inspect } = fixture()
      for (const [i, value] of AWKWARD_VALUES.entries()) {
        const outcome = await store.commit([put('notes', `n${i}`, value, absent)])
        expect(outcome).toEqual({ ok: true, documents: [{ collection: 'notes', key: `n${i}`, version: 1, value }], appended: [] })
        const read = await store.get('notes', `n${i}`)
        expect(JSON.stringify(read?.value)).toBe(JSON.stringify(value))
        expect(await inspect.readDocument('notes', `n${i}`)).toEqual({ version: 1, value })
      }
    })

    it('grows the version by one with every put and checks the expected version', async () => {
      const { store } = fixture()
      await store.commit([put('notes', 'n', { v: 1 }, absent)])
      expect(await store.commit([put('notes', 'n', { v: 2 }, atVersion(1))])).toMatchObject({ ok: true, documents: [{ version: 2 }] })
      expect(await store.commit([put('notes', 'n', { v: 3 }, anyVersion)])).toMatchObject({ ok: true, documents: [{ version: 3 }] })
      expect(await store.commit([put('notes', 'n', { v: 9 }, atVersion(2))])).toEqual({
        ok: false,
        conflict: { _tag: 'VersionMismatch', writeIndex: 0, expected: atVersion(2), actualVersion: 3 },
      })
      expect(await store.commit([put('notes', 'n', { v: 9 }, absent)])).toEqual({
        ok: false,
        conflict: { _tag: 'VersionMismatch', writeIndex: 0, expected: absent, actualVersion: 3 },
      })
      expect(await store.get('notes', 'n')).toEqual({ collection: 'notes', key: 'n', version: 3, value: { v: 3 } })
    })

    it('reports a missing document as actualVersion null', async () => {
      expect(await fixture().store.commit([put('notes', 'none', 1, atVersion(1))])).toEqual({
        ok: false,
        conflict: { _tag: 'VersionMismatch', writeIndex: 0, expected: atVersion(1), actualVersion: null },
      })
    })

    it('deletes under an expectation, and a re-created document starts again at version 1', async () => {
      const { store, inspect } = fixture()
      await store.commit([put('notes', 'n', 'a', absent)])
      expect(await store.commit([remove('notes', 'n', atVersion(2))])).toMatchObject({ ok: false, conflict: { actualVersion: 1 } })
      expect(await store.commit([remove('notes', 'n', atVersion(1))])).toEqual({ ok: true, documents: [], appended: [] })
      expect(await inspect.readDocument('notes', 'n')).toBeUndefined()
      expect(await store.commit([remove('notes', 'n', anyVersion)])).toMatchObject({ ok: true })
      expect(await store.commit([remove('notes', 'n', absent)])).toMatchObject({ ok: true })
      expect(await store.commit([put('notes', 'n', 'b', absent)])).toMatchObject({ ok: true, documents: [{ version: 1 }] })
    })

    it('deletes and re-creates a stored document in one commit, and updates a stored one in place', async () => {
      const { store, inspect } = fixture()
      await store.commit([put('notes', 'n', 'a', absent), put('notes', 'k', 'kept', absent)])
      const outcome = await store.commit([remove('notes', 'n', atVersion(1)), put('notes', 'n', 'again', absent), put('notes', 'k', 'changed', atVersion(1))])
      expect(outcome).toMatchObject({ ok: true, documents: [{ key: 'n', version: 1, value: 'again' }, { key: 'k', version: 2, value: 'changed' }] })
      expect(await inspect.readDocument('notes', 'n')).toMatchObject({ version: 1, value: 'again' })
      expect(await store.get('notes', 'k')).toMatchObject({ version: 2, value: 'changed' })
    })

    it('applies writes to one document in order within a commit', async () => {
      const { store } = fixture()
      const outcome = await store.commit([put('notes', 'n', 1, absent), put('notes', 'n', 2, atVersion(1)), put('notes', 'm', 3, absent)])
      expect(outcome).toMatchObject({ ok: true, documents: [{ key: 'n', version: 1 }, { key: 'n', version: 2 }, { key: 'm', version: 1 }] })
      expect(await store.get('notes', 'n')).toMatchObject({ version: 2, value: 2 })
    })

    it('accepts an empty commit', async () => {
      expect(await fixture().store.commit([])).toEqual({ ok: true, documents: [], appended: [] })
    })

    it('keeps collections apart', async () => {
      const { store } = fixture()
      await store.commit([put('a', 'k', 'in a', absent), put('b', 'k', 'in b', absent)])
      expect((await store.get('a', 'k'))?.value).toBe('in a')
      expect((await store.get('b', 'k'))?.value).toBe('in b')
    })

    it('is not changed through values the caller passed in or got back', async () => {
      const { store } = fixture()
      const value = { list: [1, 2], inner: { x: 1 } }
      const outcome = await store.commit([put('notes', 'n', value, absent)])
      value.list.push(3)
      value.inner.x = 99
      const read = await store.get('notes', 'n')
      for (const held of [read?.value, outcome.ok ? outcome.documents[0]?.value : undefined]) {
        try {
          ;(held as { list: number[] }).list.push(4)
        } catch {
          // A frozen value refuses the change: also fine.
        }
      }
      expect((await store.get('notes', 'n'))?.value).toEqual({ list: [1, 2], inner: { x: 1 } })
    })
  })
}
