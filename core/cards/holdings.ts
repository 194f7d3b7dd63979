/**
 * Who holds a recorded card now. A card's first holder is the owner its sealed proof object names
 * (an integrity-only seal names nobody, so such a card can be looked at but never sold, auctioned
 * or staked); sales, auctions and card battles move it on. A holding is written with a version
 * expectation, so two commits that both move or lock one card can never both land.
 */
import * as t from 'io-ts'
import type { CollectionSpec, Write } from '../../ports/store.js'
import { notFound } from '../errors/domain-error.js'
import { typedCollection, unchangedSince } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { cardRecords, type CardRecord } from './card-records.js'

export const CARD_HOLDINGS = 'cards.holdings'

/** What a card is committed to while it is: an open sale or auction, or a pending card battle. */
const HoldingLockCodec = t.readonly(t.type({ kind: t.keyof({ market: null, battle: null }), id: t.string }))
export type HoldingLock = t.TypeOf<typeof HoldingLockCodec>

/** Who holds a card, since when and how; `twinDefense`: the owner's AI Twin accepts fun and XP battles against this card on the owner's behalf. */
const HoldingCodec = t.readonly(t.type({
  cardId: t.string, ownerUserId: t.string, sinceMs: t.number, via: t.keyof({ seal: null, sale: null, auction: null, battle: null }),
  lock: t.union([HoldingLockCodec, t.null]), twinDefense: t.boolean,
}))
export type Holding = t.TypeOf<typeof HoldingCodec>

export const cardHoldings = typedCollection({ name: CARD_HOLDINGS }, HoldingCodec)
export const cardHoldingsCollection: CollectionSpec = cardHoldings.spec

/** A card and its holding as loaded; `version` is null while the holding is still the seal's. */
export interface HeldCard {
  readonly card: CardRecord
  /** Null when the card has no verified owner. */
  readonly holding: Holding | null
  readonly version: number | null
}

/** @example const held = await loadHeldCard(deps, 'card_…') // undefined: no such card */
export async function loadHeldCard(deps: Pick<CoreDeps, 'store'>, cardId: string): Promise<HeldCard | undefined> {
  const [card, holding] = await Promise.all([cardRecords.get(deps.store, cardId), cardHoldings.get(deps.store, cardId)])
  if (!card) return undefined
  const record = card.value
  if (holding) return { card: record, holding: holding.value, version: holding.version }
  const ownerUserId = record.ownerUserId ?? null
  if (ownerUserId === null) return { card: record, holding: null, version: null }
  return { card: record, holding: { cardId, ownerUserId, sinceMs: record.recordedAtMs, via: 'seal', lock: null, twinDefense: false }, version: null }
}

export const unknownCard = (cardId: string) => notFound(`No card ${cardId} is recorded here`)

/** The write that replaces `held`'s holding with `next`, only if nobody changed it since it was loaded. */
export function holdingWrite(held: Pick<HeldCard, 'version'>, next: Holding): Write {
  return cardHoldings.put(next.cardId, next, unchangedSince(held.version))
}
