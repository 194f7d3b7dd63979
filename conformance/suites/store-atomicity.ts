/**
 * Store suite: a commit applies every write or none. Each failing commit below mixes several writes
 * with one failed expectation at a different position; afterwards the backend (read directly when
 * the fixture can) holds none of them.
 */
import { describe, expect, it } from 'vitest'
import { chainHead, entryDigestOf } from '../../core/digest/chain.js'
import type { Write } from '../../ports/store.js'
import type { OpenStoreFixture } from '../targets.js'
import { absent, append, appendNext, atVersion, put, remove } from '../support/writes.js'

export function describeAtomicCommits(fixture: () => OpenStoreFixture): void {
  describe('atomic commits', () => {
    /** Three puts, a delete and an append, all valid on a store holding `kept` at version 1. */
    const validWrites = (): Write[] => [
      put('orders', 'o1', { total: 1 }, absent),
      put('orders', 'o2', { total: 2 }, absent),
      put('orders', 'kept', { total: 'changed' }, atVersion(1)),
      remove('orders', 'gone', atVersion(1)),
      append('orders-log', { order: 'o1' }, null),
    ]

    const expectUntouched = async () => {
      const { inspect } = fixture()
      expect(await inspect.readDocument('orders', 'o1')).toBeUndefined()
      expect(await inspect.readDocument('orders', 'o2')).toBeUndefined()
      expect(await inspect.readDocument('orders', 'kept')).toEqual({ version: 1, value: { total: 'original' } })
      expect(await inspect.readDocument('orders', 'gone')).toEqual({ version: 1, value: 'to delete' })
      expect(await inspect.readStreamLength('orders-log')).toBe(0)
    }

    const seed = async () => {
      await fixture().store.declare([{ name: 'orders', uniqueKeys: [{ name: 'byRef', field: 'ref' }] }])
      await fixture().store.commit([put('orders', 'kept', { total: 'original' }, absent), put('orders', 'gone', 'to delete', absent)])
    }

    it('applies every write of a valid commit', async () => {
      await seed()
      const { store, inspect } = fixture()
      const outcome = await store.commit(validWrites())
      expect(outcome).toMatchObject({ ok: true, documents: [{ key: 'o1' }, { key: 'o2' }, { key: 'kept', version: 2 }], appended: [{ sequence: 1 }] })
      expect(await inspect.readDocument('orders', 'o1')).toEqual({ version: 1, value: { total: 1 } })
      expect(await inspect.readDocument('orders', 'kept')).toEqual({ version: 2, value: { total: 'changed' } })
      expect(await inspect.readDocument('orders', 'gone')).toBeUndefined()
      expect(await inspect.readStreamLength('orders-log')).toBe(1)
    })

    it('writes nothing when the last write fails its version expectation', async () => {
      await seed()
      const outcome = await fixture().store.commit([...validWrites(), put('orders', 'kept', 'late', atVersion(7))])
      expect(outcome).toMatchObject({ ok: false, conflict: { _tag: 'VersionMismatch', writeIndex: 5, actualVersion: 2 } })
      await expectUntouched()
    })

    it('writes nothing when the first write fails', async () => {
      await seed()
      const outcome = await fixture().store.commit([put('orders', 'kept', 'early', absent), ...validWrites()])
      expect(outcome).toMatchObject({ ok: false, conflict: { _tag: 'VersionMismatch', writeIndex: 0, actualVersion: 1 } })
      await expectUntouched()
    })

    it('writes nothing when an append in the middle expects a stale head', async () => {
      await seed()
      const writes = validWrites()
      writes.splice(2, 0, append('other-log', 'x', chainHead(null, entryDigestOf('not there'))))
      const outcome = await fixture().store.commit(writes)
      expect(outcome).toMatchObject({ ok: false, conflict: { _tag: 'HeadMismatch', writeIndex: 2, actualHead: null } })
      await expectUntouched()
      expect(await fixture().inspect.readStreamLength('other-log')).toBe(0)
    })

    it('writes nothing, appendNext included, when a later write fails', async () => {
      await seed()
      const writes = [appendNext('next-log', 'x'), ...validWrites(), put('orders', 'kept', 'late', atVersion(7))]
      const outcome = await fixture().store.commit(writes)
      expect(outcome).toMatchObject({ ok: false, conflict: { _tag: 'VersionMismatch', writeIndex: 6 } })
      await expectUntouched()
      expect(await fixture().inspect.readStreamLength('next-log')).toBe(0)
      expect(await fixture().store.streamHead('next-log')).toBeUndefined()
    })

    it('writes nothing when the last write breaks a unique key', async () => {
      await seed()
      const outcome = await fixture().store.commit([
        ...validWrites(),
        put('orders', 'r1', { ref: 'R' }, absent),
        put('orders', 'r2', { ref: 'R' }, absent),
      ])
      expect(outcome).toMatchObject({ ok: false, conflict: { _tag: 'UniqueViolation', writeIndex: 6 } })
      await expectUntouched()
      expect(await fixture().inspect.readDocument('orders', 'r1')).toBeUndefined()
    })
  })
}
