/**
 * Metered runs as stored: one record a run, written in the commit that charges it, keyed by the
 * caller and their `requestId` so a run and its charge exist together or not at all.
 */
import * as t from 'io-ts'
import type { CollectionSpec, Write } from '../../ports/store.js'
import { nullable, typedCollection } from '../usecases/typed-collection.js'

export const PRODUCTION_RUNS = 'production.runs'

export const RunKindCodec = t.keyof({ creator: null, twin: null })
export type RunKind = t.TypeOf<typeof RunKindCodec>

/**
 * One run. `username` is the Twin's username (Twin messages); `quotePhiMicro` and
 * `chargedPhiMicro` are decimal strings of micro-Φ; `entryId` the value-ledger entry that charged
 * the run.
 */
const RunRecordCodec = t.readonly(t.type({
  runId: t.string, kind: RunKindCodec, ownerId: t.string, requestId: t.string, username: nullable(t.string), threadId: nullable(t.string),
  generator: t.string, model: t.string, inputTokens: t.number, outputTokens: t.number, quotePhiMicro: t.string, chargedPhiMicro: t.string,
  entryId: t.string, output: t.string, createdAt: t.string,
}))
export type RunRecord = t.TypeOf<typeof RunRecordCodec>

export const productionRuns = typedCollection({ name: PRODUCTION_RUNS, indexes: [{ name: 'by_owner', fields: ['ownerId', 'createdAt'] }] }, RunRecordCodec)
export const productionRunsCollection: CollectionSpec = productionRuns.spec

export const runKey = (ownerId: string, requestId: string) => `${ownerId}:${requestId}`

export const runWrite = (record: RunRecord): Write => productionRuns.put(runKey(record.ownerId, record.requestId), record, { kind: 'absent' })
