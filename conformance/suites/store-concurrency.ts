/**
 * Store suite: compare-and-swap is linearizable. Many commits racing for one version: exactly one
 * wins. Increments retried on conflict: none is lost. Appends racing for one head: exactly one wins
 * and the chain stays whole. Appends taking the next position: all of them win, each commit's entries
 * consecutive, the chain whole. With `multiProcess`, the racers are spread over two connections.
 */
import { describe, expect, it } from 'vitest'
import { verifyChain } from '../../core/digest/chain.js'
import type { CommitOutcome, Store, StreamEntry } from '../../ports/store.js'
import type { OpenStoreFixture, StoreConformanceOptions } from '../targets.js'
import { absent, append, appendNext, atVersion, put } from '../support/writes.js'

const RACERS = 50
const WORKERS = 8
const INCREMENTS_PER_WORKER = 6

export function describeConcurrentCommits(fixture: () => OpenStoreFixture, options: StoreConformanceOptions): void {
  const multiProcess = options.capabilities?.multiProcess === true

  /** The stores racers use: one, or two connections to the same backend. */
  const racingStores = async (): Promise<readonly Store[]> => {
    const { store, connectAgain } = fixture()
    if (!multiProcess) return [store]
    if (connectAgain === undefined) throw new Error('capabilities.multiProcess needs connectAgain on the fixture')
    return [store, await connectAgain()]
  }

  describe(`concurrent commits${multiProcess ? ' over two connections' : ''}`, () => {
    it(`lets exactly one of ${RACERS} commits expecting the same version win`, async () => {
      const stores = await racingStores()
      const { store } = fixture()
      await store.commit([put('counters', 'c', { n: 0 }, absent)])
      await store.commit([put('counters', 'c', { n: 1 }, atVersion(1))])
      const outcomes = await Promise.all(
        Array.from({ length: RACERS }, (_, i) => stores[i % stores.length]!.commit([put('counters', 'c', { n: 2, by: i }, atVersion(2))])),
      )
      const winners = outcomes.filter((outcome) => outcome.ok)
      expect(winners).toHaveLength(1)
      for (const outcome of outcomes.filter((o) => !o.ok)) {
        expect(outcome).toEqual({ ok: false, conflict: { _tag: 'VersionMismatch', writeIndex: 0, expected: atVersion(2), actualVersion: 3 } })
      }
      expect(await store.get('counters', 'c')).toMatchObject({ version: 3, value: (winners[0] as Extract<CommitOutcome, { ok: true }>).documents[0]!.value })
    })

    it(`loses no increment of ${WORKERS} workers retrying on conflict`, async () => {
      const stores = await racingStores()
      const { store, inspect } = fixture()
      await store.commit([put('counters', 'c', { n: 0 }, absent)])
      const increment = async (worker: Store) => {
        for (let attempt = 0; attempt < 10_000; attempt += 1) {
          const current = await worker.get<{ n: number }>('counters', 'c')
          const outcome = await worker.commit([put('counters', 'c', { n: current!.value.n + 1 }, atVersion(current!.version))])
          if (outcome.ok) return
          expect(outcome.conflict._tag).toBe('VersionMismatch')
        }
        throw new Error('An increment never got through')
      }
      await Promise.all(
        Array.from({ length: WORKERS }, async (_, w) => {
          for (let i = 0; i < INCREMENTS_PER_WORKER; i += 1) await increment(stores[w % stores.length]!)
        }),
      )
      const total = WORKERS * INCREMENTS_PER_WORKER
      expect(await inspect.readDocument('counters', 'c')).toEqual({ version: total + 1, value: { n: total } })
    })

    it(`lets exactly one of ${RACERS} appends expecting the same head win`, async () => {
      const stores = await racingStores()
      const { store, inspect } = fixture()
      const first = await store.commit([append('race', { n: 0 }, null)])
      const head = first.ok ? first.appended[0]!.head : null
      const outcomes = await Promise.all(Array.from({ length: RACERS }, (_, i) => stores[i % stores.length]!.commit([append('race', { n: i + 1 }, head)])))
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1)
      expect(await inspect.readStreamLength('race')).toBe(2)
    })

    it(`lets all of ${RACERS} commits taking the next position win, each commit's entries consecutive`, async () => {
      const stores = await racingStores()
      const { store } = fixture()
      await store.commit([append('next', { racer: -1, part: 0 }, null)])
      const outcomes = await Promise.all(
        Array.from({ length: RACERS }, (_, racer) =>
          stores[racer % stores.length]!.commit([appendNext('next', { racer, part: 0 }), put('racers', `r${racer}`, racer, absent), appendNext('next', { racer, part: 1 })]),
        ),
      )
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(RACERS)
      const page = await store.readStream<{ racer: number; part: number }>('next', { limit: 1000 })
      expect(page.items).toHaveLength(2 * RACERS + 1)
      expect(page.items.map((entry) => entry.sequence)).toEqual(page.items.map((_, i) => i + 1))
      expect(verifyChain(null, page.items)).toBe(true)
      for (const [racer, outcome] of outcomes.entries()) {
        const [first, second] = outcome.ok ? outcome.appended : []
        expect(second!.sequence).toBe(first!.sequence + 1)
        expect(page.items[first!.sequence - 1]).toEqual(first)
        expect(page.items[second!.sequence - 1]!.value).toEqual({ racer, part: 1 })
      }
    })

    it('keeps the chain whole when appenders retry on conflict', async () => {
      const stores = await racingStores()
      const { store } = fixture()
      const appendOne = async (worker: Store, value: number) => {
        for (;;) {
          const head = (await worker.streamHead('log'))?.head ?? null
          const outcome = await worker.commit([append('log', { value }, head)])
          if (outcome.ok) return
          expect(outcome.conflict._tag).toBe('HeadMismatch')
        }
      }
      await Promise.all(
        Array.from({ length: WORKERS }, async (_, w) => {
          for (let i = 0; i < INCREMENTS_PER_WORKER; i += 1) await appendOne(stores[w % stores.length]!, w * 100 + i)
        }),
      )
      const page = await store.readStream('log', { limit: 1000 })
      expect(page.items).toHaveLength(WORKERS * INCREMENTS_PER_WORKER)
      expect(page.items.map((entry: StreamEntry) => entry.sequence)).toEqual(page.items.map((_, i) => i + 1))
      expect(verifyChain(null, page.items)).toBe(true)
    })
  })
}
