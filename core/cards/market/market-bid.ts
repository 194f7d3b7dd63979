/**
 * A bid: a verified record appended to an open auction by a signed-in user who is not the seller,
 * at least the next minimum bid, and within the bidder's Φ balance now. The bid is appended to the
 * market (guarded by its version) with its transparency-log leaf in one commit; a racing bid that
 * landed first is decided again, so an equal bid loses and a higher one still wins. A bid sent with
 * a `requestId` is answered again, not placed twice, when the bidder retries it.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { toBase64Url } from '../../encoding/base64url.js'
import { conflict, forbidden, invalidInput, unprocessable, type DomainError } from '../../errors/domain-error.js'
import { commitWithLeaves } from '../../tlog/sequence.js'
import { json, type CoreDeps } from '../../usecases/use-case.js'
import { loadAccount, walletAccount } from '../../value/accounts.js'
import { parseMinorUnits, toDecimal } from '../../value/amount.js'
import { pseudonymKey, walletPseudonym } from '../../value/pseudonym.js'
import { BID_LEAF_KIND, marketWrite, type Bid, type LoadedMarket } from './market-records.js'
import type { MarketReply } from './market-records.js'
import { loadMarkets, minimumNextBid, phaseOf, publicMarket } from './market-view.js'

/** Bids one auction keeps; the record stays one readable document. */
export const MAX_BIDS = 500
const ATTEMPTS = 16

/** Pure: may `bidderUserId` bid `amount` on this market at `nowMs` with `balance`? */
export function bidRefusal(market: LoadedMarket | undefined, bidderUserId: string, amount: bigint, balance: bigint, nowMs: number): DomainError | null {
  if (market === undefined || market.record.kind !== 'auction' || market.record.status !== 'open') return conflict('The card is not at auction')
  if (phaseOf(market.record, nowMs) === 'closed') return conflict('The auction has closed; no more bids are taken')
  if (market.record.sellerUserId === bidderUserId) return forbidden('The seller may not bid on their own auction')
  if (market.record.bids.length >= MAX_BIDS) return conflict(`This auction has taken its ${MAX_BIDS} bids`)
  const minimum = minimumNextBid(market.record)
  if (amount < minimum) return unprocessable(`The bid is below the next minimum bid of ${toDecimal(minimum)} µΦ`)
  if (balance < amount) return unprocessable(`The bid is beyond your Φ balance (${toDecimal(balance)} µΦ); nothing was recorded`)
  return null
}

const publicBid = (bid: Bid) => ({ bidId: bid.bidId, bidder: bid.bidder, amountPhiMicro: bid.amountPhiMicro, at: new Date(bid.atMs).toISOString() })

export async function placeBid(deps: CoreDeps, cardId: string, bidderUserId: string, amountText: string, requestId?: string): Promise<Either<DomainError, MarketReply>> {
  const parsed = parseMinorUnits(amountText, 'phi')
  if (!parsed.ok) return E.left(invalidInput(`body.amountPhiMicro: ${parsed.error}`))
  const bidder = walletPseudonym(await pseudonymKey(deps), bidderUserId)
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const now = deps.clock.now()
    const [[market], account] = await Promise.all([loadMarkets(deps, cardId, 1), loadAccount(deps, 'phi', walletAccount(bidderUserId))])
    const recorded = requestId === undefined ? undefined : market?.record.bids.find((bid) => bid.bidderUserId === bidderUserId && bid.requestId === requestId)
    if (recorded) return E.right(json({ ok: true, replayed: true, bid: publicBid(recorded), market: publicMarket(market!.record, now) }))
    const refused = bidRefusal(market, bidderUserId, parsed.amount, account.balance, now)
    if (refused) return E.left(refused)
    const bid: Bid = { bidId: `bid_${toBase64Url(deps.entropy.bytes(12))}`, bidderUserId, bidder, amountPhiMicro: toDecimal(parsed.amount), atMs: now, ...(requestId === undefined ? {} : { requestId }) }
    const next = { ...market!.record, bids: [...market!.record.bids, bid] }
    const leaf = { kind: BID_LEAF_KIND, marketId: next.marketId, cardId, bidId: bid.bidId, bidder, amountPhiMicro: bid.amountPhiMicro, at: new Date(now).toISOString() }
    const { outcome, leafIndexes } = await commitWithLeaves(deps, [marketWrite(market!, next)], [leaf], { actions: [{ kind: 'record', action: 'card_bid', actorUserId: bidderUserId }] })
    if (outcome.ok) return E.right(json({ ok: true, bid: publicBid(bid), logLeafIndex: leafIndexes[0]!, market: publicMarket(next, now) }))
  }
  return E.left(conflict('The auction changed too often while bidding; nothing was recorded, try again'))
}
