/**
 * Ending a battle in one commit: the battle record with its outcome and the payouts it owes, both
 * players' tallies (XP in an XP battle), a card battle's loser's card handed to the winner (both
 * cards unlocked), and a `cairn.card_battle` transparency-log leaf with both seeds so anyone can
 * replay the fight. A refused or withdrawn battle ends the same way without a fight. The escrow is
 * paid out right after (battle-payouts.ts).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Write } from '../../../ports/store.js'
import { conflict, type DomainError } from '../../errors/domain-error.js'
import { commitWithLeaves } from '../../tlog/sequence.js'
import type { CoreDeps } from '../../usecases/use-case.js'
import { holdingWrite, loadHeldCard, type HeldCard } from '../holdings.js'
import { battleWrite, cardXp, type BattleOutcome, type BattleRecord, type LoadedBattle } from './battle-records.js'
import { payoutsOf, tallied } from './battle-rules.js'
import { payPending } from './battle-payouts.js'

export const BATTLE_LEAF_KIND = 'cairn.card_battle'

/** Unlocks a card this battle locked, or hands it to `newOwner`. */
function releaseCard(held: HeldCard | undefined, battleId: string, newOwner: string | null, nowMs: number): Write[] {
  const holding = held?.holding
  if (!held || !holding || holding.lock?.kind !== 'battle' || holding.lock.id !== battleId) return []
  return [holdingWrite(held, newOwner === null ? { ...holding, lock: null } : { cardId: holding.cardId, ownerUserId: newOwner, sinceMs: nowMs, via: 'battle', lock: null, twinDefense: false })]
}

async function tallyWrites(deps: CoreDeps, battle: BattleRecord, outcome: BattleOutcome): Promise<Write[]> {
  const result = (side: 'challenger' | 'opponent') => (outcome.winner === 'draw' ? 'draw' : outcome.winner === side ? 'win' : 'loss')
  const writes: Write[] = []
  for (const side of ['challenger', 'opponent'] as const) {
    const userId = side === 'challenger' ? battle.challengerUserId : battle.opponentUserId
    const prior = await cardXp.get(deps.store, userId)
    const next = tallied(prior?.value, userId, result(side), battle.stake === 'xp')
    writes.push(cardXp.put(userId, next, prior ? { kind: 'version', version: prior.version } : { kind: 'absent' }))
  }
  return writes
}

/** Ends a fought (or forfeited) battle. */
export async function endFought(deps: CoreDeps, loaded: LoadedBattle, outcome: BattleOutcome, challengerSeed: string | null): Promise<Either<DomainError, BattleRecord>> {
  const battle = loaded.record
  const now = deps.clock.now()
  const ended: BattleRecord = { ...battle, status: 'settled', challengerSeed, outcome, payouts: payoutsOf(battle, outcome.winner), endedAtMs: now }
  const writes: Write[] = [battleWrite(loaded, ended), ...(await tallyWrites(deps, battle, outcome))]
  if (battle.stake === 'card') {
    const [mine, theirs] = await Promise.all([loadHeldCard(deps, battle.challenger.cardId), loadHeldCard(deps, battle.opponent.cardId)])
    const winnerId = outcome.winner === 'draw' ? null : outcome.winner === 'challenger' ? battle.challengerUserId : battle.opponentUserId
    writes.push(...releaseCard(mine, battle.battleId, outcome.winner === 'opponent' ? winnerId : null, now))
    writes.push(...releaseCard(theirs, battle.battleId, outcome.winner === 'challenger' ? winnerId : null, now))
  }
  const leaf = {
    kind: BATTLE_LEAF_KIND, battleId: battle.battleId, stake: battle.stake, challengerClaimHash: battle.challenger.claimHash, opponentClaimHash: battle.opponent.claimHash,
    challengerSeed, opponentSeed: battle.opponentSeed, winner: outcome.winner, forfeit: outcome.forfeit,
  }
  const { outcome: committed } = await commitWithLeaves(deps, writes, [leaf], { actions: [{ kind: 'record', action: 'card_battle_settled', actorUserId: null }] })
  if (!committed.ok) return E.left(conflict('The battle changed while it was being settled; nothing was written, try again'))
  return payPending(deps, battle.battleId)
}

/** Ends a battle nobody fought: declined by the opponent or withdrawn by the challenger. */
export async function endUnfought(deps: CoreDeps, loaded: LoadedBattle, status: 'declined' | 'cancelled', actorUserId: string): Promise<Either<DomainError, BattleRecord>> {
  const battle = loaded.record
  const now = deps.clock.now()
  const ended: BattleRecord = { ...battle, status, payouts: payoutsOf(battle, 'refund'), endedAtMs: now }
  const writes: Write[] = [battleWrite(loaded, ended)]
  if (battle.stake === 'card') writes.push(...releaseCard(await loadHeldCard(deps, battle.challenger.cardId), battle.battleId, null, now))
  const { outcome } = await commitWithLeaves(deps, writes, [], { actions: [{ kind: 'record', action: `card_battle_${status}`, actorUserId }] })
  if (!outcome.ok) return E.left(conflict('The battle changed meanwhile; nothing was written, try again'))
  return payPending(deps, battle.battleId)
}
