/**
 * The conformance routes of a suite: the live report (run now, recorded as a snapshot), a
 * shields.io endpoint badge, the stored history and its daily rollups.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { json } from '../usecases/use-case.js'
import { dailyRollups, recentSnapshots, recordSnapshot, ROLLUP_DAYS, type Snapshot } from './conformance-history.js'
import type { ConformanceSuite } from './conformance-suites.js'

const DAY_MS = 86_400_000
const FRESH = { 'cache-control': 'no-store' } as const

function runSuite(suite: ConformanceSuite, now: number) {
  const checks = suite.run()
  const passed = checks.filter((c) => c.passed).length
  const snapshot: Snapshot = { suite: suite.name, generatedAtMs: now, status: passed === checks.length ? 'pass' : 'fail', passed, failed: checks.length - passed, total: checks.length, revision: suite.revision }
  return { checks, snapshot }
}

/** The live report. */
export async function conformanceReport(suite: ConformanceSuite, deps: Pick<CoreDeps, 'store' | 'clock'>) {
  const { checks, snapshot } = runSuite(suite, deps.clock.now())
  await recordSnapshot(deps, snapshot)
  return E.right(json({
    ok: true as const,
    schema: `cairn.conformance.${suite.name}.v1`,
    generatedAt: new Date(snapshot.generatedAtMs).toISOString(),
    status: snapshot.status,
    passed: snapshot.passed,
    failed: snapshot.failed,
    total: snapshot.total,
    checks: checks.map((c) => ({ ...c })),
    revision: suite.revision,
    sourceDigest: suite.sourceDigest,
  }, FRESH))
}

/** The badge, from a live run (not recorded: badge services poll often). */
export async function conformanceBadge(suite: ConformanceSuite, deps: Pick<CoreDeps, 'clock'>) {
  const { snapshot } = runSuite(suite, deps.clock.now())
  return E.right(json({
    ok: true as const,
    schemaVersion: 1 as const,
    label: `${suite.label} conformance`,
    message: `${snapshot.passed}/${snapshot.total} ${snapshot.status === 'pass' ? 'passing' : 'failing'}`,
    color: snapshot.status === 'pass' ? 'brightgreen' : 'red',
    status: snapshot.status,
  }, { 'cache-control': 'public, max-age=300' }))
}

/** The newest recorded snapshots. */
export async function conformanceHistory(suite: ConformanceSuite, deps: Pick<CoreDeps, 'store' | 'clock'>) {
  const snapshots = (await recentSnapshots(deps, suite.name)).map(({ generatedAtMs, status, passed, failed, total, revision }) => ({
    generatedAt: new Date(generatedAtMs).toISOString(), status, passed, failed, total, revision,
  }))
  return E.right(json({ ok: true as const, schema: 'cairn.conformance.history.v1' as const, generatedAt: new Date(deps.clock.now()).toISOString(), count: snapshots.length, snapshots }, FRESH))
}

/** Daily rollups over the last ROLLUP_DAYS UTC days. */
export async function conformanceRollups(suite: ConformanceSuite, deps: Pick<CoreDeps, 'store' | 'clock'>) {
  const now = deps.clock.now()
  const startOfToday = now - (now % DAY_MS)
  const rollups = await dailyRollups(deps, suite.name, startOfToday - (ROLLUP_DAYS - 1) * DAY_MS)
  return E.right(json({ ok: true as const, schema: 'cairn.conformance.rollups.v1' as const, generatedAt: new Date(now).toISOString(), days: ROLLUP_DAYS, count: rollups.length, rollups }, FRESH))
}
