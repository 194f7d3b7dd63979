/** Store suite: append-only streams chain their heads, guard appends by the expected head (or take the next position) and page by cursor. */
import { describe, expect, it } from 'vitest'
import { chainHead, entryDigestOf, verifyChain } from '../../core/digest/chain.js'
import type { StreamEntry } from '../../ports/store.js'
import type { OpenStoreFixture } from '../targets.js'
import { append, appendNext, put } from '../support/writes.js'

export function describeStreams(fixture: () => OpenStoreFixture): void {
  describe('streams', () => {
    it('has no head and no entries before the first append', async () => {
      const { store } = fixture()
      expect(await store.streamHead('s')).toBeUndefined()
      expect(await store.readStream('s')).toEqual({ items: [], nextCursor: null })
    })

    it('appends from sequence 1 with digests and heads chained over canonical JSON', async () => {
      const { store } = fixture()
      const value = { b: 1, a: ['x', null] }
      const outcome = await store.commit([append('s', value, null)])
      const entryDigest = entryDigestOf(value)
      const head = chainHead(null, entryDigest)
      expect(outcome).toMatchObject({ ok: true, documents: [], appended: [{ stream: 's', sequence: 1, value, entryDigest, priorHead: null, head }] })
      expect(await store.streamHead('s')).toMatchObject({ head, sequence: 1 })
      const [entry] = (await store.readStream('s')).items
      expect(entry).toEqual(outcome.ok ? outcome.appended[0] : undefined)
      expect((await store.streamHead('s'))?.cursor).toBe(entry?.cursor)
    })

    it('refuses an append expecting another head', async () => {
      const { store } = fixture()
      const first = await store.commit([append('s', 1, null)])
      const head = first.ok ? first.appended[0]!.head : ''
      expect(await store.commit([append('s', 2, null)])).toEqual({
        ok: false,
        conflict: { _tag: 'HeadMismatch', writeIndex: 0, expectedHead: null, actualHead: head },
      })
      expect(await store.commit([append('t', 2, head)])).toEqual({
        ok: false,
        conflict: { _tag: 'HeadMismatch', writeIndex: 0, expectedHead: head, actualHead: null },
      })
    })

    it('chains appends to one stream within a commit in write order', async () => {
      const { store, inspect } = fixture()
      const firstHead = chainHead(null, entryDigestOf('one'))
      const outcome = await store.commit([append('s', 'one', null), append('s', 'two', firstHead), append('other', 'x', null)])
      expect(outcome).toMatchObject({ ok: true, appended: [{ sequence: 1 }, { sequence: 2, priorHead: firstHead }, { stream: 'other', sequence: 1 }] })
      expect(await store.commit([append('s', 'three', null), append('s', 'four', null)])).toMatchObject({ ok: false, conflict: { writeIndex: 0 } })
      const stale = await store.commit([append('s', 'three', (await store.streamHead('s'))!.head), append('s', 'four', firstHead)])
      expect(stale).toMatchObject({ ok: false, conflict: { _tag: 'HeadMismatch', writeIndex: 1 } })
      expect(await inspect.readStreamLength('s')).toBe(2)
    })

    it('chains an appendNext onto the head the stream has when the commit applies, and says where it landed', async () => {
      const { store, inspect } = fixture()
      const first = await store.commit([appendNext('s', 'one')])
      const firstHead = chainHead(null, entryDigestOf('one'))
      expect(first).toMatchObject({ ok: true, appended: [{ stream: 's', sequence: 1, value: 'one', priorHead: null, head: firstHead }] })
      const secondHead = chainHead(firstHead, entryDigestOf('two'))
      // Mixed with an expecting append in one commit: each takes the position the one before it left.
      const mixed = await store.commit([appendNext('s', 'two'), append('s', 'three', secondHead), appendNext('s', 'four'), put('docs', 'd', 1)])
      expect(mixed).toMatchObject({ ok: true, appended: [{ sequence: 2, priorHead: firstHead, head: secondHead }, { sequence: 3 }, { sequence: 4 }] })
      const entries = (await store.readStream('s')).items
      expect(entries.map((entry) => entry.value)).toEqual(['one', 'two', 'three', 'four'])
      expect(verifyChain(null, entries)).toBe(true)
      expect(mixed.ok ? mixed.appended.map((entry) => entry.cursor) : []).toEqual(entries.slice(1).map((entry) => entry.cursor))
      expect(await store.streamHead('s')).toEqual({ head: entries.at(-1)!.head, sequence: 4, cursor: entries.at(-1)!.cursor })
      expect(await inspect.readStreamLength('s')).toBe(4)
    })

    it('pages through entries with opaque cursors that sort in stream order', async () => {
      const { store } = fixture()
      let head: string | null = null
      for (let i = 0; i < 25; i += 1) {
        const outcome = await store.commit([append('s', { i }, head)])
        head = outcome.ok ? outcome.appended[0]!.head : head
      }
      const pages: (readonly StreamEntry[])[] = []
      let after: string | undefined
      for (;;) {
        const page = await store.readStream('s', after === undefined ? { limit: 10 } : { after, limit: 10 })
        pages.push(page.items)
        if (page.nextCursor === null) break
        expect(page.nextCursor).toBe(page.items.at(-1)?.cursor)
        after = page.nextCursor
      }
      expect(pages.map((page) => page.length)).toEqual([10, 10, 5])
      const entries = pages.flat()
      expect(entries.map((entry) => entry.value)).toEqual(Array.from({ length: 25 }, (_, i) => ({ i })))
      const cursors = entries.map((entry) => entry.cursor)
      expect([...cursors].sort()).toEqual(cursors)
      expect(verifyChain(null, entries)).toBe(true)
      expect(entries.at(-1)?.head).toBe(head)
      expect(await store.readStream('s', { after: entries.at(-1)!.cursor })).toEqual({ items: [], nextCursor: null })
      expect((await store.readStream('s')).items).toHaveLength(25)
    })

    it('serves at most 1000 entries a page', async () => {
      const { store } = fixture()
      let head: string | null = null
      const batch = []
      for (let i = 0; i < 1001; i += 1) {
        const entryDigest = entryDigestOf(i)
        batch.push(append('big', i, head))
        head = chainHead(head, entryDigest)
      }
      expect((await store.commit(batch)).ok).toBe(true)
      const page = await store.readStream('big', { limit: 5000 })
      expect(page.items).toHaveLength(1000)
      expect(page.nextCursor).not.toBeNull()
    })
  })
}
