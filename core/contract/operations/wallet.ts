import { feedQuery } from './query-parameters.js'
import { operation } from './define.js'

export const walletOperations = [
  operation('Wallet', 'getWalletLedger', 'GET /api/wallet/ledger/public', {
    auth: 'None', query: feedQuery, response: 'WalletLedgerFeed',
    summary: 'Append-only feed of transfer and note events with deterministic value fields and pseudonymous actors',
  }),
  operation('Wallet', 'getActionLedger', 'GET /api/ledger/actions/public', {
    auth: 'None', query: feedQuery, response: 'ActionLedgerFeed',
    summary: 'Append-only global action feed for auth, record, wallet and identity-key events',
  }),
]
