/**
 * The sweeper: deletes records past their expiry (expiry-rules.ts) through Store operations only,
 * so it runs on every adapter. Each run examines at most `batch` records per rule and deletes them
 * with version expectations — a record changed meanwhile is left for the next run — so a run is
 * bounded, several processes may sweep at once, and a restart loses nothing (the next run simply
 * finds what is left).
 */
import type { StoredDocument, Write } from '../../ports/store.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { EXPIRY_RULES, retentionCollections, type ExpiryRule } from './expiry-rules.js'

export interface SweepOptions {
  /** Records examined per rule per run. @default 500 */
  readonly batch?: number
  /** Extra time past expiry before deleting (clock differences between processes). @default 1 hour */
  readonly graceMs?: number
  /**
   * Where `desc` scans continue on the next run (rule name → cursor), so a long run of records
   * still needed cannot hide older deletable ones; kept in memory by the caller between runs.
   */
  readonly resume?: Map<string, string>
}

export const DEFAULT_SWEEP_BATCH = 500
export const DEFAULT_SWEEP_GRACE_MS = 60 * 60 * 1000

/** Records deleted, per rule name. */
export type SweepReport = Readonly<Record<string, number>>

/**
 * @example await sweepExpired(deps) // { 'authorization codes': 3, 'refresh tokens': 0, … }
 */
export async function sweepExpired(deps: Pick<CoreDeps, 'store' | 'clock'>, options: SweepOptions = {}): Promise<SweepReport> {
  const batch = options.batch ?? DEFAULT_SWEEP_BATCH
  const graceMs = options.graceMs ?? DEFAULT_SWEEP_GRACE_MS
  await deps.store.declare(retentionCollections)
  const cutoff = deps.clock.now() - graceMs
  const report: Record<string, number> = {}
  for (const rule of EXPIRY_RULES) report[rule.name] = await sweepRule(deps, rule, cutoff, batch, options.resume)
  return report
}

async function sweepRule(deps: Pick<CoreDeps, 'store'>, rule: ExpiryRule, cutoff: number, batch: number, resume: Map<string, string> | undefined): Promise<number> {
  const deletable: StoredDocument[] = []
  let examined = 0
  let after = rule.order === 'desc' ? resume?.get(rule.name) : undefined
  let finished = false
  scan: while (examined < batch) {
    const page = await deps.store.query(rule.collection, { index: rule.index, order: rule.order, limit: Math.min(batch - examined, 200), ...(after ? { after } : {}) })
    for (const document of page.items) {
      examined += 1
      const from = rule.deletableFromMs(document.value)
      if (from === undefined) {
        if (rule.order === 'desc') { finished = true; break scan } // past the records this rule can ever delete
        continue
      }
      if (from <= cutoff) deletable.push(document)
      else if (rule.order === 'asc') { finished = true; break scan } // everything after is needed longer
    }
    if (page.nextCursor === null || page.items.length === 0) { finished = true; break }
    after = page.nextCursor
  }
  if (resume && rule.order === 'desc') {
    if (finished || after === undefined) resume.delete(rule.name)
    else resume.set(rule.name, after)
  }
  return deleteAll(deps, rule.collection, deletable)
}

/** Deletes in commits of up to 100; a record changed since it was read is skipped, not forced. */
async function deleteAll(deps: Pick<CoreDeps, 'store'>, collection: string, documents: readonly StoredDocument[]): Promise<number> {
  let deleted = 0
  for (let start = 0; start < documents.length; start += 100) {
    let writes: Write[] = documents.slice(start, start + 100).map((d) => ({ kind: 'delete', collection, key: d.key, expect: { kind: 'version', version: d.version } }))
    while (writes.length > 0) {
      const outcome = await deps.store.commit(writes)
      if (outcome.ok) {
        deleted += writes.length
        break
      }
      writes = writes.filter((_, i) => i !== outcome.conflict.writeIndex)
    }
  }
  return deleted
}
