/**
 * The Twin market as stored: one mandate per owner, intents keyed by id, and per owner and UTC day
 * the total of approved intents — the document every approval guards, so two approvals racing can
 * never both fit under the daily limit.
 */
import * as t from 'io-ts'
import type { CollectionSpec, Write } from '../../ports/store.js'
import { typedCollection, unchangedSince, type TypedCollection } from '../usecases/typed-collection.js'

export const TWIN_MANDATES = 'twin.mandates'
export const TWIN_INTENTS = 'twin.intents'
export const TWIN_DAILY_TOTALS = 'twin.daily_totals'

const RiskLevelCodec = t.keyof({ low: null, medium: null, high: null })
export type RiskLevel = t.TypeOf<typeof RiskLevelCodec>

/**
 * The limits of an owner's Twin. `maxOrderUsdCents` and `dailyLimitUsdCents` are decimal strings of
 * whole US cents (absent: no limit of that kind); an empty `allowedMarketIds` allows every market.
 */
export const MandateCodec = t.readonly(t.intersection([
  t.type({ enabled: t.boolean, requireApproval: t.boolean, allowedMarketIds: t.readonlyArray(t.string), riskLevel: RiskLevelCodec, updatedAt: t.string }),
  t.partial({ maxOrderUsdCents: t.string, dailyLimitUsdCents: t.string }),
]))
export type Mandate = t.TypeOf<typeof MandateCodec>

const IntentRecordCodec = t.readonly(t.intersection([
  t.type({
    id: t.string, ownerId: t.string, marketId: t.string, side: t.keyof({ buy: null, sell: null }), status: t.keyof({ pending: null, approved: null, rejected: null }),
    createdAt: t.string, createdAtMs: t.number,
  }),
  t.partial({ amountUsdCents: t.string, limitPrice: t.string, note: t.string, reason: t.string, decidedAt: t.string }),
]))
export type IntentRecord = t.TypeOf<typeof IntentRecordCodec>

/** `approvedUsdCents`: decimal string of whole US cents approved that day. */
const DailyTotalCodec = t.readonly(t.type({ ownerId: t.string, day: t.string, approvedUsdCents: t.string }))
export type DailyTotal = t.TypeOf<typeof DailyTotalCodec>

export const twinMandates = typedCollection({ name: TWIN_MANDATES }, MandateCodec)
export const twinIntents = typedCollection({ name: TWIN_INTENTS, indexes: [{ name: 'by_owner', fields: ['ownerId', 'createdAtMs'] }] }, IntentRecordCodec)
export const twinDailyTotals = typedCollection({ name: TWIN_DAILY_TOTALS }, DailyTotalCodec)

export const twinMarketCollections: readonly CollectionSpec[] = [twinMandates.spec, twinIntents.spec, twinDailyTotals.spec]

export const dailyKey = (ownerId: string, day: string) => `${ownerId}:${day}`
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** A put that expects exactly what was read: absent, or the version read. */
export const guardedPut = <A>(collection: TypedCollection<A>, key: string, value: A, read: { readonly version: number } | undefined): Write =>
  collection.put(key, value, unchangedSince(read?.version ?? null))

/** The intent as the contract shows it. */
export const publicIntent = ({ ownerId: _owner, createdAtMs: _ms, ...intent }: IntentRecord) => intent
