/** How a market reads in public: terms, phase, every bid by wallet pseudonym, and the settlement. */
import { fromDecimal, toDecimal } from '../../value/amount.js'
import type { CoreDeps } from '../../usecases/use-case.js'
import { cardMarkets, type LoadedMarket, type MarketRecord } from './market-records.js'

/** The markets of a card, newest first (the first is the current one while it is open). */
export async function loadMarkets(deps: Pick<CoreDeps, 'store'>, cardId: string, limit = 20): Promise<readonly LoadedMarket[]> {
  const page = await deps.store.query(cardMarkets.name, { index: 'by_card', equals: [cardId], order: 'desc', limit })
  return page.items.map((doc) => ({ record: cardMarkets.decode(doc), version: doc.version }))
}

/** An open auction past its close is `closed` until someone settles it. */
export type MarketPhase = 'open' | 'closed' | 'sold' | 'cancelled' | 'unsold'

export const phaseOf = (market: MarketRecord, nowMs: number): MarketPhase =>
  market.status === 'open' && market.closesAtMs !== null && nowMs >= market.closesAtMs ? 'closed' : market.status

export const highestBid = (market: MarketRecord) => market.bids.at(-1) ?? null

/** The least the next bid may be: the starting bid, or the highest bid plus the increment. */
export function minimumNextBid(market: MarketRecord): bigint {
  const top = highestBid(market)
  if (top === null) return fromDecimal(market.startingBidPhiMicro ?? '1')
  return fromDecimal(top.amountPhiMicro) + fromDecimal(market.minIncrementPhiMicro ?? '1')
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

export function publicMarket(market: MarketRecord, nowMs: number) {
  const phase = phaseOf(market, nowMs)
  return {
    marketId: market.marketId,
    cardId: market.cardId,
    kind: market.kind,
    phase,
    unit: 'phi-micro',
    seller: market.seller,
    pricePhiMicro: market.pricePhiMicro,
    startingBidPhiMicro: market.startingBidPhiMicro,
    minIncrementPhiMicro: market.minIncrementPhiMicro,
    nextMinimumBidPhiMicro: market.kind === 'auction' && phase === 'open' ? toDecimal(minimumNextBid(market)) : null,
    openedAt: iso(market.openedAtMs),
    closesAt: iso(market.closesAtMs),
    endedAt: iso(market.endedAtMs),
    bids: market.bids.map((bid) => ({ bidId: bid.bidId, bidder: bid.bidder, amountPhiMicro: bid.amountPhiMicro, at: iso(bid.atMs) })),
    settlement: market.settlement && {
      buyer: market.settlement.buyer, amountPhiMicro: market.settlement.amountPhiMicro, entryId: market.settlement.entryId, via: market.settlement.via,
      at: iso(market.settlement.atMs), passedOverBidIds: market.settlement.passedOverBidIds,
    },
  }
}
