/**
 * Who holds a recorded card now. A card's first holder is the owner its sealed proof object names
 * (an integrity-only seal names nobody, so such a card can be looked at but never sold, auctioned
 * or staked); sales, auctions and card battles move it on. A holding is written with a version
 * expectation, so two commits that both move or lock one card can never both land.
 */
import type { CollectionSpec, Json, Write } from '../../ports/store.js'
import { notFound } from '../errors/domain-error.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { CARDS, type CardRecord } from './card-records.js'

export const CARD_HOLDINGS = 'cards.holdings'
export const cardHoldingsCollection: CollectionSpec = { name: CARD_HOLDINGS }

/** What a card is committed to while it is: an open sale or auction, or a pending card battle. */
export interface HoldingLock {
  readonly kind: 'market' | 'battle'
  readonly id: string
}

export interface Holding {
  readonly cardId: string
  readonly ownerUserId: string
  readonly sinceMs: number
  readonly via: 'seal' | 'sale' | 'auction' | 'battle'
  readonly lock: HoldingLock | null
  /** The owner's AI Twin accepts fun and XP battles against this card on the owner's behalf. */
  readonly twinDefense: boolean
}

/** A card and its holding as loaded; `version` is null while the holding is still the seal's. */
export interface HeldCard {
  readonly card: CardRecord
  /** Null when the card has no verified owner. */
  readonly holding: Holding | null
  readonly version: number | null
}

/** @example const held = await loadHeldCard(deps, 'card_…') // undefined: no such card */
export async function loadHeldCard(deps: Pick<CoreDeps, 'store'>, cardId: string): Promise<HeldCard | undefined> {
  const [card, holding] = await Promise.all([deps.store.get<Json>(CARDS, cardId), deps.store.get<Json>(CARD_HOLDINGS, cardId)])
  if (!card) return undefined
  const record = card.value as unknown as CardRecord
  if (holding) return { card: record, holding: holding.value as unknown as Holding, version: holding.version }
  const ownerUserId = record.ownerUserId ?? null
  if (ownerUserId === null) return { card: record, holding: null, version: null }
  return { card: record, holding: { cardId, ownerUserId, sinceMs: record.recordedAtMs, via: 'seal', lock: null, twinDefense: false }, version: null }
}

export const unknownCard = (cardId: string) => notFound(`No card ${cardId} is recorded here`)

/** The write that replaces `held`'s holding with `next`, only if nobody changed it since it was loaded. */
export function holdingWrite(held: Pick<HeldCard, 'version'>, next: Holding): Write {
  return {
    kind: 'put', collection: CARD_HOLDINGS, key: next.cardId, value: next as unknown as Json,
    expect: held.version === null ? { kind: 'absent' } : { kind: 'version', version: held.version },
  }
}
