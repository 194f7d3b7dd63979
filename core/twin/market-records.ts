/**
 * The Twin market as stored: one mandate per owner, intents keyed by id, and per owner and UTC day
 * the total of approved intents — the document every approval guards, so two approvals racing can
 * never both fit under the daily limit.
 */
import type { CollectionSpec, Json, StoredDocument, Write } from '../../ports/store.js'

export const TWIN_MANDATES = 'twin.mandates'
export const TWIN_INTENTS = 'twin.intents'
export const TWIN_DAILY_TOTALS = 'twin.daily_totals'

export const twinMarketCollections: readonly CollectionSpec[] = [
  { name: TWIN_MANDATES },
  { name: TWIN_INTENTS, indexes: [{ name: 'by_owner', fields: ['ownerId', 'createdAtMs'] }] },
  { name: TWIN_DAILY_TOTALS },
]

export type RiskLevel = 'low' | 'medium' | 'high'

export interface Mandate {
  readonly enabled: boolean
  readonly requireApproval: boolean
  /** Decimal strings of whole US cents; absent: no limit of that kind. */
  readonly maxOrderUsdCents?: string
  readonly dailyLimitUsdCents?: string
  /** Empty: every market. */
  readonly allowedMarketIds: readonly string[]
  readonly riskLevel: RiskLevel
  readonly updatedAt: string
}

export interface IntentRecord {
  readonly id: string
  readonly ownerId: string
  readonly marketId: string
  readonly side: 'buy' | 'sell'
  readonly status: 'pending' | 'approved' | 'rejected'
  readonly amountUsdCents?: string
  readonly limitPrice?: string
  readonly note?: string
  readonly reason?: string
  readonly decidedAt?: string
  readonly createdAt: string
  readonly createdAtMs: number
}

export interface DailyTotal {
  readonly ownerId: string
  readonly day: string
  /** Decimal string of whole US cents approved that day. */
  readonly approvedUsdCents: string
}

export const dailyKey = (ownerId: string, day: string) => `${ownerId}:${day}`
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** A put that expects exactly what was read: absent, or the version read. */
export const guardedPut = (collection: string, key: string, value: unknown, read: StoredDocument | undefined): Write => ({
  kind: 'put', collection, key, value: value as Json, expect: read ? { kind: 'version', version: read.version } : { kind: 'absent' },
})

/** The intent as the contract shows it. */
export const publicIntent = ({ ownerId: _owner, createdAtMs: _ms, ...intent }: IntentRecord) => intent
