/**
 * Signal Run cards: recording a sealed sports card into the public record path and
 * discovering recorded cards, card art (generated once, served immutable), share images, the card
 * market (fixed-price sales and auctions, settled through the value ledger) and battles.
 */
import type { CollectionSpec } from '../../ports/store.js'
import type { UseCaseRegistry } from '../usecases/use-case.js'
import { cardRecordsCollection } from './card-records.js'
import { listDiscoverableCards } from './discovery.js'
import { recordCard } from './record-card.js'
import { cardArtCollection, generateCardArt, getCardArtImage } from './card-art.js'
import { getCardShareImage } from './share-image.js'
import { cardHoldingsCollection } from './holdings.js'
import { appendCardAuctionAction } from './market/market-actions.js'
import { getCardAuction, getCardPurchase } from './market/market-reads.js'
import { cardMarketsCollection } from './market/market-records.js'
import { answerBattleRequest } from './battles/answer-battle.js'
import { cardBattlesCollection, cardXpCollection } from './battles/battle-records.js'
import { saveBattleSettings } from './battles/battle-settings.js'
import { createBattleRequest } from './battles/create-battle.js'
import { listBattleRequests } from './battles/list-battles.js'

/** @example const useCases = { ...cardUseCases } */
export const cardUseCases = {
  recordCard, listDiscoverableCards, generateCardArt, getCardArtImage, getCardShareImage,
  getCardAuction, getCardPurchase, appendCardAuctionAction,
  listBattleRequests, createBattleRequest, answerBattleRequest, saveBattleSettings,
} as const satisfies UseCaseRegistry

export { CARD_ART, cardArtCollection, type CardArtRecord } from './card-art.js'
export const cardCollections: readonly CollectionSpec[] = [cardRecordsCollection, cardArtCollection, cardHoldingsCollection, cardMarketsCollection, cardBattlesCollection, cardXpCollection]

export { cardIdOf, CARDS, CARD_LEAF_KIND, type CardRecord } from './card-records.js'
