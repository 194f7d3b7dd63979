/** Connect wallet components: the delegated wallet read and transfer (scopes `cairn:wallet.*`). */
import * as t from 'io-ts'
import { struct } from '../define.js'
import { DecimalString, IsoTimestamp, NonEmptyString } from '../primitives.js'
import { WalletLedgerEvent } from './wallet.js'

const Wallet = struct(
  'ConnectWallet',
  { userId: NonEmptyString, balancePhiMicro: DecimalString, balanceUsdCents: DecimalString },
  { username: NonEmptyString, updatedAt: IsoTimestamp },
)

/** The token owner's wallet balances. */
export const ConnectWalletResponse = struct(
  'ConnectWalletResponse',
  { ok: t.literal(true) },
  { wallet: Wallet },
  'Wallet of the token\'s owner; balances are decimal strings in micro-Φ and US cents.',
)

const TransferUnit = struct('TransferUnit', { currency: t.keyof({ phi: null, usd: null }), amount: DecimalString })

/** Transfer value from the token owner's wallet to another user. */
export const ConnectTransferRequest = struct(
  'ConnectTransferRequest',
  { recipientUserId: NonEmptyString, unit: TransferUnit },
  { idempotencyKey: NonEmptyString, memo: t.string },
  'Transfer. `unit.amount` is a positive decimal string in the smallest unit of `unit.currency` (micro-Φ for `phi`, cents for `usd`). A repeated `idempotencyKey` returns the first transfer instead of paying twice.',
)

/** The committed transfer and the ledger event that records it. */
export const ConnectTransferResponse = struct(
  'ConnectTransferResponse',
  { ok: t.literal(true) },
  { transferId: NonEmptyString, event: WalletLedgerEvent },
  'Transfer result; `event` is the public ledger entry (pseudonymous) whose proof bundle verifies the receipt.',
)

export const connectComponents = { ConnectWalletResponse, ConnectTransferRequest, ConnectTransferResponse } as const
