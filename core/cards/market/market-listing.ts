/**
 * The owner's market actions: open an auction or list a fixed-price sale (the card is locked to
 * that market until it sells or the owner cancels), and cancel (an auction only while nobody has
 * bid). Each is one commit of the market and the holding, guarded by their versions.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { toBase64Url } from '../../encoding/base64url.js'
import { conflict, forbidden, invalidInput, unprocessable, type DomainError } from '../../errors/domain-error.js'
import { commitWithLeaves } from '../../tlog/sequence.js'
import { AUCTION_MAX_SECONDS } from '../../config/deployment-config.js'
import { json, type CoreDeps } from '../../usecases/use-case.js'
import { parseMinorUnits, toDecimal } from '../../value/amount.js'
import { pseudonymKey, walletPseudonym } from '../../value/pseudonym.js'
import { holdingWrite, type HeldCard } from '../holdings.js'
import { marketWrite, newMarketWrite, type MarketRecord } from './market-records.js'
import type { MarketReply } from './market-records.js'
import { loadMarkets, phaseOf, publicMarket } from './market-view.js'

/** An auction runs at least a minute (unless the deployment's `cards.auctionMinSeconds` says otherwise) and at most 30 days. */
export const DEFAULT_AUCTION_MIN_SECONDS = 60
/** Without a stated increment, each bid must beat the last by 5% of the starting bid (at least 1 µΦ). */
const DEFAULT_INCREMENT_PERCENT = 5n

type OpenAction =
  | { readonly action: 'open'; readonly startingBidPhiMicro: string; readonly durationSeconds: number; readonly minIncrementPhiMicro?: string; readonly buyNowPhiMicro?: string }
  | { readonly action: 'list'; readonly pricePhiMicro: string }

/** Only the card's verified holder acts as its owner. */
export function ownerCheck(held: HeldCard, userId: string): Either<DomainError, NonNullable<HeldCard['holding']>> {
  if (held.holding === null) return E.left(unprocessable('This card has no verified owner (it was sealed integrity-only), so it cannot be sold, auctioned or staked'))
  if (held.holding.ownerUserId !== userId) return E.left(forbidden('Only the card\'s owner may do this'))
  return E.right(held.holding)
}

const amount = (text: string, field: string): Either<DomainError, bigint> => {
  const parsed = parseMinorUnits(text, 'phi')
  return parsed.ok ? E.right(parsed.amount) : E.left(invalidInput(`body.${field}: ${parsed.error}`))
}

/** The market an `open` or `list` action starts, decided from the action alone. */
function termsOf(action: OpenAction, nowMs: number, minSeconds: number): Either<DomainError, Pick<MarketRecord, 'kind' | 'pricePhiMicro' | 'startingBidPhiMicro' | 'minIncrementPhiMicro' | 'closesAtMs'>> {
  if (action.action === 'list') {
    return E.map((price: bigint) => ({ kind: 'sale' as const, pricePhiMicro: toDecimal(price), startingBidPhiMicro: null, minIncrementPhiMicro: null, closesAtMs: null }))(amount(action.pricePhiMicro, 'pricePhiMicro'))
  }
  const { durationSeconds } = action
  if (!Number.isInteger(durationSeconds) || durationSeconds < minSeconds || durationSeconds > AUCTION_MAX_SECONDS) {
    return E.left(invalidInput(`body.durationSeconds must be a whole number of seconds from ${minSeconds} to ${AUCTION_MAX_SECONDS}`))
  }
  const starting = amount(action.startingBidPhiMicro, 'startingBidPhiMicro')
  if (E.isLeft(starting)) return starting
  const fallbackIncrement = starting.right * DEFAULT_INCREMENT_PERCENT / 100n
  const increment = action.minIncrementPhiMicro === undefined ? E.right(fallbackIncrement > 0n ? fallbackIncrement : 1n) : amount(action.minIncrementPhiMicro, 'minIncrementPhiMicro')
  if (E.isLeft(increment)) return increment
  const buyNow = action.buyNowPhiMicro === undefined ? E.right(null) : amount(action.buyNowPhiMicro, 'buyNowPhiMicro')
  if (E.isLeft(buyNow)) return buyNow
  if (buyNow.right !== null && buyNow.right <= starting.right) return E.left(invalidInput('body.buyNowPhiMicro must be above the starting bid'))
  return E.right({
    kind: 'auction', pricePhiMicro: buyNow.right === null ? null : toDecimal(buyNow.right), startingBidPhiMicro: toDecimal(starting.right),
    minIncrementPhiMicro: toDecimal(increment.right), closesAtMs: nowMs + durationSeconds * 1000,
  })
}

export async function openMarket(deps: CoreDeps, held: HeldCard, userId: string, action: OpenAction): Promise<Either<DomainError, MarketReply>> {
  const now = deps.clock.now()
  const terms = termsOf(action, now, deps.config.deployment.cards?.auctionMinSeconds ?? DEFAULT_AUCTION_MIN_SECONDS)
  if (E.isLeft(terms)) return terms
  const { cardId } = held.card
  const holding = ownerCheck(held, userId)
  if (E.isLeft(holding)) return holding
  if (holding.right.lock !== null) return E.left(conflict(`The card is already ${holding.right.lock.kind === 'market' ? 'on sale or at auction' : 'staked in a pending card battle'}`))
  const [seller, [latest]] = await Promise.all([pseudonymKey(deps).then((key) => walletPseudonym(key, userId)), loadMarkets(deps, cardId, 1)])
  // A card's markets are read newest first by opening time, the first being the current one: a
  // market opened in the millisecond the last one opened (sold at once, listed again) opens a
  // millisecond after it, or a tie would leave the order to the ids. The holding's version keeps
  // two listings of one card from both committing, so `latest` stays the latest.
  const openedAtMs = latest === undefined ? now : Math.max(now, latest.record.openedAtMs + 1)
  const market: MarketRecord = {
    ...terms.right, marketId: `mkt_${toBase64Url(deps.entropy.bytes(16))}`, cardId, sellerUserId: userId, seller, status: 'open', openedAtMs,
    bids: [], settlement: null, endedAtMs: null,
  }
  const writes = [newMarketWrite(market), holdingWrite(held, { ...holding.right, lock: { kind: 'market', id: market.marketId } })]
  const { outcome } = await commitWithLeaves(deps, writes, [], { actions: [{ kind: 'record', action: market.kind === 'sale' ? 'card_listed' : 'card_auction_opened', actorUserId: userId }] })
  if (!outcome.ok) return E.left(conflict('The card changed while it was being listed; nothing was written, try again'))
  return E.right(json({ ok: true, market: publicMarket(market, now) }))
}

export async function cancelMarket(deps: CoreDeps, held: HeldCard, userId: string): Promise<Either<DomainError, MarketReply>> {
  const now = deps.clock.now()
  const [current] = await loadMarkets(deps, held.card.cardId, 1)
  if (current === undefined || current.record.status !== 'open') return E.left(conflict('The card is not on sale or at auction'))
  if (current.record.sellerUserId !== userId) return E.left(forbidden('Only the seller may cancel'))
  if (current.record.bids.length > 0) return E.left(conflict('An auction with bids runs to its close; it cannot be cancelled'))
  if (phaseOf(current.record, now) === 'closed') return E.left(conflict('The auction has closed; settle it instead'))
  const ended: MarketRecord = { ...current.record, status: 'cancelled', endedAtMs: now }
  const writes = [marketWrite(current, ended), ...(held.holding ? [holdingWrite(held, { ...held.holding, lock: null })] : [])]
  const { outcome } = await commitWithLeaves(deps, writes, [], { actions: [{ kind: 'record', action: 'card_market_cancelled', actorUserId: userId }] })
  if (!outcome.ok) return E.left(conflict('The market changed while it was being cancelled (a bid may have arrived); nothing was written'))
  return E.right(json({ ok: true, market: publicMarket(ended, now) }))
}
