/**
 * `POST …/cards/{cardId}/auction`: the card's market actions, each by a signed-in user (a session):
 * the owner opens an auction, lists a fixed-price sale or cancels it; anyone else bids, buys at the
 * listed price, or settles an auction after its close. docs/signal-circuit.md, "Sales and
 * auctions", states every rule.
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { CardMarketAction } from '../../contract/accepted-bodies.js'
import { formatDecodeErrors } from '../../errors/decode-errors.js'
import { invalidInput, unauthenticated } from '../../errors/domain-error.js'
import type { UseCaseFor } from '../../usecases/use-case.js'
import { loadHeldCard, unknownCard } from '../holdings.js'
import { placeBid } from './market-bid.js'
import { cancelMarket, openMarket } from './market-listing.js'
import { buyCard, settleAuction } from './market-settle.js'

export const MarketAction = CardMarketAction
export type MarketAction = t.TypeOf<typeof MarketAction>

const ACTIONS = ['open', 'list', 'cancel', 'bid', 'buy', 'settle'] as const

/** Which action a body names, so a decode failure speaks about that action's members. */
const namesKnownAction = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && (ACTIONS as readonly unknown[]).includes((body as { action?: unknown }).action)

/** @example await appendCardAuctionAction({ params: { cardId }, body: { action: 'bid', amountPhiMicro: '2500000' }, principal, … }, deps) */
export const appendCardAuctionAction: UseCaseFor<'appendCardAuctionAction'> = async (request, deps) => {
  if (!namesKnownAction(request.body)) return E.left(invalidInput(`body.action must be one of ${ACTIONS.join(', ')}`))
  const decoded = MarketAction.decode(request.body)
  if (E.isLeft(decoded)) return E.left(invalidInput(`body (the ${(request.body as { action: string }).action} action): ${formatDecodeErrors(decoded.left, 'body')}`))
  if (request.principal.kind !== 'session') return E.left(unauthenticated('Market actions are taken by a signed-in user (a session cookie)'))
  const userId = request.principal.userId
  const { cardId } = request.params
  const held = await loadHeldCard(deps, cardId)
  if (!held) return E.left(unknownCard(cardId))
  const action = decoded.right
  switch (action.action) {
    case 'open':
    case 'list': return openMarket(deps, held, userId, action)
    case 'cancel': return cancelMarket(deps, held, userId)
    case 'bid': return placeBid(deps, cardId, userId, action.amountPhiMicro, action.requestId)
    case 'buy': return buyCard(deps, cardId, userId, action.pricePhiMicro)
    case 'settle': return settleAuction(deps, cardId)
  }
}
