/**
 * Ledger entries: one per movement, immutable, keyed by entry id. An entry names the two accounts
 * and the amount; its digest chains into the head of each account it touched.
 */
import * as t from 'io-ts'
import type { CollectionSpec } from '../../ports/store.js'
import { nullable, typedCollection } from '../usecases/typed-collection.js'
import { UnitCodec } from './amount.js'

export const VALUE_ENTRIES = 'value.entries'

/** What moved value: each kind is one use case. */
const EntryKindCodec = t.keyof({
  transfer: null, note_mint: null, note_claim: null, checkout: null, reserve: null, settlement: null, issuance: null, production_usage: null,
  card_sale: null, battle_stake: null, battle_payout: null, lawful_settlement: null,
})
export type EntryKind = t.TypeOf<typeof EntryKindCodec>


/**
 * One movement. `amount` is a positive decimal string (`debit` loses it, `credit` gains it);
 * `actorUserId` is the acting user (internal; never published); `idempotencyKey` the record this
 * entry answered, if any; `exchange` the other unit's leg of an exchange (a checkout buying Φ: the
 * paid cents), in the same entry.
 */
const LedgerEntryCodec = t.readonly(t.intersection([
  t.type({
    schema: t.literal('cairn.value_ledger_entry.v1'), entryId: t.string, kind: EntryKindCodec, unit: UnitCodec, amount: t.string, debit: t.string, credit: t.string,
    actorUserId: nullable(t.string), memo: nullable(t.string), idempotencyKey: nullable(t.string), createdAt: t.string, pulse: t.number,
  }),
  t.partial({ exchange: t.readonly(t.type({ unit: UnitCodec, amount: t.string, debit: t.string, credit: t.string })) }),
]))
export type LedgerEntry = t.TypeOf<typeof LedgerEntryCodec>

export const valueEntries = typedCollection({ name: VALUE_ENTRIES, indexes: [{ name: 'byCreatedAt', fields: ['createdAt'] }] }, LedgerEntryCodec)
export const valueEntriesCollection: CollectionSpec = valueEntries.spec
