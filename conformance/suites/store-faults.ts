/**
 * Store suite: when a commit's call fails (conformance/fault-injection.ts), the backend holds all of
 * its writes or none, and retrying with the same expectations is safe.
 */
import { describe, expect, it } from 'vitest'
import type { Store, Write } from '../../ports/store.js'
import { InjectedFaultError, withFaults, type Fault } from '../fault-injection.js'
import type { OpenStoreFixture } from '../targets.js'
import { absent, append, appendNext, atVersion, put } from '../support/writes.js'

const TRANSFERS = 10
const OPENING_BALANCE = 100

export function describeFaults(fixture: () => OpenStoreFixture): void {
  describe('failed calls', () => {
    const threeDocumentsAndAnEntry = (): Write[] => [
      put('faults', 'a', 1, absent),
      put('faults', 'b', 2, absent),
      put('faults', 'c', 3, absent),
      append('faults-log', 'abc', null),
    ]

    it('applied the whole commit when only the reply was lost, and a retry reveals it', async () => {
      const { store, inspect } = fixture()
      const faulty = withFaults(store, [{ method: 'commit', call: 1, when: 'after' }])
      await expect(faulty.commit(threeDocumentsAndAnEntry())).rejects.toBeInstanceOf(InjectedFaultError)
      for (const key of ['a', 'b', 'c']) expect(await inspect.readDocument('faults', key)).toMatchObject({ version: 1 })
      expect(await inspect.readStreamLength('faults-log')).toBe(1)
      expect(await faulty.commit(threeDocumentsAndAnEntry())).toEqual({
        ok: false,
        conflict: { _tag: 'VersionMismatch', writeIndex: 0, expected: absent, actualVersion: 1 },
      })
      expect(await inspect.readStreamLength('faults-log')).toBe(1)
    })

    it("applied an appendNext once when the reply was lost: the retry meets the commit's own document expectation", async () => {
      const { store, inspect } = fixture()
      const faulty = withFaults(store, [{ method: 'commit', call: 1, when: 'after' }])
      // appendNext expects no head, so a retry is safe only because the commit also claims a document.
      const claimAndLog = (): Write[] => [put('faults', 'claim', 1, absent), appendNext('faults-next', 'once')]
      await expect(faulty.commit(claimAndLog())).rejects.toBeInstanceOf(InjectedFaultError)
      expect(await faulty.commit(claimAndLog())).toMatchObject({ ok: false, conflict: { _tag: 'VersionMismatch', writeIndex: 0 } })
      expect(await inspect.readStreamLength('faults-next')).toBe(1)
    })

    it('applied nothing when the call failed before the store, and a retry wins', async () => {
      const { store, inspect } = fixture()
      const faulty = withFaults(store, [{ method: 'commit', call: 1, when: 'before' }])
      await expect(faulty.commit(threeDocumentsAndAnEntry())).rejects.toBeInstanceOf(InjectedFaultError)
      for (const key of ['a', 'b', 'c']) expect(await inspect.readDocument('faults', key)).toBeUndefined()
      expect(await inspect.readStreamLength('faults-log')).toBe(0)
      expect((await faulty.commit(threeDocumentsAndAnEntry())).ok).toBe(true)
      expect(faulty.callsOf('commit')).toBe(2)
    })

    it(`keeps ${TRANSFERS} retried transfers whole while calls fail before and after the store`, async () => {
      const { store, inspect } = fixture()
      const plan: Fault[] = [
        { method: 'commit', call: 1, when: 'after' },
        { method: 'commit', call: 3, when: 'before' },
        { method: 'commit', call: 4, when: 'after' },
        { method: 'commit', call: 7, when: 'after' },
        { method: 'commit', call: 8, when: 'before' },
        { method: 'get', call: 5, when: 'before' },
      ]
      const faulty = withFaults(store, plan)
      await store.commit([put('accounts', 'A', { n: OPENING_BALANCE }, absent), put('accounts', 'B', { n: 0 }, absent)])
      let applied = 0
      while (applied < TRANSFERS) {
        let writes: Write[]
        try {
          writes = await transferWrites(faulty, applied)
        } catch (error) {
          expect(error).toBeInstanceOf(InjectedFaultError)
          continue
        }
        try {
          expect((await faulty.commit(writes)).ok).toBe(true)
        } catch (error) {
          expect(error).toBeInstanceOf(InjectedFaultError)
          // Same expectations again: the retry wins, or its conflict shows the first attempt is in.
          const retry = await store.commit(writes)
          if (!retry.ok) expect(retry.conflict).toMatchObject({ _tag: 'VersionMismatch', writeIndex: 0, actualVersion: applied + 2 })
        }
        applied += 1
        const [a, b] = [await inspect.readDocument('accounts', 'A'), await inspect.readDocument('accounts', 'B')]
        expect(a).toEqual({ version: applied + 1, value: { n: OPENING_BALANCE - applied } })
        expect(b).toEqual({ version: applied + 1, value: { n: applied } })
        expect(await inspect.readStreamLength('transfers')).toBe(applied)
      }
      expect(faulty.callsOf('commit')).toBeGreaterThanOrEqual(TRANSFERS)
    })
  })
}

/** Move one unit from A to B, with an audit entry, expecting what was just read. */
async function transferWrites(store: Store, number: number): Promise<Write[]> {
  const a = await store.get<{ n: number }>('accounts', 'A')
  const b = await store.get<{ n: number }>('accounts', 'B')
  const head = (await store.streamHead('transfers'))?.head ?? null
  return [
    put('accounts', 'A', { n: a!.value.n - 1 }, atVersion(a!.version)),
    put('accounts', 'B', { n: b!.value.n + 1 }, atVersion(b!.version)),
    append('transfers', { number }, head),
  ]
}
