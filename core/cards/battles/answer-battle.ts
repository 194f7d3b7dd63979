/**
 * `PATCH …/cards/battle-request` (Session): one step of a battle, by the player whose turn it is.
 * The opponent `accept`s with a seed of their own (a money battle escrows their stake in the same
 * commit; a card battle locks their card) or `decline`s; the challenger may `cancel` a request not
 * yet accepted; the challenger `reveal`s the committed seed, which fights and settles the battle;
 * when the challenger does not reveal in time the opponent may `claim` it; `settle` pays what an
 * interrupted settlement still owes.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { BattleAnswer } from '../../contract/accepted-bodies.js'
import { formatDecodeErrors } from '../../errors/decode-errors.js'
import { conflict, forbidden, invalidInput, notFound, unauthenticated, unprocessable, type DomainError } from '../../errors/domain-error.js'
import { commitWithLeaves } from '../../tlog/sequence.js'
import { json, type CoreDeps, type UseCaseFor } from '../../usecases/use-case.js'
import { battleEscrowAccount, walletAccount } from '../../value/accounts.js'
import { fromDecimal } from '../../value/amount.js'
import { executeMovement } from '../../value/movement.js'
import { holdingWrite, loadHeldCard } from '../holdings.js'
import { battleWrite, loadBattle, type BattleRecord, type BattleReply, type LoadedBattle } from './battle-records.js'
import { endFought, endUnfought } from './battle-ending.js'
import { payPending } from './battle-payouts.js'
import { commitmentOf, foughtOutcome, forfeitOutcome, REVEAL_WITHIN_MS, SEED_PATTERN, SEED_RULE } from './battle-rules.js'
import { publicBattle } from './battle-view.js'

/** @example await answerBattleRequest({ body: { battleId, action: 'accept', seed }, principal, … }, deps) */
export const answerBattleRequest: UseCaseFor<'answerBattleRequest'> = async (request, deps) => {
  const decoded = BattleAnswer.decode(request.body)
  if (E.isLeft(decoded)) return E.left(invalidInput(formatDecodeErrors(decoded.left, 'body')))
  if (request.principal.kind !== 'session') return E.left(unauthenticated('Battles are answered by a signed-in user (a session cookie)'))
  const { battleId, action, seed } = decoded.right
  if ((action === 'accept' || action === 'reveal') && (seed === undefined || !SEED_PATTERN.test(seed))) {
    return E.left(invalidInput(`body.seed: ${SEED_RULE}`))
  }
  const userId = request.principal.userId
  const loaded = await loadBattle(deps, battleId)
  // Someone else's battle reads as no battle: its existence is the players' business.
  if (!loaded || (loaded.record.challengerUserId !== userId && loaded.record.opponentUserId !== userId)) return E.left(notFound(`No battle ${battleId} of yours`))
  const battle = loaded.record
  const isOpponent = battle.opponentUserId === userId
  const now = deps.clock.now()
  const ended = (result: Either<DomainError, BattleRecord>) => (E.isLeft(result) ? result : E.right(json({ ok: true, battle: publicBattle(result.right) }) as BattleReply))

  switch (action) {
    case 'accept':
      if (!isOpponent) return E.left(forbidden('Only the opponent accepts a battle'))
      if (battle.status !== 'pending') return E.left(conflict(`The battle is ${battle.status}, not pending`))
      if (now >= battle.respondByMs) return E.left(conflict('The request expired unanswered; the challenger may cancel it'))
      return accept(deps, loaded, seed!)
    case 'decline':
    case 'cancel': {
      if (action === 'decline' ? !isOpponent : battle.challengerUserId !== userId) return E.left(forbidden(action === 'decline' ? 'Only the opponent declines a battle' : 'Only the challenger cancels a request'))
      if (battle.status !== 'pending') return E.left(conflict(`The battle is ${battle.status}, not pending`))
      return ended(await endUnfought(deps, loaded, action === 'decline' ? 'declined' : 'cancelled', userId))
    }
    case 'reveal':
      if (battle.challengerUserId !== userId) return E.left(forbidden('Only the challenger reveals the committed seed'))
      if (battle.status !== 'accepted') return E.left(conflict(`The battle is ${battle.status}, not accepted`))
      if (now >= battle.revealByMs!) return E.left(conflict('The time to reveal has passed; the opponent may claim the battle'))
      if (commitmentOf({ battleId: battle.battleId, challengerUserId: battle.challengerUserId, seed: seed! }) !== battle.seedCommitment) return E.left(unprocessable('The seed does not match the commitment sent with the request (SHA-256 of this battle id, your user id and the seed); nothing was settled'))
      return ended(await endFought(deps, loaded, foughtOutcome(battle, seed!, battle.opponentSeed!), seed!))
    case 'claim':
      if (!isOpponent) return E.left(forbidden('Only the opponent claims a battle the challenger did not reveal'))
      if (battle.status !== 'accepted') return E.left(conflict(`The battle is ${battle.status}, not accepted`))
      if (now < battle.revealByMs!) return E.left(conflict(`The challenger may still reveal until ${new Date(battle.revealByMs!).toISOString()}`))
      return ended(await endFought(deps, loaded, forfeitOutcome, null))
    case 'settle':
      return ended(await payPending(deps, battleId))
  }
}

async function accept(deps: CoreDeps, loaded: LoadedBattle, seed: string): Promise<Either<DomainError, BattleReply>> {
  const battle = loaded.record
  const now = deps.clock.now()
  const accepted: BattleRecord = { ...battle, status: 'accepted', opponentSeed: seed, acceptedBy: 'owner', acceptedAtMs: now, revealByMs: now + REVEAL_WITHIN_MS }
  const writes = [battleWrite(loaded, accepted)]
  if (battle.stake === 'card') {
    const theirs = await loadHeldCard(deps, battle.opponent.cardId)
    if (theirs?.holding?.ownerUserId !== battle.opponentUserId) return E.left(conflict('Your card changed hands since the request; the battle cannot be accepted'))
    if (theirs.holding.lock !== null) return E.left(conflict('Your card is on the market or staked in another card battle'))
    writes.push(holdingWrite(theirs, { ...theirs.holding, lock: { kind: 'battle', id: battle.battleId } }))
  }
  const answer = E.right(json({ ok: true, battle: publicBattle(accepted) }) as BattleReply)
  if (battle.stake === 'money') {
    const moved = await executeMovement(deps, {
      plan: async () => {
        const fresh = await loadBattle(deps, battle.battleId)
        if (fresh?.version !== loaded.version) return E.left(conflict('The battle was answered meanwhile'))
        return E.right({
          kind: 'battle_stake', unit: 'phi', amount: fromDecimal(battle.stakePhiMicro!), debit: walletAccount(battle.opponentUserId), credit: battleEscrowAccount(battle.battleId),
          actorUserId: battle.opponentUserId, memo: `battle ${battle.battleId}: the opponent's stake`, alsoWrite: () => writes, reply: () => ({}),
        })
      },
    })
    if (E.isLeft(moved)) return moved
    if (moved.right._tag === 'Refusal') return E.left(unprocessable('Your Φ balance is lower than the stake; the battle was not accepted'))
    return answer
  }
  const { outcome } = await commitWithLeaves(deps, writes, [], { actions: [{ kind: 'record', action: 'card_battle_accepted', actorUserId: battle.opponentUserId }] })
  if (!outcome.ok) return E.left(conflict('The battle was answered meanwhile; nothing was written'))
  return answer
}
