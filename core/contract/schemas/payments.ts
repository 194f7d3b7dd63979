/**
 * Payment components: checkout (embedded or hosted, settling to a wallet) and the offline
 * payment notes minted from, claimed into and downloaded from wallets.
 */
import * as t from 'io-ts'
import { struct } from '../define.js'
import { Base64Url, DecimalString, IsoTimestamp, NonEmptyString, NonNegativeInteger, Sha256Hex, UrlString } from '../primitives.js'
import { SitePath } from './verification.js'
import { WalletLedgerEvent } from './wallet.js'

const Mode = t.keyof({ embedded: null, hosted: null })

/** A checkout for an exact US dollar amount. */
export const CheckoutRequest = struct(
  'CheckoutRequest',
  { amountUsd: DecimalString, currency: t.keyof({ usd: null }) },
  {
    targetUsername: NonEmptyString,
    mode: Mode,
    description: t.string,
    successUrl: UrlString,
    cancelUrl: UrlString,
    idempotencyKey: NonEmptyString,
  },
  'Checkout. `amountUsd` is a positive decimal string in dollars (at most two decimals); `currency` is the lowercase ISO 4217 code, `usd`. `targetUsername` is the wallet credited (embeds); Connect checkouts credit the token owner. `successUrl`/`cancelUrl` must be on the deployment\'s origin or a registered client\'s (a Connect token: its own client\'s). An embed\'s `idempotencyKey` replays the saved session only to the signed-in payer who sent it; an anonymous repeat is 409.',
)

/** A created checkout session: where to pay. */
export const CheckoutSessionResponse = struct(
  'CheckoutSessionResponse',
  { ok: t.literal(true) },
  { sessionId: NonEmptyString, mode: Mode, checkoutUrl: UrlString, clientSecret: NonEmptyString, expiresAt: IsoTimestamp },
  'Checkout session. Hosted mode returns `checkoutUrl`; embedded mode returns `clientSecret` for the payment processor\'s embed.',
)

/** Where a checkout session stands. */
export const CheckoutSessionStatusResponse = struct(
  'CheckoutSessionStatusResponse',
  { ok: t.literal(true) },
  {
    sessionId: NonEmptyString,
    status: t.keyof({ open: null, complete: null, expired: null }),
    amountUsd: DecimalString,
    currency: t.keyof({ usd: null }),
    targetUsername: NonEmptyString,
    completedAt: IsoTimestamp,
  },
  'Checkout status: `open` until paid or expired; `complete` once the wallet was credited.',
)

const WalletNote = struct(
  'WalletNote',
  { noteId: NonEmptyString, status: t.keyof({ minted: null, claimed: null }), createdAt: IsoTimestamp },
  { amountPhiMicro: DecimalString, amountUsdCents: DecimalString, claimedAt: IsoTimestamp, downloadPath: SitePath },
)

/** Notes claimed into a target wallet. */
export const NoteClaimResponse = struct(
  'NoteClaimResponse',
  { ok: t.literal(true) },
  { targetUsername: NonEmptyString, claimed: t.array(WalletNote), events: t.array(WalletLedgerEvent) },
  'Note claim result: the notes claimed and the public ledger events recording them. A note claims once; a second claim is refused.',
)

/** A minted or claimed note (Connect). */
export const WalletNoteResponse = struct(
  'WalletNoteResponse',
  { ok: t.literal(true) },
  { note: WalletNote, notes: t.array(WalletNote), event: WalletLedgerEvent },
  'Mint returns the new `note` (download its sealed artifact with `downloadPath`); claim returns the claimed `notes`. `event` is the ledger entry.',
)

/** The exact sealed note artifact. */
export const WalletNoteDownloadResponse = struct(
  'WalletNoteDownloadResponse',
  { ok: t.literal(true) },
  {
    noteId: NonEmptyString,
    filename: t.string,
    mimeType: NonEmptyString,
    exactBytesB64u: Base64Url,
    sha256: Sha256Hex,
    byteLength: NonNegativeInteger,
  },
  'Sealed note: `exactBytesB64u` are the exact artifact bytes (verifiable offline), `sha256` their digest.',
)

export const paymentsComponents = {
  CheckoutRequest, CheckoutSessionResponse, CheckoutSessionStatusResponse, NoteClaimResponse, WalletNoteResponse, WalletNoteDownloadResponse,
} as const
