/**
 * Store suite: index queries filter by equality on leading fields and order by the rest, then the
 * key; pages continue exactly where the last one stopped, in either direction. Fields holding no
 * string or number sort first, numbers before strings (adapters/shared/index-order.ts).
 */
import { beforeEach, describe, expect, it } from 'vitest'
import type { Json, QueryOptions, Store, StoredDocument } from '../../ports/store.js'
import type { OpenStoreFixture } from '../targets.js'
import { absent, put } from '../support/writes.js'

const ITEMS = { name: 'items', indexes: [{ name: 'byGroupRank', fields: ['group', 'rank'] }] }

/** Keys in the order `byGroupRank` with equals ['g1'] gives them, ascending. */
const G1_ORDER = ['no-rank', 'null-rank', 'object-rank', 'n-neg', 'n-1-a', 'n-1-b', 'n-1.5', 'n-10', 's-A', 's-a', 's-b', 's-é', 's-𝄞']

const G1_VALUES: Record<string, Json> = {
  'no-rank': { group: 'g1' },
  'null-rank': { group: 'g1', rank: null },
  'object-rank': { group: 'g1', rank: { not: 'indexed' } },
  'n-neg': { group: 'g1', rank: -3 },
  'n-1-a': { group: 'g1', rank: 1 },
  'n-1-b': { group: 'g1', rank: 1 },
  'n-1.5': { group: 'g1', rank: 1.5 },
  'n-10': { group: 'g1', rank: 10 },
  's-A': { group: 'g1', rank: 'A' },
  's-a': { group: 'g1', rank: 'a' },
  's-b': { group: 'g1', rank: 'b' },
  's-é': { group: 'g1', rank: 'é' },
  's-𝄞': { group: 'g1', rank: '\u{1D11E}' },
}

/** Every item of a query, following `nextCursor` page by page. */
export async function queryAll(store: Store, collection: string, options: QueryOptions): Promise<StoredDocument[]> {
  const items: StoredDocument[] = []
  let after: string | undefined
  for (let pages = 0; pages < 10_000; pages += 1) {
    const page = await store.query(collection, after === undefined ? options : { ...options, after })
    items.push(...page.items)
    if (page.nextCursor === null) return items
    after = page.nextCursor
  }
  throw new Error('The query never ended')
}

export function describeQueries(fixture: () => OpenStoreFixture): void {
  describe('queries', () => {
    beforeEach(async () => {
      const { store } = fixture()
      await store.declare([ITEMS])
      // Unrelated documents the equality must leave out, and a U+FFFF string the code-point order puts before 𝄞.
      const others = { 'g2-a': { group: 'g2', rank: 0 }, 'g-num': { group: 1, rank: 0 }, 'no-group': { rank: 0 }, 's-uffff': { group: 'g1', rank: '\uFFFF' } }
      const writes = Object.entries({ ...G1_VALUES, ...others })
        .reverse()
        .map(([key, value]) => put('items', key, value, absent))
      expect((await store.commit(writes)).ok).toBe(true)
    })

    const g1Ascending = [...G1_ORDER.slice(0, -1), 's-uffff', 's-𝄞']

    it('orders by the remaining fields, then the key, ascending and descending', async () => {
      const { store } = fixture()
      const ascending = await store.query('items', { index: 'byGroupRank', equals: ['g1'] })
      expect(ascending.items.map((item) => item.key)).toEqual(g1Ascending)
      expect(ascending.nextCursor).toBeNull()
      const descending = await store.query('items', { index: 'byGroupRank', equals: ['g1'], order: 'desc' })
      expect(descending.items.map((item) => item.key)).toEqual([...g1Ascending].reverse())
    })

    it('pages without gaps or repeats in both directions', async () => {
      const { store } = fixture()
      for (const limit of [1, 2, 3, 5]) {
        const asc = await queryAll(store, 'items', { index: 'byGroupRank', equals: ['g1'], limit })
        expect(asc.map((item) => item.key)).toEqual(g1Ascending)
        const desc = await queryAll(store, 'items', { index: 'byGroupRank', equals: ['g1'], limit, order: 'desc' })
        expect(desc.map((item) => item.key)).toEqual([...g1Ascending].reverse())
      }
    })

    it('pages over the whole index without equality', async () => {
      const { store } = fixture()
      const all = await queryAll(store, 'items', { index: 'byGroupRank', limit: 4 })
      expect(all.map((item) => item.key)).toEqual(['no-group', 'g-num', ...g1Ascending, 'g2-a'])
      const allDesc = await queryAll(store, 'items', { index: 'byGroupRank', limit: 4, order: 'desc' })
      expect(allDesc.map((item) => item.key)).toEqual(['no-group', 'g-num', ...g1Ascending, 'g2-a'].reverse())
    })

    it('matches equality on every field, numbers by value', async () => {
      const { store } = fixture()
      expect((await store.query('items', { index: 'byGroupRank', equals: ['g1', 1] })).items.map((item) => item.key)).toEqual(['n-1-a', 'n-1-b'])
      expect((await store.query('items', { index: 'byGroupRank', equals: ['g1', '1'] })).items).toEqual([])
      expect((await store.query('items', { index: 'byGroupRank', equals: [1] })).items.map((item) => item.key)).toEqual(['g-num'])
    })

    it('returns whole documents with their versions', async () => {
      const { store } = fixture()
      const page = await store.query('items', { index: 'byGroupRank', equals: ['g1', 10] })
      expect(page.items).toEqual([{ collection: 'items', key: 'n-10', version: 1, value: { group: 'g1', rank: 10 } }])
    })

    it('serves 50 items a page unless asked otherwise', async () => {
      const { store } = fixture()
      await store.commit(Array.from({ length: 60 }, (_, i) => put('items', `bulk-${String(i).padStart(2, '0')}`, { group: 'bulk', rank: i }, absent)))
      const page = await store.query('items', { index: 'byGroupRank', equals: ['bulk'] })
      expect(page.items).toHaveLength(50)
      expect(page.nextCursor).not.toBeNull()
      const rest = await store.query('items', { index: 'byGroupRank', equals: ['bulk'], after: page.nextCursor! })
      expect(rest.items.map((item) => item.key)).toEqual(Array.from({ length: 10 }, (_, i) => `bulk-${50 + i}`))
      expect(rest.nextCursor).toBeNull()
    })

    it('pages and matches integers beyond 2^53 (up to 2^63 and past it) by the number JavaScript reads back', async () => {
      const { store } = fixture()
      // JSON text keeps the shortest digits of each double (1234567890123456800 for the double 1234567890123456768).
      const big = [2 ** 53 + 2, 1234567890123456789, 2 ** 62 + 2 ** 11, 9223372036854775807, 2 ** 70, -1234567890123456789]
      const ascending = [...big].sort((a, b) => a - b)
      await store.commit(big.flatMap((rank, i) => [put('items', `big-${i}-a`, { group: 'big', rank }, absent), put('items', `big-${i}-b`, { group: 'big', rank }, absent)]))
      for (const order of ['asc', 'desc'] as const) {
        const paged = await queryAll(store, 'items', { index: 'byGroupRank', equals: ['big'], order, limit: 1 })
        const expected = (order === 'asc' ? ascending : [...ascending].reverse()).flatMap((rank) => [rank, rank])
        expect(paged.map((item) => (item.value as { rank: number }).rank)).toEqual(expected)
      }
      for (const [i, rank] of big.entries()) {
        const matched = await queryAll(store, 'items', { index: 'byGroupRank', equals: ['big', rank], limit: 1 })
        expect(matched.map((item) => item.key)).toEqual([`big-${i}-a`, `big-${i}-b`])
      }
    })

    it('refuses an undeclared index and more equalities than fields', async () => {
      const { store } = fixture()
      await expect(store.query('items', { index: 'nope' })).rejects.toBeInstanceOf(RangeError)
      await expect(store.query('items', { index: 'byGroupRank', equals: ['g1', 1, 2] })).rejects.toBeInstanceOf(RangeError)
    })
  })
}
