/** Store suite: unique keys over a top-level string field, enforced across documents and within one commit. */
import { beforeEach, describe, expect, it } from 'vitest'
import type { OpenStoreFixture } from '../targets.js'
import { absent, anyVersion, atVersion, put, remove } from '../support/writes.js'

const USERS = { name: 'users', uniqueKeys: [{ name: 'byEmail', field: 'email' }] }

export function describeUniqueKeys(fixture: () => OpenStoreFixture): void {
  describe('unique keys', () => {
    beforeEach(async () => {
      await fixture().store.declare([USERS])
      await fixture().store.declare([USERS]) // declaring again is harmless
    })

    it('finds a document by its unique value', async () => {
      const { store } = fixture()
      await store.commit([put('users', 'u1', { email: 'a@example.org', name: 'A' }, absent)])
      expect(await store.getByUnique('users', 'byEmail', 'a@example.org')).toMatchObject({ key: 'u1', version: 1, value: { name: 'A' } })
      expect(await store.getByUnique('users', 'byEmail', 'nobody@example.org')).toBeUndefined()
    })

    it('refuses a second document with the same value and writes nothing of it', async () => {
      const { store, inspect } = fixture()
      await store.commit([put('users', 'u1', { email: 'a@example.org' }, absent)])
      const outcome = await store.commit([put('users', 'u2', { email: 'a@example.org' }, absent)])
      expect(outcome).toEqual({ ok: false, conflict: { _tag: 'UniqueViolation', writeIndex: 0, uniqueKey: 'byEmail', value: 'a@example.org' } })
      expect(await inspect.readDocument('users', 'u2')).toBeUndefined()
      expect(await store.getByUnique('users', 'byEmail', 'a@example.org')).toMatchObject({ key: 'u1' })
    })

    it('lets a document keep its own value and frees a value it gives up or takes with it when deleted', async () => {
      const { store } = fixture()
      await store.commit([put('users', 'u1', { email: 'a@example.org' }, absent)])
      expect(await store.commit([put('users', 'u1', { email: 'a@example.org', name: 'again' }, atVersion(1))])).toMatchObject({ ok: true })
      await store.commit([put('users', 'u1', { email: 'b@example.org' }, atVersion(2))])
      expect(await store.getByUnique('users', 'byEmail', 'a@example.org')).toBeUndefined()
      expect(await store.commit([put('users', 'u2', { email: 'a@example.org' }, absent)])).toMatchObject({ ok: true })
      await store.commit([remove('users', 'u1', anyVersion)])
      expect(await store.commit([put('users', 'u3', { email: 'b@example.org' }, absent)])).toMatchObject({ ok: true })
    })

    it('does not index documents without the field or with a non-string there', async () => {
      const { store } = fixture()
      const outcome = await store.commit([
        put('users', 'u1', { name: 'no email' }, absent),
        put('users', 'u2', { name: 'no email either' }, absent),
        put('users', 'u3', { email: 5 }, absent),
        put('users', 'u4', { email: 5 }, absent),
        put('users', 'u5', { email: null }, absent),
        put('users', 'u6', { email: null }, absent),
      ])
      expect(outcome.ok).toBe(true)
    })

    it('catches a collision between two writes of the same commit and writes neither', async () => {
      const { store, inspect } = fixture()
      const outcome = await store.commit([put('users', 'u1', { email: 'same@example.org' }, absent), put('users', 'u2', { email: 'same@example.org' }, absent)])
      expect(outcome).toEqual({ ok: false, conflict: { _tag: 'UniqueViolation', writeIndex: 1, uniqueKey: 'byEmail', value: 'same@example.org' } })
      expect(await inspect.readDocument('users', 'u1')).toBeUndefined()
      expect(await inspect.readDocument('users', 'u2')).toBeUndefined()
    })

    it('lets a value move between documents within one commit', async () => {
      const { store } = fixture()
      await store.commit([put('users', 'u1', { email: 'moving@example.org' }, absent)])
      const outcome = await store.commit([put('users', 'u1', { email: 'other@example.org' }, atVersion(1)), put('users', 'u2', { email: 'moving@example.org' }, absent)])
      expect(outcome.ok).toBe(true)
      expect(await store.getByUnique('users', 'byEmail', 'moving@example.org')).toMatchObject({ key: 'u2' })
      expect(await store.getByUnique('users', 'byEmail', 'other@example.org')).toMatchObject({ key: 'u1' })
    })

    it('keeps unique values per collection', async () => {
      const { store } = fixture()
      await store.declare([{ name: 'admins', uniqueKeys: [{ name: 'byEmail', field: 'email' }] }])
      const outcome = await store.commit([put('users', 'u1', { email: 'x@example.org' }, absent), put('admins', 'a1', { email: 'x@example.org' }, absent)])
      expect(outcome.ok).toBe(true)
    })

    it('refuses to look up an undeclared unique key', async () => {
      await expect(fixture().store.getByUnique('users', 'byPhone', '1')).rejects.toBeInstanceOf(RangeError)
    })
  })
}
