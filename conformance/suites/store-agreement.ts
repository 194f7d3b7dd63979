/**
 * Store suite: the adapter under test and MemoryStore agree on random command sequences (io-ts
 * `test/Schema.ts` habit). Both get the same commits, reads, queries and stream pages; every answer
 * must be equal, except cursors, which are opaque to each adapter and only followed, never compared.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../../adapters/memory/memory-store.js'
import { chainHead, entryDigestOf } from '../../core/digest/chain.js'
import type { Expectation, Json, Store, Write } from '../../ports/store.js'
import { openStoreFixture, type StoreConformanceOptions } from '../targets.js'

const COLLECTION = { name: 'things', uniqueKeys: [{ name: 'byTag', field: 'tag' }], indexes: [{ name: 'byGroupRank', fields: ['group', 'rank'] }] }
const KEYS = ['k1', 'k2', 'k3', 'k4']
const STREAMS = ['s1', 's2']
/** Fixed, so a failure reproduces; fast-check prints the counterexample and its path. */
const SEED = 20_260_625

type HeadChoice = 'current' | 'empty' | 'stale' | 'next'
type WriteSpec =
  | { readonly kind: 'put'; readonly key: string; readonly value: Json; readonly expect: Expectation }
  | { readonly kind: 'delete'; readonly key: string; readonly expect: Expectation }
  | { readonly kind: 'append'; readonly stream: string; readonly value: Json; readonly head: HeadChoice }

type Command =
  | { readonly kind: 'commit'; readonly writes: readonly WriteSpec[] }
  | { readonly kind: 'get'; readonly key: string }
  | { readonly kind: 'getByUnique'; readonly tag: string }
  | { readonly kind: 'query'; readonly equals: readonly (string | number)[]; readonly order: 'asc' | 'desc'; readonly limit: number }
  | { readonly kind: 'readStream'; readonly stream: string; readonly limit: number }

const expectation = fc.oneof(
  fc.constant<Expectation>({ kind: 'any' }),
  fc.constant<Expectation>({ kind: 'absent' }),
  fc.integer({ min: 1, max: 3 }).map((version): Expectation => ({ kind: 'version', version })),
)
/** Integers past 2^53 (JSON keeps their shortest digits, which SQLite would read as other, exact integers), up to 2^63 and beyond. */
const BIG = [2 ** 53 + 2, 1234567890123456789, 9223372036854775807, -(2 ** 62) - 2 ** 10, 2 ** 64]
const bigInteger = fc.oneof(fc.constantFrom(...BIG), fc.bigInt({ min: 2n ** 53n, max: 2n ** 63n }).map(Number))
const thing = fc.record(
  {
    tag: fc.constantFrom<Json>('a', 'b', 'c', 5, null),
    group: fc.oneof(fc.constantFrom<Json>('g1', 'g2', 1), fc.constantFrom<Json>(BIG[1]!)),
    rank: fc.oneof({ weight: 3, arbitrary: fc.constantFrom<Json>(0, 1, 2.5, -1, 'x', 'y', null, true, ['x']) }, { weight: 1, arbitrary: bigInteger }),
    n: fc.integer({ min: -5, max: 5 }),
  },
  { requiredKeys: ['n'] },
)
const writeSpec: fc.Arbitrary<WriteSpec> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('put' as const), key: fc.constantFrom(...KEYS), value: thing as fc.Arbitrary<Json>, expect: expectation }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), key: fc.constantFrom(...KEYS), expect: expectation }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      stream: fc.constantFrom(...STREAMS),
      // Through JSON text first: -0 and friends are not what this property is about.
      value: fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as Json),
      head: fc.constantFrom<HeadChoice>('current', 'current', 'empty', 'stale', 'next'),
    }),
  },
)
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('commit' as const), writes: fc.array(writeSpec, { minLength: 1, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('get' as const), key: fc.constantFrom(...KEYS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('getByUnique' as const), tag: fc.constantFrom('a', 'b', 'c') }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('query' as const),
      equals: fc.oneof(
        fc.constant([]),
        fc.tuple(fc.constantFrom<string | number>('g1', 'g2', 1, BIG[1]!)),
        fc.tuple(fc.constantFrom('g1', 'g2'), fc.constantFrom<string | number>(0, 'x', ...BIG)),
      ),
      order: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
      limit: fc.integer({ min: 1, max: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('readStream' as const), stream: fc.constantFrom(...STREAMS), limit: fc.integer({ min: 1, max: 4 }) }) },
)

export function describeAgreementWithMemory(options: StoreConformanceOptions): void {
  describe('agreement with MemoryStore', () => {
    it('answers random command sequences exactly as MemoryStore does', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 20 }), async (commands) => {
          const fixture = await openStoreFixture(options.create)
          const reference = new MemoryStore()
          try {
            await fixture.store.declare([COLLECTION])
            await reference.declare([COLLECTION])
            for (const step of commands) await expectSameAnswers(step, reference, fixture.store)
          } finally {
            await fixture.dispose()
          }
        }),
        { numRuns: options.propertyRuns ?? 40, seed: SEED },
      )
    }, 120_000)
  })
}

async function expectSameAnswers(step: Command, reference: Store, tested: Store): Promise<void> {
  switch (step.kind) {
    case 'commit': {
      const writes = await toWrites(step.writes, reference)
      const [expected, actual] = [await reference.commit(writes), await tested.commit(writes)]
      expect(withoutCursors(actual), `commit ${JSON.stringify(writes)}`).toEqual(withoutCursors(expected))
      return
    }
    case 'get':
      expect(await tested.get('things', step.key)).toEqual(await reference.get('things', step.key))
      return
    case 'getByUnique':
      expect(await tested.getByUnique('things', 'byTag', step.tag)).toEqual(await reference.getByUnique('things', 'byTag', step.tag))
      return
    case 'query': {
      const options = { index: 'byGroupRank', equals: step.equals, order: step.order, limit: step.limit }
      await expectSamePages((after) => reference.query('things', { ...options, ...after }), (after) => tested.query('things', { ...options, ...after }))
      return
    }
    case 'readStream':
      await expectSamePages(
        (after) => reference.readStream(step.stream, { limit: step.limit, ...after }),
        (after) => tested.readStream(step.stream, { limit: step.limit, ...after }),
      )
      expect(withoutCursors(await tested.streamHead(step.stream))).toEqual(withoutCursors(await reference.streamHead(step.stream)))
  }
}

type PageReader = (after: { after?: string }) => Promise<{ readonly items: readonly unknown[]; readonly nextCursor: string | null }>

/** Follow both adapters' own cursors page by page; each page must hold the same items. */
async function expectSamePages(readReference: PageReader, readTested: PageReader): Promise<void> {
  let referenceAfter: { after?: string } = {}
  let testedAfter: { after?: string } = {}
  for (let pages = 0; pages < 100; pages += 1) {
    const [expected, actual] = [await readReference(referenceAfter), await readTested(testedAfter)]
    expect(withoutCursors(actual.items)).toEqual(withoutCursors(expected.items))
    expect(actual.nextCursor === null).toBe(expected.nextCursor === null)
    if (expected.nextCursor === null || actual.nextCursor === null) return
    referenceAfter = { after: expected.nextCursor }
    testedAfter = { after: actual.nextCursor }
  }
}

/** Turn head choices into heads: the reference's current head (chained within the commit), none, a wrong one, or the next position. */
async function toWrites(specs: readonly WriteSpec[], reference: Store): Promise<Write[]> {
  const heads = new Map<string, string | null>()
  const writes: Write[] = []
  for (const spec of specs) {
    if (spec.kind === 'put') writes.push({ kind: 'put', collection: 'things', key: spec.key, value: spec.value, expect: spec.expect })
    else if (spec.kind === 'delete') writes.push({ kind: 'delete', collection: 'things', key: spec.key, expect: spec.expect })
    else {
      const current = heads.has(spec.stream) ? heads.get(spec.stream)! : ((await reference.streamHead(spec.stream))?.head ?? null)
      if (spec.head === 'next') {
        writes.push({ kind: 'appendNext', stream: spec.stream, value: spec.value })
        heads.set(spec.stream, chainHead(current, entryDigestOf(spec.value)))
        continue
      }
      const expectHead = spec.head === 'current' ? current : spec.head === 'empty' ? null : chainHead(null, entryDigestOf('stale'))
      writes.push({ kind: 'append', stream: spec.stream, value: spec.value, expectHead })
      heads.set(spec.stream, chainHead(expectHead, entryDigestOf(spec.value)))
    }
  }
  return writes
}

/** `value` without `cursor` members (opaque per adapter). */
function withoutCursors(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCursors)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'cursor').map(([key, item]) => [key, withoutCursors(item)]))
}
