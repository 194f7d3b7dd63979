/**
 * `GET …/cards/{cardId}/auction` and `GET …/cards/{cardId}/purchase`: a card's auction terms with
 * every bid, and the sale terms a buyer may accept now. Public reads: bidders and sellers appear by
 * their wallet-ledger pseudonyms, never by user id.
 */
import * as E from 'fp-ts/lib/Either.js'
import { getIdentity } from '../../identity/identities.js'
import { json, type CoreDeps, type UseCaseFor } from '../../usecases/use-case.js'
import { loadHeldCard, unknownCard, type HeldCard } from '../holdings.js'
import { loadMarkets, phaseOf, publicMarket } from './market-view.js'

/** @example await getCardAuction({ params: { cardId }, … }, deps) */
export const getCardAuction: UseCaseFor<'getCardAuction'> = async (request, deps) => {
  const held = await loadHeldCard(deps, request.params.cardId)
  if (!held) return E.left(unknownCard(request.params.cardId))
  const now = deps.clock.now()
  const auctions = (await loadMarkets(deps, held.card.cardId)).filter((market) => market.record.kind === 'auction')
  const [current, ...earlier] = auctions.map((market) => publicMarket(market.record, now))
  return E.right(json({ ok: true, cardId: held.card.cardId, owner: await ownerOf(deps, held), auction: current ?? null, earlierAuctions: earlier }, { 'cache-control': 'no-store' }))
}

/** @example await getCardPurchase({ params: { cardId }, … }, deps) */
export const getCardPurchase: UseCaseFor<'getCardPurchase'> = async (request, deps) => {
  const held = await loadHeldCard(deps, request.params.cardId)
  if (!held) return E.left(unknownCard(request.params.cardId))
  const now = deps.clock.now()
  const [latest] = await loadMarkets(deps, held.card.cardId, 1)
  const buyable = latest !== undefined && phaseOf(latest.record, now) === 'open' && latest.record.pricePhiMicro !== null
  const sale = buyable ? publicMarket(latest.record, now) : null
  return E.right(json({ ok: true, cardId: held.card.cardId, owner: await ownerOf(deps, held), forSale: sale !== null, sale }, { 'cache-control': 'no-store' }))
}

/** The holder's public username, or null when the card has no verified owner. */
async function ownerOf(deps: Pick<CoreDeps, 'store'>, held: HeldCard) {
  if (held.holding === null) return null
  const identity = await getIdentity(deps, held.holding.ownerUserId)
  return { username: identity?.record.username ?? null, since: new Date(held.holding.sinceMs).toISOString(), via: held.holding.via }
}
