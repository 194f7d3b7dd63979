/**
 * Where a card changes hands: a buyer accepting the listed price (a sale, or an auction's buy-now
 * before its close), or the settlement of a closed auction. Value moves through the ledger (buyer's
 * wallet to seller's wallet, published in the wallet ledger) in the same commit that marks the
 * market sold and hands the card to the buyer; the market's version guards that commit, so a
 * market settles exactly once however many buyers or settlers race. An auction settles to the
 * highest bid whose bidder can still pay: higher bidders who no longer can are passed over, by
 * name, in the settlement; when nobody can pay, or nobody bid, the auction ends unsold.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Json } from '../../../ports/store.js'
import { conflict, forbidden, invalidInput, unprocessable, type DomainError } from '../../errors/domain-error.js'
import { commitWithLeaves } from '../../tlog/sequence.js'
import { json, type CoreDeps } from '../../usecases/use-case.js'
import { loadAccount, walletAccount } from '../../value/accounts.js'
import { fromDecimal, parseMinorUnits, toDecimal } from '../../value/amount.js'
import { executeMovement, type MovementPlan } from '../../value/movement.js'
import { pseudonymKey, walletPseudonym } from '../../value/pseudonym.js'
import { holdingWrite, loadHeldCard, type HeldCard } from '../holdings.js'
import { marketWrite, SALE_LEAF_KIND, type Bid, type LoadedMarket, type MarketRecord } from './market-records.js'
import type { MarketReply } from './market-records.js'
import { loadMarkets, phaseOf, publicMarket } from './market-view.js'

const ATTEMPTS = 16

interface Sale {
  readonly held: HeldCard
  readonly market: LoadedMarket
  readonly buyerUserId: string
  readonly buyer: string
  readonly amount: bigint
  readonly via: 'buy' | 'auction'
  readonly passedOverBidIds: readonly string[]
  readonly nowMs: number
}

/** The movement of one sale, with the market sold and the card handed over in the same commit. */
function salePlan(sale: Sale): MovementPlan {
  const { held, market, nowMs } = sale
  const cardId = market.record.cardId
  const sold = (entryId: string): MarketRecord => ({
    ...market.record, status: 'sold', endedAtMs: nowMs,
    settlement: { buyerUserId: sale.buyerUserId, buyer: sale.buyer, amountPhiMicro: toDecimal(sale.amount), entryId, via: sale.via, atMs: nowMs, passedOverBidIds: sale.passedOverBidIds },
  })
  return {
    kind: 'card_sale', unit: 'phi', amount: sale.amount, debit: walletAccount(sale.buyerUserId), credit: walletAccount(market.record.sellerUserId),
    actorUserId: sale.buyerUserId, memo: `card ${cardId} (${sale.via === 'buy' ? 'bought at the listed price' : 'auction settled'})`,
    publish: { kind: 'transfer', fromUserId: sale.buyerUserId, toUserId: market.record.sellerUserId },
    leaves: [{ kind: SALE_LEAF_KIND, marketId: market.record.marketId, cardId, buyer: sale.buyer, seller: market.record.seller, amountPhiMicro: toDecimal(sale.amount), via: sale.via }],
    alsoWrite: (entry) => [
      marketWrite(market, sold(entry.entryId)),
      holdingWrite(held, { cardId, ownerUserId: sale.buyerUserId, sinceMs: nowMs, via: sale.via === 'buy' ? 'sale' : 'auction', lock: null, twinDefense: false }),
    ],
    reply: ({ entry }) => ({ ok: true, market: publicMarket(sold(entry.entryId), nowMs), cardId, entryId: entry.entryId }),
  }
}

/** The open market of a card and its holding, refusing a card whose holder is not the seller any more. */
async function loadOpenMarket(deps: CoreDeps, cardId: string): Promise<Either<DomainError, { held: HeldCard; market: LoadedMarket }>> {
  const [held, [market]] = await Promise.all([loadHeldCard(deps, cardId), loadMarkets(deps, cardId, 1)])
  if (!held || market === undefined || market.record.status !== 'open') return E.left(conflict('The card is not on sale or at auction'))
  const lock = held.holding?.lock
  if (lock?.kind !== 'market' || lock.id !== market.record.marketId) return E.left(conflict('The card is not held for this market any more'))
  return E.right({ held, market })
}

async function movementReply(deps: CoreDeps, plan: () => Promise<Either<DomainError, MovementPlan>>): Promise<Either<DomainError, MarketReply | 'refused'>> {
  const result = await executeMovement(deps, { plan })
  if (E.isLeft(result)) return result
  if (result.right._tag === 'committed') return E.right(json(result.right.reply as { readonly ok: true }))
  return E.right('refused')
}

export async function buyCard(deps: CoreDeps, cardId: string, buyerUserId: string, priceText: string): Promise<Either<DomainError, MarketReply>> {
  const price = parseMinorUnits(priceText, 'phi')
  if (!price.ok) return E.left(invalidInput(`body.pricePhiMicro: ${price.error}`))
  const buyer = walletPseudonym(await pseudonymKey(deps), buyerUserId)
  const answered = await movementReply(deps, async () => {
    const now = deps.clock.now()
    const open = await loadOpenMarket(deps, cardId)
    if (E.isLeft(open)) return open
    const { market } = open.right
    if (market.record.pricePhiMicro === null || phaseOf(market.record, now) !== 'open') return E.left(conflict('The card has no price a buyer can accept now'))
    if (market.record.sellerUserId === buyerUserId) return E.left(forbidden('The seller may not buy their own card'))
    if (fromDecimal(market.record.pricePhiMicro) !== price.amount) return E.left(conflict(`The price is ${market.record.pricePhiMicro} µΦ now, not the price you accepted; nothing was bought`))
    return E.right(salePlan({ ...open.right, buyerUserId, buyer, amount: price.amount, via: 'buy', passedOverBidIds: [], nowMs: now }))
  })
  if (E.isLeft(answered)) return answered
  if (answered.right === 'refused') return E.left(unprocessable('Your Φ balance is lower than the price; nothing was bought'))
  return E.right(answered.right)
}

/** The bids to try, best first: each bidder's highest bid only. */
function candidates(bids: readonly Bid[]): readonly Bid[] {
  const seen = new Set<string>()
  return [...bids].reverse().filter((bid) => !seen.has(bid.bidderUserId) && seen.add(bid.bidderUserId) !== undefined)
}

export async function settleAuction(deps: CoreDeps, cardId: string): Promise<Either<DomainError, MarketReply>> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let nobodyPays = false
    const answered = await movementReply(deps, async () => {
      const now = deps.clock.now()
      const open = await loadOpenMarket(deps, cardId)
      if (E.isLeft(open)) return open
      const { market } = open.right
      if (market.record.kind !== 'auction' || phaseOf(market.record, now) !== 'closed') return E.left(conflict('Only an auction past its close is settled'))
      const passedOver: string[] = []
      for (const bid of candidates(market.record.bids)) {
        const account = await loadAccount(deps, 'phi', walletAccount(bid.bidderUserId))
        const amount = fromDecimal(bid.amountPhiMicro)
        if (account.balance >= amount) return E.right(salePlan({ ...open.right, buyerUserId: bid.bidderUserId, buyer: bid.bidder, amount, via: 'auction', passedOverBidIds: passedOver, nowMs: now }))
        passedOver.push(bid.bidId)
      }
      nobodyPays = true
      return E.left(conflict('nobody can pay'))
    })
    if (nobodyPays) return endUnsold(deps, cardId)
    if (E.isLeft(answered)) return answered
    if (answered.right !== 'refused') return E.right(answered.right)
    // The chosen bidder's balance fell between the choice and the commit: choose again.
  }
  return E.left(conflict('The auction could not be settled at this moment; nothing was moved, try again'))
}

async function endUnsold(deps: CoreDeps, cardId: string): Promise<Either<DomainError, MarketReply>> {
  const open = await loadOpenMarket(deps, cardId)
  if (E.isLeft(open)) return open
  const { held, market } = open.right
  const now = deps.clock.now()
  const ended: MarketRecord = { ...market.record, status: 'unsold', endedAtMs: now }
  const writes = [marketWrite(market, ended), ...(held.holding ? [holdingWrite(held, { ...held.holding, lock: null })] : [])]
  const { outcome } = await commitWithLeaves(deps, writes, [], { actions: [{ kind: 'record', action: 'card_auction_unsold', actorUserId: null }] })
  if (!outcome.ok) return E.left(conflict('The auction changed while it was being settled; nothing was written, try again'))
  return E.right(json({ ok: true, market: publicMarket(ended, now), cardId, entryId: null }))
}
