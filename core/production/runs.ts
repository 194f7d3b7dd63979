/**
 * Metered runs as stored: one record a run, written in the commit that charges it, keyed by the
 * caller and their `requestId` so a run and its charge exist together or not at all.
 */
import type { CollectionSpec, Json, Write } from '../../ports/store.js'

export const PRODUCTION_RUNS = 'production.runs'

export const productionRunsCollection: CollectionSpec = {
  name: PRODUCTION_RUNS,
  indexes: [{ name: 'by_owner', fields: ['ownerId', 'createdAt'] }],
}

export type RunKind = 'creator' | 'twin'

export interface RunRecord {
  readonly runId: string
  readonly kind: RunKind
  readonly ownerId: string
  readonly requestId: string
  /** The Twin's username (Twin messages). */
  readonly username: string | null
  readonly threadId: string | null
  readonly generator: string
  readonly model: string
  readonly inputTokens: number
  readonly outputTokens: number
  /** Decimal strings of micro-Φ. */
  readonly quotePhiMicro: string
  readonly chargedPhiMicro: string
  /** The value-ledger entry that charged the run. */
  readonly entryId: string
  readonly output: string
  readonly createdAt: string
}

export const runKey = (ownerId: string, requestId: string) => `${ownerId}:${requestId}`

export const runWrite = (record: RunRecord): Write => ({
  kind: 'put', collection: PRODUCTION_RUNS, key: runKey(record.ownerId, record.requestId), value: record as unknown as Json, expect: { kind: 'absent' },
})
