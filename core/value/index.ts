/**
 * Value: the double-entry ledger (exact bigint amounts in micro-Φ and US cents), wallets,
 * transfers, Reserve/Settlement execution, checkout and the public wallet ledger. See docs/value.md.
 */
import type { CollectionSpec } from '../../ports/store.js'
import type { UseCaseRegistry } from '../usecases/use-case.js'
import { valueAccountsCollection } from './accounts.js'
import { createConnectCheckout, createEmbedCheckout, getConnectCheckoutSession, valueCheckoutsCollection } from './checkout.js'
import { valueIdempotencyCollection } from './idempotency.js'
import { claimEmbedNote, claimWalletNote, downloadWalletNote, mintWalletNote } from './note-operations.js'
import { valueNotesCollection } from './notes.js'
import { valueEntriesCollection } from './ledger-entry.js'
import { valueSecretsCollection } from './pseudonym.js'
import { createTransfer } from './transfer.js'
import { executeReserve, executeSettlement, getValueExecutionByIdempotency } from './value-execution.js'
import { getConnectWallet } from './wallet.js'
import { valueRollupCollection } from './wallet-feed.js'
import { getWalletLedger } from './wallet-ledger-feed.js'

/** @example const useCases = { ...valueUseCases } */
export const valueUseCases = {
  getConnectWallet, createTransfer, getWalletLedger, executeReserve, executeSettlement, getValueExecutionByIdempotency,
  createConnectCheckout, getConnectCheckoutSession, createEmbedCheckout,
  mintWalletNote, claimWalletNote, downloadWalletNote, claimEmbedNote,
} as const satisfies UseCaseRegistry

/** @example await store.declare(valueCollections) */
export const valueCollections: readonly CollectionSpec[] = [
  valueAccountsCollection, valueEntriesCollection, valueIdempotencyCollection, valueRollupCollection, valueSecretsCollection, valueCheckoutsCollection, valueNotesCollection,
]

export { completeCheckout, valueCheckouts, VALUE_CHECKOUTS, type CheckoutRecord, type CheckoutCompletion } from './checkout.js'
export { receivePaymentWebhook } from './checkout-webhook.js'
export { mintNote, claimNote, downloadNote, NOTE_SCHEMA, valueNotes, VALUE_NOTES, type NoteRecord, type NotePayload } from './notes.js'
export { issueValue, type IssueValueInput, type IssuedValue } from './issue-value.js'
export { formatPhi, phiMicroForCents, phiMicroPerCent, PhiPerUsd } from './phi-price.js'
export { trialBalance, type TrialBalance } from './trial-balance.js'
export { readWallet } from './wallet.js'
export { readWalletLedger } from './wallet-ledger-feed.js'
export * from './amount.js'
export * from './accounts.js'
export { WALLET_LEDGER_STREAM, WALLET_RECEIPT_SCHEMA, type PublishedWalletEvent, type WalletLedgerRollup } from './wallet-feed.js'
export { decodeOperatorIssue, operatorIssue, operatorIssued, OperatorIssueRequest, type OperatorIssued } from './operator-issue.js'
