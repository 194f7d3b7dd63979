/**
 * A card's markets as stored: each time an owner lists a card (a fixed-price sale or an auction) a
 * new market record starts, so earlier markets and every bid on them stay readable after the card
 * changes hands. Bids are only ever appended; the record is rewritten with a version expectation,
 * so of two racing bids or two racing settlements exactly one lands.
 */
import * as t from 'io-ts'
import type { CollectionSpec, Write } from '../../../ports/store.js'
import { nullableNumber, nullableString, typedCollection } from '../../usecases/typed-collection.js'
import type { ReplyOf } from '../../usecases/use-case.js'

export const CARD_MARKETS = 'cards.markets'

/** The log leaf kinds of market facts: a bid, and a settled sale. */
export const BID_LEAF_KIND = 'cairn.card_bid'
export const SALE_LEAF_KIND = 'cairn.card_sale'

/**
 * `bidder` is the bidder's public wallet-ledger pseudonym (what the public record shows);
 * `amountPhiMicro` micro-Φ, a decimal string; `requestId` the bidder's own key for this bid (a
 * retry with it answers the bid already recorded; never public).
 */
const BidCodec = t.readonly(t.intersection([
  t.type({ bidId: t.string, bidderUserId: t.string, bidder: t.string, amountPhiMicro: t.string, atMs: t.number }),
  t.partial({ requestId: t.string }),
]))
export type Bid = t.TypeOf<typeof BidCodec>

/** `passedOverBidIds`: higher bids passed over because their bidders could no longer pay when the auction settled. */
const SettlementCodec = t.readonly(t.type({
  buyerUserId: t.string, buyer: t.string, amountPhiMicro: t.string, entryId: t.string, via: t.keyof({ buy: null, auction: null }), atMs: t.number,
  passedOverBidIds: t.readonlyArray(t.string),
}))
export type Settlement = t.TypeOf<typeof SettlementCodec>

const MarketStatusCodec = t.keyof({ open: null, sold: null, cancelled: null, unsold: null })
export type MarketStatus = t.TypeOf<typeof MarketStatusCodec>

/**
 * One listing. `pricePhiMicro`: the fixed price of a sale, or an auction's buy-now price (null:
 * none); `startingBidPhiMicro`, `minIncrementPhiMicro`, `closesAtMs`: auctions only (null for a
 * sale). Amounts are micro-Φ.
 */
const MarketRecordCodec = t.readonly(t.type({
  marketId: t.string, cardId: t.string, kind: t.keyof({ sale: null, auction: null }), sellerUserId: t.string, seller: t.string, status: MarketStatusCodec,
  pricePhiMicro: nullableString, startingBidPhiMicro: nullableString, minIncrementPhiMicro: nullableString, closesAtMs: nullableNumber,
  openedAtMs: t.number, bids: t.readonlyArray(BidCodec), settlement: t.union([SettlementCodec, t.null]), endedAtMs: nullableNumber,
}))
export type MarketRecord = t.TypeOf<typeof MarketRecordCodec>

export const cardMarkets = typedCollection({ name: CARD_MARKETS, indexes: [{ name: 'by_card', fields: ['cardId', 'openedAtMs'] }] }, MarketRecordCodec)
export const cardMarketsCollection: CollectionSpec = cardMarkets.spec

export interface LoadedMarket {
  readonly record: MarketRecord
  readonly version: number
}

export const newMarketWrite = (record: MarketRecord): Write => cardMarkets.put(record.marketId, record, { kind: 'absent' })

export const marketWrite = (loaded: LoadedMarket, next: MarketRecord): Write => cardMarkets.put(next.marketId, next, { kind: 'version', version: loaded.version })

/** What every market action answers. */
export type MarketReply = ReplyOf<'appendCardAuctionAction'>
