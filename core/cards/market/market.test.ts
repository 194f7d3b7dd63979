/**
 * The card market through the full pipeline (sessions, decoding, use cases): fixed-price sales and
 * auctions, value moved through the ledger exactly once with the card handed over in the same
 * commit, every refusal answered with a clear 4XX that writes nothing, and races where exactly one
 * side wins with value conserved.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { bodyOf, type SignedIn } from '../../../hosts/http/oidc-test-support.js'
import { createRuntimeTestWorld, runtimeDeployment, type RuntimeTestWorld } from '../../../hosts/http/runtime-test-support.js'
import { LOG_LEAF_STREAM } from '../../tlog/sequence.js'
import { collections } from '../../usecases/collections.js'
import { issueValue, trialBalance } from '../../value/index.js'
import { loadAccount, PRODUCTION_USAGE, walletAccount } from '../../value/accounts.js'
import { executeMovement } from '../../value/movement.js'
import { recordOwnedCard } from '../../../conformance/support/signal-cards-test-support.js'
import { CARD_HOLDINGS } from '../holdings.js'
import { BID_LEAF_KIND, CARD_MARKETS } from './market-records.js'

let runtime: RuntimeTestWorld
let sam: SignedIn
let bea: SignedIn
let cy: SignedIn
let cardId: string

beforeEach(async () => {
  runtime = await createRuntimeTestWorld()
  await runtime.deps.store.declare(collections)
  ;[sam, bea, cy] = [await runtime.world.signIn('sam'), await runtime.world.signIn('bea'), await runtime.world.signIn('cy')]
  for (const [user, amount] of [[bea, '5000'], [cy, '3000']] as const) {
    const funded = await issueValue(runtime.deps, { userId: user.userId, unit: 'phi', amount, idempotencyKey: `fund-${user.userId}` })
    if (E.isLeft(funded)) throw new Error('funding failed')
  }
  cardId = (await recordOwnedCard(runtime, sam, 1)).cardId
})

const act = (who: SignedIn | null, body: unknown, id = cardId) =>
  runtime.call('appendCardAuctionAction', { params: { cardId: id }, body, ...(who ? { credentials: { sessionCookie: who.cookie } } : {}) })
const balance = async (who: SignedIn) => (await loadAccount(runtime.deps, 'phi', walletAccount(who.userId))).balance
const tagOf = (reply: Awaited<ReturnType<typeof act>>) => (E.isLeft(reply) ? reply.left._tag : 'ok')
const purchase = async () => bodyOf<{ forSale: boolean; owner: { username: string; via: string }; sale: { pricePhiMicro: string } | null }>(await runtime.call('getCardPurchase', { params: { cardId } }))
const auction = async () => bodyOf<{ auction: { phase: string; bids: { bidder: string; amountPhiMicro: string }[]; settlement: { amountPhiMicro: string; passedOverBidIds: string[] } | null; nextMinimumBidPhiMicro: string | null } | null }>(await runtime.call('getCardAuction', { params: { cardId } }))
const snapshot = async () => JSON.stringify([
  (await runtime.deps.store.query(CARD_MARKETS, { index: 'by_card', limit: 100 })).items,
  await runtime.deps.store.get(CARD_HOLDINGS, cardId),
  (await trialBalance(runtime.deps)).accounts,
  (await runtime.deps.store.streamHead(LOG_LEAF_STREAM))?.sequence,
])

describe('a fixed-price sale', () => {
  it('moves the price from buyer to seller and the card to the buyer in one commit, once', async () => {
    expect(await purchase()).toMatchObject({ forSale: false, owner: { username: 'sam', via: 'seal' }, sale: null })
    expect(tagOf(await act(sam, { action: 'list', pricePhiMicro: '1200' }))).toBe('ok')
    expect(await purchase()).toMatchObject({ forSale: true, sale: { pricePhiMicro: '1200' } })

    const before = await snapshot()
    expect(tagOf(await act(bea, { action: 'buy', pricePhiMicro: '1000' }))).toBe('Conflict') // not the listed price
    expect(tagOf(await act(sam, { action: 'buy', pricePhiMicro: '1200' }))).toBe('Forbidden')
    expect(tagOf(await act(cy, { action: 'list', pricePhiMicro: '10' }))).toBe('Forbidden')
    expect(await snapshot()).toBe(before)

    const bought = bodyOf<{ entryId: string; market: { phase: string; settlement: { via: string } } }>(await act(bea, { action: 'buy', pricePhiMicro: '1200' }))
    expect(bought.market).toMatchObject({ phase: 'sold', settlement: { via: 'buy' } })
    expect([await balance(sam), await balance(bea)]).toEqual([1200n, 3800n])
    expect(await purchase()).toMatchObject({ forSale: false, owner: { username: 'bea', via: 'sale' } })
    expect(tagOf(await act(cy, { action: 'buy', pricePhiMicro: '1200' }))).toBe('Conflict')
    expect(tagOf(await act(sam, { action: 'list', pricePhiMicro: '1' }))).toBe('Forbidden') // not sam's any more
    expect(tagOf(await act(bea, { action: 'list', pricePhiMicro: '9000' }))).toBe('ok')
    expect(tagOf(await act(cy, { action: 'buy', pricePhiMicro: '9000' }))).toBe('Unprocessable') // beyond cy's balance
    expect((await trialBalance(runtime.deps)).sums.phi).toBe(0n)
  })

  it('offers the newest listing when a card is sold and listed again within one millisecond, however the ids sort', async () => {
    // The test clock never moves: every market below opens in the same millisecond.
    let [holder, buyer] = [sam, bea]
    for (let round = 1; round <= 6; round++) {
      const price = String(200 - round) // each buyer was paid more in the round before
      expect(tagOf(await act(holder, { action: 'list', pricePhiMicro: price }))).toBe('ok')
      expect(await purchase()).toMatchObject({ forSale: true, sale: { pricePhiMicro: price } })
      expect(tagOf(await act(buyer, { action: 'buy', pricePhiMicro: price }))).toBe('ok')
      expect(await purchase()).toMatchObject({ forSale: false, owner: { username: buyer === sam ? 'sam' : 'bea' } })
      ;[holder, buyer] = [buyer, holder]
    }
    const opened = (await runtime.deps.store.query(CARD_MARKETS, { index: 'by_card', equals: [cardId], limit: 100 })).items.map((doc) => (doc.value as { openedAtMs: number }).openedAtMs)
    expect(opened).toEqual(opened.map((_, i) => opened[0]! + i))
  })

  it('lets the seller cancel, after which nobody can buy', async () => {
    await act(sam, { action: 'list', pricePhiMicro: '1200' })
    expect(tagOf(await act(bea, { action: 'cancel' }))).toBe('Forbidden')
    expect(tagOf(await act(sam, { action: 'cancel' }))).toBe('ok')
    expect(tagOf(await act(bea, { action: 'buy', pricePhiMicro: '1200' }))).toBe('Conflict')
    expect(tagOf(await act(sam, { action: 'list', pricePhiMicro: '800' }))).toBe('ok') // the card is free to list again
  })
})

describe('an auction', () => {
  it('takes verified bids until its close and settles to the highest bidder exactly once', async () => {
    const opened = bodyOf<{ market: { phase: string; minIncrementPhiMicro: string } }>(await act(sam, { action: 'open', startingBidPhiMicro: '100', durationSeconds: 3600 }))
    expect(opened.market).toMatchObject({ phase: 'open', minIncrementPhiMicro: '5' })
    expect(tagOf(await act(bea, { action: 'bid', amountPhiMicro: '99' }))).toBe('Unprocessable')
    const first = bodyOf<{ logLeafIndex: number }>(await act(bea, { action: 'bid', amountPhiMicro: '100' }))
    const leaves = (await runtime.deps.store.readStream(LOG_LEAF_STREAM, { limit: 1000 })).items
    expect(leaves[first.logLeafIndex]!.value).toMatchObject({ kind: BID_LEAF_KIND, amountPhiMicro: '100' })

    const before = await snapshot()
    expect(tagOf(await act(cy, { action: 'bid', amountPhiMicro: '104' }))).toBe('Unprocessable') // below 100 + 5
    expect(tagOf(await act(sam, { action: 'bid', amountPhiMicro: '500' }))).toBe('Forbidden')
    expect(tagOf(await act(cy, { action: 'bid', amountPhiMicro: '3001' }))).toBe('Unprocessable') // beyond the balance
    expect(tagOf(await act(sam, { action: 'cancel' }))).toBe('Conflict') // it has bids
    expect(tagOf(await act(cy, { action: 'settle' }))).toBe('Conflict') // not closed yet
    expect(tagOf(await act(null, { action: 'bid', amountPhiMicro: '200' }))).toBe('Unauthenticated')
    expect(tagOf(await act(cy, { action: 'bid', amountPhiMicro: '-5' }))).toBe('InvalidInput')
    const unknownAction = await act(cy, { action: 'auction' })
    expect(E.isLeft(unknownAction) && unknownAction.left.message).toBe('body.action must be one of open, list, cancel, bid, buy, settle')
    const missing = await act(cy, { action: 'open' })
    expect(E.isLeft(missing) && missing.left.message).toBe('body (the open action): body.startingBidPhiMicro is required; body.durationSeconds is required')
    expect(tagOf(await act(cy, { action: 'bid', amountPhiMicro: '200' }, 'card_unknown'))).toBe('NotFound')
    expect(await snapshot()).toBe(before)

    const placed = bodyOf<{ bid: { bidId: string } }>(await act(cy, { action: 'bid', amountPhiMicro: '200', requestId: 'cy-1' }))
    expect(bodyOf(await act(cy, { action: 'bid', amountPhiMicro: '200', requestId: 'cy-1' }))).toMatchObject({ replayed: true, bid: placed.bid })
    expect((await auction()).auction).toMatchObject({ phase: 'open', nextMinimumBidPhiMicro: '205' })
    runtime.world.clock.advance(3600 * 1000)
    expect(tagOf(await act(bea, { action: 'bid', amountPhiMicro: '900' }))).toBe('Conflict') // closed
    expect((await auction()).auction?.phase).toBe('closed')

    expect(tagOf(await act(bea, { action: 'settle' }))).toBe('ok')
    expect(tagOf(await act(bea, { action: 'settle' }))).toBe('Conflict')
    const read = (await auction()).auction!
    expect(read).toMatchObject({ phase: 'sold', settlement: { amountPhiMicro: '200', passedOverBidIds: [] } })
    expect(read.bids.map((bid) => bid.amountPhiMicro)).toEqual(['100', '200'])
    expect([await balance(sam), await balance(cy), await balance(bea)]).toEqual([200n, 2800n, 5000n])
    expect(await purchase()).toMatchObject({ owner: { username: 'cy', via: 'auction' } })
  })

  it('passes over a winner who can no longer pay, and ends unsold when nobody can', async () => {
    await act(sam, { action: 'open', startingBidPhiMicro: '1000', durationSeconds: 60 })
    await act(bea, { action: 'bid', amountPhiMicro: '1000' })
    const cyBid = bodyOf<{ bid: { bidId: string } }>(await act(cy, { action: 'bid', amountPhiMicro: '2500' }))
    // cy spends what the bid relied on before the close.
    await spend(cy, 2000n)
    runtime.world.clock.advance(60_000)
    expect(tagOf(await act(sam, { action: 'settle' }))).toBe('ok')
    expect((await auction()).auction).toMatchObject({ phase: 'sold', settlement: { amountPhiMicro: '1000', passedOverBidIds: [cyBid.bid.bidId] } })
    expect(await purchase()).toMatchObject({ owner: { username: 'bea' } })

    const other = (await recordOwnedCard(runtime, sam, 2)).cardId
    await act(sam, { action: 'open', startingBidPhiMicro: '10', durationSeconds: 60 }, other)
    runtime.world.clock.advance(60_000)
    const unsold = bodyOf<{ market: { phase: string } }>(await act(bea, { action: 'settle' }, other))
    expect(unsold.market.phase).toBe('unsold')
    expect(tagOf(await act(sam, { action: 'list', pricePhiMicro: '10' }, other))).toBe('ok') // unlocked again
    expect((await trialBalance(runtime.deps)).sums.phi).toBe(0n)
  })

  it('refuses a card sealed integrity-only (no verified owner) and bad terms, writing nothing', async () => {
    const anonymous = (await recordOwnedCard(runtime, null, 3)).cardId
    const before = await snapshot()
    expect(tagOf(await act(sam, { action: 'list', pricePhiMicro: '10' }, anonymous))).toBe('Unprocessable')
    expect(tagOf(await act(sam, { action: 'open', startingBidPhiMicro: '10', durationSeconds: 59 }))).toBe('InvalidInput')
    expect(tagOf(await act(sam, { action: 'open', startingBidPhiMicro: '10', durationSeconds: 60, buyNowPhiMicro: '10' }))).toBe('InvalidInput')
    expect(tagOf(await act(sam, { action: 'list', pricePhiMicro: '0' }))).toBe('InvalidInput')
    expect(await snapshot()).toBe(before)
    expect(tagOf(await act(sam, { action: 'list', pricePhiMicro: '10' }))).toBe('ok')
    expect(tagOf(await act(sam, { action: 'open', startingBidPhiMicro: '10', durationSeconds: 60 }))).toBe('Conflict') // already listed
  })

  it('opens auctions as short as the deployment\'s cards.auctionMinSeconds, and no shorter', async () => {
    runtime = await createRuntimeTestWorld({ deployment: { ...runtimeDeployment(), cards: { auctionMinSeconds: 5 } } })
    await runtime.deps.store.declare(collections)
    const owner = await runtime.world.signIn('sam')
    cardId = (await recordOwnedCard(runtime, owner, 4)).cardId
    const refused = await act(owner, { action: 'open', startingBidPhiMicro: '10', durationSeconds: 4 })
    expect(E.isLeft(refused) && refused.left.message).toBe('body.durationSeconds must be a whole number of seconds from 5 to 2592000')
    expect(tagOf(await act(owner, { action: 'open', startingBidPhiMicro: '10', durationSeconds: 5 }))).toBe('ok')
  })
})

describe('races', () => {
  it('two equal bids: exactly one lands; two buyers: exactly one buys and value is conserved', async () => {
    await act(sam, { action: 'open', startingBidPhiMicro: '100', durationSeconds: 600, buyNowPhiMicro: '2000' })
    const bids = await Promise.all([act(bea, { action: 'bid', amountPhiMicro: '150' }), act(cy, { action: 'bid', amountPhiMicro: '150' })])
    expect(bids.map(tagOf).sort()).toEqual(['Unprocessable', 'ok'])
    const buys = await Promise.all([act(bea, { action: 'buy', pricePhiMicro: '2000' }), act(cy, { action: 'buy', pricePhiMicro: '2000' })])
    expect(buys.map(tagOf).sort()).toEqual(['Conflict', 'ok'])
    expect((await balance(sam))).toBe(2000n)
    expect((await balance(bea)) + (await balance(cy))).toBe(6000n)
    expect((await trialBalance(runtime.deps)).sums.phi).toBe(0n)
  })
})

/** `who` pays `amount` µΦ to the deployment's usage account, as any other spending would. */
async function spend(who: SignedIn, amount: bigint): Promise<void> {
  const moved = await executeMovement(runtime.deps, {
    plan: async () => E.right({ kind: 'transfer', unit: 'phi', amount, debit: walletAccount(who.userId), credit: PRODUCTION_USAGE, actorUserId: who.userId, reply: () => ({}) }),
  })
  if (E.isLeft(moved) || moved.right._tag !== 'committed') throw new Error('the spend did not commit')
}
