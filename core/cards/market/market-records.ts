/**
 * A card's markets as stored: each time an owner lists a card (a fixed-price sale or an auction) a
 * new market record starts, so earlier markets and every bid on them stay readable after the card
 * changes hands. Bids are only ever appended; the record is rewritten with a version expectation,
 * so of two racing bids or two racing settlements exactly one lands.
 */
import type { CollectionSpec, Json, Write } from '../../../ports/store.js'
import type { ReplyOf } from '../../usecases/use-case.js'

export const CARD_MARKETS = 'cards.markets'
export const cardMarketsCollection: CollectionSpec = { name: CARD_MARKETS, indexes: [{ name: 'by_card', fields: ['cardId', 'openedAtMs'] }] }

/** The log leaf kinds of market facts: a bid, and a settled sale. */
export const BID_LEAF_KIND = 'cairn.card_bid'
export const SALE_LEAF_KIND = 'cairn.card_sale'

export interface Bid {
  readonly bidId: string
  readonly bidderUserId: string
  /** The bidder's public wallet-ledger pseudonym: what the public record shows. */
  readonly bidder: string
  /** Micro-Φ, a decimal string. */
  readonly amountPhiMicro: string
  readonly atMs: number
  /** The bidder's own key for this bid: a retry with it answers the bid already recorded (never public). */
  readonly requestId?: string
}

export interface Settlement {
  readonly buyerUserId: string
  readonly buyer: string
  readonly amountPhiMicro: string
  readonly entryId: string
  readonly via: 'buy' | 'auction'
  readonly atMs: number
  /** Higher bids passed over because their bidders could no longer pay when the auction settled. */
  readonly passedOverBidIds: readonly string[]
}

export type MarketStatus = 'open' | 'sold' | 'cancelled' | 'unsold'

export interface MarketRecord {
  readonly marketId: string
  readonly cardId: string
  readonly kind: 'sale' | 'auction'
  readonly sellerUserId: string
  readonly seller: string
  readonly status: MarketStatus
  /** The fixed price of a sale, or an auction's buy-now price (null: none). Micro-Φ. */
  readonly pricePhiMicro: string | null
  /** Auctions only (null for a sale). Micro-Φ. */
  readonly startingBidPhiMicro: string | null
  readonly minIncrementPhiMicro: string | null
  readonly closesAtMs: number | null
  readonly openedAtMs: number
  readonly bids: readonly Bid[]
  readonly settlement: Settlement | null
  readonly endedAtMs: number | null
}

export interface LoadedMarket {
  readonly record: MarketRecord
  readonly version: number
}

export const newMarketWrite = (record: MarketRecord): Write => ({ kind: 'put', collection: CARD_MARKETS, key: record.marketId, value: record as unknown as Json, expect: { kind: 'absent' } })

export const marketWrite = (loaded: LoadedMarket, next: MarketRecord): Write => ({
  kind: 'put', collection: CARD_MARKETS, key: next.marketId, value: next as unknown as Json, expect: { kind: 'version', version: loaded.version },
})

/** What every market action answers. */
export type MarketReply = ReplyOf<'appendCardAuctionAction'>
