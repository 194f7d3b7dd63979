/**
 * Card battles through the full pipeline: commit–reveal fights anyone can replay, fun, XP, money
 * and card stakes (money escrowed through the ledger and paid out exactly once, cards handed to the
 * winner), Twin defense, queues, refusals that write nothing, and racing accepts.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { bodyOf, type SignedIn } from '../../../hosts/http/oidc-test-support.js'
import { createRuntimeTestWorld, type RuntimeTestWorld } from '../../../hosts/http/runtime-test-support.js'
import { replayBattle } from '../../signal/engine.js'
import { LOG_LEAF_STREAM } from '../../tlog/sequence.js'
import { collections } from '../../usecases/collections.js'
import { battleEscrowAccount, loadAccount, walletAccount } from '../../value/accounts.js'
import { issueValue, trialBalance } from '../../value/index.js'
import { recordOwnedCard } from '../../../conformance/support/signal-cards-test-support.js'
import { CARD_HOLDINGS } from '../holdings.js'
import { CARD_BATTLES } from './battle-records.js'
import { BATTLE_LEAF_KIND } from './battle-ending.js'
import { battleIdOf, battleSeedOf, commitmentOf } from './battle-rules.js'

let runtime: RuntimeTestWorld
let sam: SignedIn
let bea: SignedIn
let samCard: { cardId: string; claimHash: string }
let beaCard: { cardId: string; claimHash: string }
const SAM_SEED = 'sam-secret-seed-00000001'
const BEA_SEED = 'bea-answer-seed-00000001'
let requests = 0

beforeEach(async () => {
  runtime = await createRuntimeTestWorld()
  await runtime.deps.store.declare(collections)
  ;[sam, bea] = [await runtime.world.signIn('sam'), await runtime.world.signIn('bea')]
  for (const user of [sam, bea]) {
    const funded = await issueValue(runtime.deps, { userId: user.userId, unit: 'phi', amount: '5000', idempotencyKey: `fund-${user.userId}` })
    if (E.isLeft(funded)) throw new Error('funding failed')
  }
  samCard = await recordOwnedCard(runtime, sam, 11)
  beaCard = await recordOwnedCard(runtime, bea, 12)
})

type Battle = { battleId: string; status: string; outcome: { winner: string; exchanges: number; forfeit: boolean } | null; replay: { seed: string } | null; acceptedBy: string | null; payouts: { paid: boolean }[] }
const as = (who: SignedIn | null) => (who ? { credentials: { sessionCookie: who.cookie } } : {})
/** The challenger's commitment to `seed`, bound to the battle `requestId` names and to the challenger. */
const committed = (who: SignedIn | null, requestId: string, seed = SAM_SEED) => commitmentOf({ battleId: battleIdOf(who?.userId ?? 'nobody', requestId), challengerUserId: who?.userId ?? 'nobody', seed })
const request = (who: SignedIn | null, body: Record<string, unknown>, seed = SAM_SEED) => {
  const requestId = typeof body['requestId'] === 'string' ? body['requestId'] : `r-${++requests}`
  return runtime.call('createBattleRequest', { body: { challengerCardId: samCard.cardId, opponentCardId: beaCard.cardId, stake: 'fun', requestId, seedCommitment: committed(who, requestId, seed), ...body }, ...as(who) })
}
const answer = (who: SignedIn | null, body: Record<string, unknown>) => runtime.call('answerBattleRequest', { body, ...as(who) })
const battleOf = (reply: Awaited<ReturnType<typeof answer>>) => bodyOf<{ battle: Battle }>(reply).battle
const tagOf = (reply: Awaited<ReturnType<typeof answer>>) => (E.isLeft(reply) ? reply.left._tag : 'ok')
const balance = async (account: string) => (await loadAccount(runtime.deps, 'phi', account)).balance
const snapshot = async () => JSON.stringify([
  (await runtime.deps.store.query(CARD_BATTLES, { index: 'by_challenger', limit: 100 })).items,
  await runtime.deps.store.get(CARD_HOLDINGS, samCard.cardId), await runtime.deps.store.get(CARD_HOLDINGS, beaCard.cardId),
  (await trialBalance(runtime.deps)).accounts, (await runtime.deps.store.streamHead(LOG_LEAF_STREAM))?.sequence,
])

/** Requests, accepts and reveals a battle at `stake`, answering the settled battle. */
async function fight(stake: string, extra: Record<string, unknown> = {}): Promise<Battle> {
  const { battleId } = battleOf(await request(sam, { stake, ...extra }))
  expect(battleOf(await answer(bea, { battleId, action: 'accept', seed: BEA_SEED })).status).toBe('accepted')
  return battleOf(await answer(sam, { battleId, action: 'reveal', seed: SAM_SEED }))
}

describe('a battle', () => {
  it('is fought from both seeds, and anyone replays it from the log leaf', async () => {
    const { battleId } = battleOf(await request(sam, {}))
    const queues = bodyOf<{ incoming: { battleId: string }[] }>(await runtime.call('listBattleRequests', as(bea)))
    expect(queues.incoming.map((battle) => battle.battleId)).toEqual([battleId])
    await answer(bea, { battleId, action: 'accept', seed: BEA_SEED })

    const before = await snapshot()
    expect(tagOf(await answer(sam, { battleId, action: 'reveal', seed: 'not-the-committed-seed' }))).toBe('Unprocessable')
    expect(tagOf(await answer(bea, { battleId, action: 'reveal', seed: SAM_SEED }))).toBe('Forbidden')
    expect(tagOf(await answer(bea, { battleId, action: 'claim' }))).toBe('Conflict') // the challenger may still reveal
    expect(await snapshot()).toBe(before)

    const settled = battleOf(await answer(sam, { battleId, action: 'reveal', seed: SAM_SEED }))
    const replayed = replayBattle(samCard.claimHash, beaCard.claimHash, battleSeedOf(battleId, SAM_SEED, BEA_SEED))
    expect(settled.replay?.seed).toBe(battleSeedOf(battleId, SAM_SEED, BEA_SEED))
    expect(settled.outcome).toMatchObject({ winner: { a: 'challenger', b: 'opponent', draw: 'draw' }[replayed.winner], exchanges: replayed.exchanges, forfeit: false })
    const leaves = (await runtime.deps.store.readStream(LOG_LEAF_STREAM, { limit: 1000 })).items.map((item) => item.value as Record<string, unknown>)
    expect(leaves.find((leaf) => leaf.kind === BATTLE_LEAF_KIND)).toMatchObject({ battleId, challengerSeed: SAM_SEED, opponentSeed: BEA_SEED, challengerClaimHash: samCard.claimHash })
    const recent = bodyOf<{ recent: { battleId: string }[]; tally: { battles: number; xp: number } }>(await runtime.call('listBattleRequests', as(sam)))
    expect(recent.recent.map((battle) => battle.battleId)).toEqual([battleId])
    expect(recent.tally).toMatchObject({ battles: 1, xp: 0 }) // a fun battle earns no XP
  })

  it('escrows both money stakes and pays the winner both, exactly once', async () => {
    const settled = await fight('money', { stakePhiMicro: '1000' })
    expect(settled.status).toBe('settled')
    expect(settled.payouts.every((payout) => payout.paid)).toBe(true)
    expect(await balance(battleEscrowAccount(settled.battleId))).toBe(0n)
    const balances = [await balance(walletAccount(sam.userId)), await balance(walletAccount(bea.userId))]
    const expected = { challenger: [6000n, 4000n], opponent: [4000n, 6000n], draw: [5000n, 5000n] }[settled.outcome!.winner as 'challenger']
    expect(balances).toEqual(expected)
    expect(bodyOf<{ battle: Battle }>(await answer(bea, { battleId: settled.battleId, action: 'settle' })).battle.payouts.length).toBe(settled.payouts.length)
    expect(await balance(walletAccount(sam.userId)) + await balance(walletAccount(bea.userId))).toBe(10000n)
    expect((await trialBalance(runtime.deps)).sums.phi).toBe(0n)
  })

  it('hands the loser\'s card to the winner in a card battle, and locks both cards meanwhile', async () => {
    const { battleId } = battleOf(await request(sam, { stake: 'card' }))
    await answer(bea, { battleId, action: 'accept', seed: BEA_SEED })
    const list = (who: SignedIn, cardId: string) => runtime.call('appendCardAuctionAction', { params: { cardId }, body: { action: 'list', pricePhiMicro: '10' }, ...as(who) })
    expect(tagOf(await list(sam, samCard.cardId))).toBe('Conflict')
    expect(tagOf(await list(bea, beaCard.cardId))).toBe('Conflict')
    const settled = battleOf(await answer(sam, { battleId, action: 'reveal', seed: SAM_SEED }))
    const owners = await Promise.all([samCard, beaCard].map(async (card) => bodyOf<{ owner: { username: string; via: string } }>(await runtime.call('getCardPurchase', { params: { cardId: card.cardId } })).owner))
    const winner = settled.outcome!.winner
    if (winner === 'draw') expect(owners.map((owner) => owner.username)).toEqual(['sam', 'bea'])
    else expect(owners.map((owner) => owner.username)).toEqual(winner === 'challenger' ? ['sam', 'sam'] : ['bea', 'bea'])
    expect(tagOf(await list(winner === 'opponent' ? bea : sam, samCard.cardId))).toBe('ok') // unlocked
  })

  it('awards XP in an XP battle and lets the opponent claim a battle never revealed', async () => {
    const { battleId } = battleOf(await request(sam, { stake: 'xp' }))
    await answer(bea, { battleId, action: 'accept', seed: BEA_SEED })
    runtime.world.clock.advance(24 * 3600 * 1000)
    expect(tagOf(await answer(sam, { battleId, action: 'reveal', seed: SAM_SEED }))).toBe('Conflict') // too late
    const claimed = battleOf(await answer(bea, { battleId, action: 'claim' }))
    expect(claimed.outcome).toMatchObject({ winner: 'opponent', forfeit: true })
    const tally = async (who: SignedIn) => bodyOf<{ tally: { xp: number; wins: number; losses: number } }>(await runtime.call('listBattleRequests', as(who))).tally
    expect(await tally(bea)).toMatchObject({ xp: 10, wins: 1 })
    expect(await tally(sam)).toMatchObject({ xp: 2, losses: 1 })
  })

  it('returns the challenger\'s stake when declined or cancelled', async () => {
    const first = battleOf(await request(sam, { stake: 'money', stakePhiMicro: '700' }))
    expect(await balance(battleEscrowAccount(first.battleId))).toBe(700n)
    expect(tagOf(await answer(sam, { battleId: first.battleId, action: 'decline' }))).toBe('Forbidden')
    expect(battleOf(await answer(bea, { battleId: first.battleId, action: 'decline' })).status).toBe('declined')
    const second = battleOf(await request(sam, { stake: 'money', stakePhiMicro: '300' }))
    expect(battleOf(await answer(sam, { battleId: second.battleId, action: 'cancel' })).status).toBe('cancelled')
    expect(tagOf(await answer(bea, { battleId: second.battleId, action: 'accept', seed: BEA_SEED }))).toBe('Conflict')
    expect(await balance(walletAccount(sam.userId))).toBe(5000n)
    expect((await trialBalance(runtime.deps)).sums.phi).toBe(0n)
  })

  it('is accepted by the defending Twin for fun and XP, never for money', async () => {
    expect(tagOf(await runtime.call('saveBattleSettings', { body: { cardId: beaCard.cardId, twinDefense: true }, ...as(sam) }))).toBe('Forbidden')
    expect(bodyOf(await runtime.call('saveBattleSettings', { body: { cardId: beaCard.cardId, twinDefense: true }, ...as(bea) }))).toEqual({ ok: true, cardId: beaCard.cardId, twinDefense: true })
    const fun = battleOf(await request(sam, { stake: 'xp' }))
    expect(fun).toMatchObject({ status: 'accepted', acceptedBy: 'twin' })
    expect(battleOf(await answer(sam, { battleId: fun.battleId, action: 'reveal', seed: SAM_SEED })).status).toBe('settled')
    expect(battleOf(await request(sam, { stake: 'money', stakePhiMicro: '10' }, 'sam-second-seed-00000001')).status).toBe('pending')
  })
})

describe('refusals and races', () => {
  it('refuses bad requests with a clear 4XX, writing nothing', async () => {
    const samOther = await recordOwnedCard(runtime, sam, 13)
    const unowned = await recordOwnedCard(runtime, null, 14)
    const before = await snapshot()
    const cases: [Record<string, unknown>, SignedIn | null, string][] = [
      [{ opponentCardId: samOther.cardId }, sam, 'Unprocessable'], // a battle with oneself
      [{ opponentCardId: 'card_unknown' }, sam, 'NotFound'],
      [{ opponentCardId: unowned.cardId }, sam, 'Unprocessable'],
      [{ challengerCardId: beaCard.cardId }, sam, 'Forbidden'], // not sam's card
      [{ seedCommitment: 'abc' }, sam, 'InvalidInput'],
      [{ stake: 'money' }, sam, 'InvalidInput'], // no stake amount
      [{ stake: 'fun', stakePhiMicro: '10' }, sam, 'InvalidInput'],
      [{ stake: 'money', stakePhiMicro: '5001' }, sam, 'Unprocessable'], // beyond the balance
      [{ stake: 'glory' }, sam, 'InvalidInput'],
      [{}, null, 'Unauthenticated'],
    ]
    for (const [body, who, tag] of cases) expect([body, tagOf(await request(who, body))]).toEqual([body, tag])
    const { battleId } = battleOf(await request(sam, { requestId: 'r-1' }))
    expect(bodyOf(await request(sam, { requestId: 'r-1' }))).toMatchObject({ replayed: true, battle: { battleId } })
    const mid = await snapshot()
    expect(tagOf(await answer(bea, { battleId, action: 'accept' }))).toBe('InvalidInput') // no seed
    expect(tagOf(await answer(bea, { battleId, action: 'accept', seed: 'short' }))).toBe('InvalidInput')
    expect(tagOf(await answer(sam, { battleId, action: 'accept', seed: BEA_SEED }))).toBe('Forbidden')
    expect(tagOf(await answer(bea, { battleId: 'btl_unknown', action: 'accept', seed: BEA_SEED }))).toBe('NotFound')
    expect(tagOf(await answer(bea, { battleId, action: 'reveal', seed: SAM_SEED }))).toBe('Forbidden')
    expect(await snapshot()).toBe(mid)
    expect(before).not.toBe(mid)
  })

  it('binds the commitment to its battle and challenger: a revealed seed cannot be reused, a commitment copied wins nothing', async () => {
    const first = await fight('fun') // both seeds are public from now on: in the view, the replay and the log leaf
    const { createHash } = await import('node:crypto')
    const unbound = createHash('sha256').update(`signal-circuit/battle-commit\u0000${SAM_SEED}`).digest('hex')
    // One seed gives unrelated commitments in two battles, and neither is the seed's bare hash.
    expect(new Set([committed(sam, 'r-a'), committed(sam, 'r-b'), committed(bea, 'r-a'), unbound]).size).toBe(4)
    const before = await snapshot()
    // Sam (or Bea, with her answer's seed) commits to a seed already revealed: refused before anything is at stake.
    expect(await request(sam, {})).toEqual(E.left(expect.objectContaining({ _tag: 'Unprocessable', message: expect.stringContaining(`already revealed in battle ${first.battleId}`) })))
    const beaReuse = await runtime.call('createBattleRequest', { body: { challengerCardId: beaCard.cardId, opponentCardId: samCard.cardId, stake: 'fun', requestId: 'r-bea', seedCommitment: committed(bea, 'r-bea', BEA_SEED) }, ...as(bea) })
    expect(beaReuse).toEqual(E.left(expect.objectContaining({ _tag: 'Unprocessable' })))
    expect(await snapshot()).toBe(before)
    // A commitment copied from the fought battle into a new one cannot be revealed: it names the old battle.
    const firstView = bodyOf<{ recent: (Battle & { seedCommitment: string })[] }>(await runtime.call('listBattleRequests', as(sam))).recent.find((b) => b.battleId === first.battleId)!
    const copied = battleOf(await request(sam, { seedCommitment: firstView.seedCommitment }))
    await answer(bea, { battleId: copied.battleId, action: 'accept', seed: 'bea-fresh-seed-000000001' })
    const accepted = await snapshot()
    expect(tagOf(await answer(sam, { battleId: copied.battleId, action: 'reveal', seed: SAM_SEED }))).toBe('Unprocessable')
    // Bea challenges with a commitment Sam made for the same request id: it names Sam, not her.
    const beaRequestId = 'r-copied'
    const fresh = 'sam-fresh-seed-000000001'
    const beaBattle = battleOf(await runtime.call('createBattleRequest', { body: { challengerCardId: beaCard.cardId, opponentCardId: samCard.cardId, stake: 'fun', requestId: beaRequestId, seedCommitment: committed(sam, beaRequestId, fresh) }, ...as(bea) }))
    await answer(sam, { battleId: beaBattle.battleId, action: 'accept', seed: 'sam-answer-seed-00000001' })
    const mid = await snapshot()
    expect(tagOf(await answer(bea, { battleId: beaBattle.battleId, action: 'reveal', seed: fresh }))).toBe('Unprocessable')
    expect(await snapshot()).toBe(mid)
    expect(accepted).not.toBe(mid)
  })

  it('requires seeds of at least 128 bits at accept and reveal, and a requestId naming the battle, writing nothing', async () => {
    const { battleId } = battleOf(await request(sam, {}))
    const before = await snapshot()
    const short = 'a'.repeat(21) // 126 bits at most
    expect(await answer(bea, { battleId, action: 'accept', seed: short })).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput', message: expect.stringContaining('128 bits') })))
    expect(await runtime.call('createBattleRequest', { body: { challengerCardId: samCard.cardId, opponentCardId: beaCard.cardId, stake: 'fun', seedCommitment: committed(sam, 'r-x') }, ...as(sam) }))
      .toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput', message: expect.stringContaining('requestId') })))
    expect(await snapshot()).toBe(before)
    await answer(bea, { battleId, action: 'accept', seed: BEA_SEED })
    const accepted = await snapshot()
    expect(tagOf(await answer(sam, { battleId, action: 'reveal', seed: short }))).toBe('InvalidInput')
    expect(await snapshot()).toBe(accepted)
  })

  it('two racing accepts: exactly one lands, and value is conserved', async () => {
    const { battleId } = battleOf(await request(sam, { stake: 'money', stakePhiMicro: '1000' }))
    const accepts = await Promise.all([answer(bea, { battleId, action: 'accept', seed: BEA_SEED }), answer(bea, { battleId, action: 'accept', seed: `${BEA_SEED}-2` })])
    expect(accepts.map(tagOf).sort()).toEqual(['Conflict', 'ok'])
    expect(await balance(battleEscrowAccount(battleId))).toBe(2000n)
    expect(await balance(walletAccount(bea.userId))).toBe(4000n)
    expect((await trialBalance(runtime.deps)).sums.phi).toBe(0n)
  })
})
