/**
 * `POST …/cards/battle-request` (Session): the challenger asks the holder of another card to fight,
 * staking nothing (fun), experience points, Φ (both stakes are escrowed through the ledger; the
 * challenger's in this same commit) or the cards themselves (both are locked until the battle
 * ends). The challenger sends only the commitment to a secret seed, bound to the battle id their
 * `requestId` names (battleIdOf) and to themselves. When the opponent's card is
 * defended by its owner's AI Twin, a fun or XP battle is accepted on the spot by the Twin.
 */
import * as E from 'fp-ts/lib/Either.js'
import { BattleRequest } from '../../contract/accepted-bodies.js'
import { toBase64Url } from '../../encoding/base64url.js'
import { formatDecodeErrors } from '../../errors/decode-errors.js'
import { conflict, invalidInput, unauthenticated, unprocessable, type DomainError } from '../../errors/domain-error.js'
import { commitWithLeaves } from '../../tlog/sequence.js'
import { json, type CoreDeps, type UseCaseFor } from '../../usecases/use-case.js'
import { battleEscrowAccount, walletAccount } from '../../value/accounts.js'
import { parseMinorUnits, toDecimal } from '../../value/amount.js'
import { executeMovement } from '../../value/movement.js'
import { holdingWrite, loadHeldCard, unknownCard, type HeldCard } from '../holdings.js'
import { ownerCheck } from '../market/market-listing.js'
import { cardBattles, loadBattle, newBattleWrite, type BattleRecord } from './battle-records.js'
import { battleIdOf, commitmentOf, RESPOND_WITHIN_MS, REVEAL_WITHIN_MS } from './battle-rules.js'
import { publicBattle } from './battle-view.js'

/** @example await createBattleRequest({ body: { challengerCardId, opponentCardId, stake: 'fun', requestId, seedCommitment: commitmentOf({ battleId: battleIdOf(userId, requestId), challengerUserId: userId, seed }) }, principal, … }, deps) */
export const createBattleRequest: UseCaseFor<'createBattleRequest'> = async (request, deps) => {
  const decoded = BattleRequest.decode(request.body)
  if (E.isLeft(decoded)) return E.left(invalidInput(formatDecodeErrors(decoded.left, 'body')))
  if (request.principal.kind !== 'session') return E.left(unauthenticated('Battles are requested by a signed-in user (a session cookie)'))
  const body = decoded.right
  const userId = request.principal.userId
  const stake = body.stake === 'money' ? parseMinorUnits(body.stakePhiMicro ?? '', 'phi') : null
  if (stake && !stake.ok) return E.left(invalidInput(`body.stakePhiMicro (a money battle's stake): ${stake.error}`))
  if (!stake && body.stakePhiMicro !== undefined) return E.left(invalidInput('body.stakePhiMicro belongs to money battles only'))
  // A retried request (same requestId) lands on the same battle id, so it is answered, not made twice.
  const battleId = battleIdOf(userId, body.requestId)
  const existing = await loadBattle(deps, battleId)
  if (existing) return E.right(json({ ok: true, replayed: true, battle: publicBattle(existing.record) }))

  const [mine, theirs] = await Promise.all([loadHeldCard(deps, body.challengerCardId), loadHeldCard(deps, body.opponentCardId)])
  if (!mine) return E.left(unknownCard(body.challengerCardId))
  if (!theirs) return E.left(unknownCard(body.opponentCardId))
  const refused = cornersRefusal(mine, theirs, userId, body.stake)
  if (refused) return E.left(refused)
  const reused = await revealedSeedBattle(deps, userId, battleId, body.seedCommitment)
  if (reused) return E.left(unprocessable(`seedCommitment commits to a seed you already revealed in battle ${reused}; seeds are public once fought, so commit to a fresh random seed. Nothing was requested`))
  const now = deps.clock.now()
  const twin = theirs.holding!.twinDefense && (body.stake === 'fun' || body.stake === 'xp')
  const battle: BattleRecord = {
    battleId, stake: body.stake, stakePhiMicro: stake?.ok ? toDecimal(stake.amount) : null, challengerUserId: userId, opponentUserId: theirs.holding!.ownerUserId,
    challenger: { userId, cardId: mine.card.cardId, claimHash: mine.card.claimHash },
    opponent: { userId: theirs.holding!.ownerUserId, cardId: theirs.card.cardId, claimHash: theirs.card.claimHash },
    seedCommitment: body.seedCommitment, challengerSeed: null, opponentSeed: twin ? toBase64Url(deps.entropy.bytes(32)) : null,
    status: twin ? 'accepted' : 'pending', acceptedBy: twin ? 'twin' : null, outcome: null, payouts: [],
    createdAtMs: now, respondByMs: now + RESPOND_WITHIN_MS, acceptedAtMs: twin ? now : null, revealByMs: twin ? now + REVEAL_WITHIN_MS : null, endedAtMs: null,
    requestId: body.requestId,
  }
  const writes = [newBattleWrite(battle), ...(battle.stake === 'card' ? [holdingWrite(mine, { ...mine.holding!, lock: { kind: 'battle' as const, id: battleId } })] : [])]
  const answer = () => E.right(json({ ok: true, battle: publicBattle(battle) }))

  if (stake?.ok) {
    const moved = await executeMovement(deps, {
      plan: async () => ((await deps.store.get(cardBattles.name, battleId)) ? E.left(conflict('This battle was requested already')) : E.right({
        kind: 'battle_stake', unit: 'phi', amount: stake.amount, debit: walletAccount(userId), credit: battleEscrowAccount(battleId), actorUserId: userId,
        memo: `battle ${battleId}: the challenger's stake`, alsoWrite: () => writes, reply: () => ({}),
      })),
    })
    if (E.isLeft(moved)) return moved
    if (moved.right._tag === 'Refusal') return E.left(unprocessable('Your Φ balance is lower than the stake; nothing was requested'))
    return answer()
  }
  const { outcome } = await commitWithLeaves(deps, writes, [], { actions: [{ kind: 'record', action: 'card_battle_requested', actorUserId: userId }] })
  if (!outcome.ok) return E.left(conflict('A card changed while the battle was being requested; nothing was written, try again'))
  return answer()
}

/** The newest battles of a player searched for seeds they revealed (as challenger or opponent). */
const REVEALED_SEED_SCAN = 500

/**
 * The battle in which this player already revealed the seed `commitment` binds, if any: every
 * fought battle publishes both seeds, so an opponent could test them against the commitment and
 * answer knowing the outcome. Refusing the request keeps a careless client from being exploited.
 */
async function revealedSeedBattle(deps: Pick<CoreDeps, 'store'>, userId: string, battleId: string, commitment: string): Promise<string | undefined> {
  const [asChallenger, asOpponent] = await Promise.all(['by_challenger', 'by_opponent'].map((index) => deps.store.query(cardBattles.name, { index, equals: [userId], order: 'desc', limit: REVEALED_SEED_SCAN })))
  for (const doc of [...asChallenger!.items, ...asOpponent!.items]) {
    const past = cardBattles.decode(doc)
    const seed = past.challengerUserId === userId ? past.challengerSeed : past.opponentSeed
    const revealed = past.challengerSeed !== null && past.opponentSeed !== null // both seeds are public once fought
    if (revealed && seed !== null && commitmentOf({ battleId, challengerUserId: userId, seed }) === commitment) return past.battleId
  }
  return undefined
}

/** Pure: may this user fight with `mine` against `theirs` at this stake? */
function cornersRefusal(mine: HeldCard, theirs: HeldCard, userId: string, stake: BattleRecord['stake']): DomainError | null {
  const owned = ownerCheck(mine, userId)
  if (E.isLeft(owned)) return owned.left
  if (theirs.holding === null) return unprocessable('The opponent\'s card has no verified owner to fight')
  if (theirs.holding.ownerUserId === userId) return unprocessable('A battle needs two players: both cards are yours')
  if (stake === 'card' && owned.right.lock !== null) return conflict('Your card is on the market or staked in another card battle')
  if (stake === 'card' && theirs.holding.lock !== null) return conflict('The opponent\'s card is on the market or staked in another card battle')
  return null
}
