/**
 * Accounts of the double-entry ledger. Every movement debits one account and credits another by the
 * same amount in the same unit, so the sum over all accounts of a unit is zero after every commit.
 * Accounts that stand for value held by someone (wallets, reserves, outstanding notes) never go
 * below zero; contra accounts (processor clearing, issuance) go negative by the value they brought
 * in.
 */
import * as t from 'io-ts'
import type { CollectionSpec } from '../../ports/store.js'
import { nullable, typedCollection } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { fromDecimal, UnitCodec, type Unit } from './amount.js'

export const VALUE_ACCOUNTS = 'value.accounts'


/** A user's spendable balance. */
export const walletAccount = (userId: string) => `wallet:${userId}`
/** Φ a user has set aside by a Reserve, spendable only by a Settlement. */
export const reserveAccount = (userId: string) => `reserve:${userId}`
/** Value carried by minted notes that nobody has claimed yet. */
export const NOTES_OUTSTANDING = 'notes:outstanding'
/** Contra account: money received through a payment processor, credited to wallets on checkout. */
export const clearingAccount = (processor: string) => `clearing:${processor}`
/** Contra account: value the deployment's operator issued (`issueValue`). */
export const ISSUANCE = 'issuance'
/** US cents the deployment earned selling Φ through checkout (`payments.phiPerUsd`): only ever credited. */
export const PHI_SALES = 'sales:phi'
/** Usage credits metered Production runs consumed (docs/production.md): value only ever arrives here. */
export const PRODUCTION_USAGE = 'usage:production'

/** Both stakes of a money battle while it is fought (docs/signal-circuit.md): emptied by its payouts. */
export const battleEscrowAccount = (battleId: string) => `escrow:battle:${battleId}`

/** Contra accounts may go negative; every other account must stay at or above zero. */
export function mayGoNegative(account: string): boolean {
  return account === ISSUANCE || account.startsWith('clearing:')
}

/** An account's state as stored. `head` chains the digests of the entries that touched it; `balance` is the decimal string of a bigint. */
const AccountRecordCodec = t.readonly(t.type({
  account: t.string, unit: UnitCodec, balance: t.string, head: nullable(t.string), entries: t.number, updatedAt: t.string,
}))
export type AccountRecord = t.TypeOf<typeof AccountRecordCodec>

export const valueAccounts = typedCollection({ name: VALUE_ACCOUNTS, indexes: [{ name: 'byUnit', fields: ['unit', 'account'] }] }, AccountRecordCodec)
export const valueAccountsCollection: CollectionSpec = valueAccounts.spec

/** An account as loaded: absent accounts hold zero and have no version yet. */
export interface LoadedAccount {
  readonly record: AccountRecord
  readonly balance: bigint
  readonly version: number | null
}

export const accountKey = (unit: Unit, account: string) => `${unit}:${account}`

export async function loadAccount(deps: Pick<CoreDeps, 'store'>, unit: Unit, account: string): Promise<LoadedAccount> {
  const doc = await valueAccounts.get(deps.store, accountKey(unit, account))
  if (!doc) return { record: { account, unit, balance: '0', head: null, entries: 0, updatedAt: '' }, balance: 0n, version: null }
  return { record: doc.value, balance: fromDecimal(doc.value.balance), version: doc.version }
}
