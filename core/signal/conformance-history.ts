/**
 * Conformance runs as stored history: each live report is kept as a snapshot (at most one per suite,
 * revision and minute, so a busy report route cannot flood the Store), and rollups aggregate the
 * stored snapshots per UTC day.
 */
import * as t from 'io-ts'
import type { CollectionSpec } from '../../ports/store.js'
import { typedCollection } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'

export const CONFORMANCE_SNAPSHOTS = 'conformance_snapshots'

const SnapshotCodec = t.readonly(t.type({
  suite: t.string, generatedAtMs: t.number, status: t.keyof({ pass: null, fail: null }), passed: t.number, failed: t.number, total: t.number, revision: t.string,
}))
export type Snapshot = t.TypeOf<typeof SnapshotCodec>

const snapshots = typedCollection({ name: CONFORMANCE_SNAPSHOTS, indexes: [{ name: 'by_suite', fields: ['suite', 'generatedAtMs'] }] }, SnapshotCodec)
export const conformanceCollections: readonly CollectionSpec[] = [snapshots.spec]

/** Snapshots a history answer shows, newest first. */
export const HISTORY_LIMIT = 100
/** Days a rollup answer covers, today included. */
export const ROLLUP_DAYS = 30

/** Keep `snapshot` unless one of the same suite and revision was kept this minute. */
export async function recordSnapshot(deps: Pick<CoreDeps, 'store'>, snapshot: Snapshot): Promise<void> {
  const key = `${snapshot.suite}:${snapshot.revision}:${Math.floor(snapshot.generatedAtMs / 60_000)}`
  // A lost race means the same minute is recorded already: nothing to do.
  await deps.store.commit([snapshots.put(key, snapshot, { kind: 'absent' })])
}

/** The newest snapshots of `suite`. */
export async function recentSnapshots(deps: Pick<CoreDeps, 'store'>, suite: string, limit = HISTORY_LIMIT): Promise<Snapshot[]> {
  const page = await deps.store.query(CONFORMANCE_SNAPSHOTS, { index: 'by_suite', equals: [suite], order: 'desc', limit })
  return page.items.map(snapshots.decode)
}

export interface Rollup {
  readonly date: string
  readonly snapshots: number
  readonly passing: number
  readonly failing: number
}

/** Per-day counts of the snapshots since `sinceMs`, oldest day first (days without runs are left out). */
export async function dailyRollups(deps: Pick<CoreDeps, 'store'>, suite: string, sinceMs: number): Promise<Rollup[]> {
  const days = new Map<string, { snapshots: number; passing: number; failing: number }>()
  let after: string | undefined
  for (;;) {
    const page = await deps.store.query(CONFORMANCE_SNAPSHOTS, { index: 'by_suite', equals: [suite], order: 'desc', limit: 500, ...(after ? { after } : {}) })
    let older = false
    for (const doc of page.items) {
      const snapshot = snapshots.decode(doc)
      if (snapshot.generatedAtMs < sinceMs) {
        older = true
        break
      }
      const date = new Date(snapshot.generatedAtMs).toISOString().slice(0, 10)
      const day = days.get(date) ?? { snapshots: 0, passing: 0, failing: 0 }
      days.set(date, { snapshots: day.snapshots + 1, passing: day.passing + (snapshot.status === 'pass' ? 1 : 0), failing: day.failing + (snapshot.status === 'fail' ? 1 : 0) })
    }
    if (older || !page.nextCursor) break
    after = page.nextCursor
  }
  return [...days].map(([date, counts]) => ({ date, ...counts })).sort((a, b) => a.date.localeCompare(b.date))
}
