/**
 * Signal Run cards, built so far: recording a sealed sports card into the public record path and
 * discovering recorded cards. Art, sales, auctions and battles are not built yet (honest 501s).
 */
import type { UseCaseRegistry } from '../usecases/use-case.js'
import { listDiscoverableCards } from './discovery.js'
import { recordCard } from './record-card.js'

/** @example const useCases = { ...cardUseCases } */
export const cardUseCases = { recordCard, listDiscoverableCards } as const satisfies UseCaseRegistry

export { cardCollections, cardIdOf, CARDS, CARD_LEAF_KIND, type CardRecord } from './card-records.js'
