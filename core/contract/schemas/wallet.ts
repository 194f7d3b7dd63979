/**
 * The public, append-only ledger feeds. Values are exact decimal strings (micro-Φ, US cents),
 * actors are pseudonyms, and every wallet event points to a proof anyone can verify.
 */
import * as t from 'io-ts'
import { struct } from '../define.js'
import { DecimalString, IsoTimestamp, KaiPulse, NonEmptyString } from '../primitives.js'
import { SitePath } from './verification.js'

const Cursor = t.union([t.string, t.null])
const Since = t.union([IsoTimestamp, t.null])

/** Where an event's receipt is verified; `kind` is its schema string (e.g. `cairn.wallet_ledger_receipt`). */
const ProofBundleRef = struct('ProofBundleRef', { kind: NonEmptyString, verifyPath: SitePath })

/** One transfer, note mint, note claim, operator issuance, checkout or lawful settlement in the public wallet ledger. */
export const WalletLedgerEvent = struct(
  'WalletLedgerEvent',
  { id: NonEmptyString, kind: t.keyof({ transfer: null, note_mint: null, note_claim: null, issuance: null, checkout: null, settlement: null }), createdAt: IsoTimestamp },
  {
    pulse: KaiPulse,
    amountPhiMicro: DecimalString,
    amountUsdCents: DecimalString,
    fromActor: NonEmptyString,
    toActor: NonEmptyString,
    proofBundle: ProofBundleRef,
  },
  'Wallet ledger event. Amounts are decimal strings in micro-Φ and US cents; `fromActor`/`toActor` are stable pseudonyms, never user IDs; `proofBundle.verifyPath` verifies the receipt without an account.',
)

/** Running totals of the wallet ledger; counts and sums are decimal strings. */
export const WalletLedgerRollup = struct(
  'WalletLedgerRollup',
  {},
  {
    totalTransferEvents: DecimalString,
    totalNoteMintEvents: DecimalString,
    totalNoteClaimEvents: DecimalString,
    totalIssuanceEvents: DecimalString,
    totalCheckoutEvents: DecimalString,
    totalSettlementEvents: DecimalString,
    totalPhiCreditMicro: DecimalString,
    totalPhiDebitMicro: DecimalString,
    totalUsdCreditCents: DecimalString,
    totalUsdDebitCents: DecimalString,
    updatedAt: IsoTimestamp,
  },
  'Deterministic totals over the whole ledger (not only the page). Every value is a decimal string except `updatedAt`.',
)

/** A page of the public wallet ledger, pollable with `cursor`/`since`, continued with `nextCursor`. */
export const WalletLedgerFeed = struct(
  'WalletLedgerFeed',
  { ok: t.literal(true), events: t.array(WalletLedgerEvent), rollup: WalletLedgerRollup },
  { cursor: Cursor, since: Since, nextCursor: Cursor },
  'Wallet ledger page. `cursor` and `since` echo the request (null when absent); `nextCursor` is null at the current end: poll again with the last non-null cursor.',
)

const ActionLedgerEvent = struct(
  'ActionLedgerEvent',
  { id: NonEmptyString, kind: t.keyof({ auth: null, record: null, wallet: null, identity_key: null }), createdAt: IsoTimestamp },
  { action: NonEmptyString, actor: NonEmptyString, pulse: KaiPulse, proofBundle: ProofBundleRef },
)

/** A page of the global action ledger (auth, record, wallet and identity-key events). */
export const ActionLedgerFeed = struct(
  'ActionLedgerFeed',
  { ok: t.literal(true), events: t.array(ActionLedgerEvent) },
  { cursor: Cursor, since: Since, nextCursor: Cursor },
  'Action ledger page. Each event has a `kind` (auth, record, wallet, identity_key), a finer `action` (e.g. `login`, `seal`, `transfer`, `key_bound`) and a pseudonymous `actor`. `cursor` and `since` echo the request (null when absent); `nextCursor` is where to continue (after the last entry examined) and equals `cursor` at the current end, so a poller always holds a cursor; a page may hold fewer than `limit` events without being the end.',
)

export const walletComponents = { WalletLedgerFeed, WalletLedgerEvent, WalletLedgerRollup, ActionLedgerFeed } as const
