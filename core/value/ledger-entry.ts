/**
 * Ledger entries: one per movement, immutable, keyed by entry id. An entry names the two accounts
 * and the amount; its digest chains into the head of each account it touched.
 */
import type { CollectionSpec } from '../../ports/store.js'
import type { Unit } from './amount.js'

export const VALUE_ENTRIES = 'value.entries'

export const valueEntriesCollection: CollectionSpec = {
  name: VALUE_ENTRIES,
  indexes: [{ name: 'byCreatedAt', fields: ['createdAt'] }],
}

/** What moved value: each kind is one use case. */
export type EntryKind = 'transfer' | 'note_mint' | 'note_claim' | 'checkout' | 'reserve' | 'settlement' | 'issuance' | 'production_usage' | 'card_sale' | 'battle_stake' | 'battle_payout' | 'lawful_settlement'

export interface LedgerEntry {
  readonly schema: 'cairn.value_ledger_entry.v1'
  readonly entryId: string
  readonly kind: EntryKind
  readonly unit: Unit
  /** Decimal string, positive: `debit` loses it, `credit` gains it. */
  readonly amount: string
  readonly debit: string
  readonly credit: string
  /** The acting user (internal; never published). */
  readonly actorUserId: string | null
  readonly memo: string | null
  /** Idempotency record this entry answered, if any. */
  readonly idempotencyKey: string | null
  readonly createdAt: string
  readonly pulse: number
  /** The other unit's leg of an exchange (a checkout buying Φ: the paid cents), in the same entry. */
  readonly exchange?: { readonly unit: Unit; readonly amount: string; readonly debit: string; readonly credit: string }
}
