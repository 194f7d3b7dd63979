/**
 * `GET /api/game/signal-run/cards/discovery`: recorded cards, newest first, paged with an opaque
 * cursor (`?cursor=` from the previous page's `nextCursor`). Every card listed was recorded from a
 * sealed image this deployment verified and a manifest that keeps the Sports rules.
 */
import * as E from 'fp-ts/lib/Either.js'
import { invalidInput } from '../errors/domain-error.js'
import { json, type UseCaseFor } from '../usecases/use-case.js'
import { cardRecords } from './card-records.js'
import { publicCard } from './public-card.js'

/** @example await listDiscoverableCards({ query: { limit: 20 }, … }, deps) */
export const listDiscoverableCards: UseCaseFor<'listDiscoverableCards'> = async (request, deps) => {
  const { cursor, limit } = request.query
  try {
    const page = await deps.store.query(cardRecords.name, { index: 'by_recorded', equals: [1], order: 'desc', limit: limit ?? 50, ...(cursor === undefined ? {} : { after: cursor }) })
    const cards = page.items.map((doc) => publicCard(cardRecords.decode(doc), deps.config.baseUrl))
    return E.right(json({ ok: true, count: cards.length, cards, nextCursor: page.nextCursor }, { 'cache-control': 'no-store' }))
  } catch (error) {
    if (error instanceof RangeError) return E.left(invalidInput('cursor is not a cursor of this listing'))
    throw error
  }
}
