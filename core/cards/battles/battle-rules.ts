/**
 * The pure rules of a card battle (docs/signal-circuit.md, "Battles"): the challenger commits to a
 * secret seed bound to this battle and to themselves, the opponent answers with a seed of their own
 * in the clear, the challenger reveals;
 * the battle seed joins both, so neither side chose the outcome, and anyone holding the two claim
 * hashes and the two seeds replays it with the Signal Circuit engine.
 */
import { createHash } from 'node:crypto'
import { toBase64Url } from '../../encoding/base64url.js'
import { replayBattle } from '../../signal/engine.js'
import type { BattleOutcome, BattleRecord, Payout, Winner, XpRecord } from './battle-records.js'
import { fromDecimal, toDecimal } from '../../value/amount.js'

/** A seed is 22 to 256 characters of unpadded base64url: room for at least 128 bits of the player's entropy. */
export const SEED_PATTERN = /^[A-Za-z0-9_-]{22,256}$/
export const SEED_RULE = 'a seed is 22 to 256 characters of unpadded base64url (at least 128 bits: 16 random bytes, base64url-encoded)'

/** A pending request may be answered for 7 days; an accepted battle must be revealed within 24 hours. */
export const RESPOND_WITHIN_MS = 7 * 24 * 3600 * 1000
export const REVEAL_WITHIN_MS = 24 * 3600 * 1000

/** Experience points of an XP battle. */
export const XP_AWARD = { win: 10, draw: 5, loss: 2 } as const

/**
 * The battle a challenger's `requestId` names: the challenger knows it before asking, so the
 * commitment can bind it, and a retried request lands on the same battle.
 *
 * @example battleIdOf('usr_sam', 'r-1') // 'btl_…' (22 characters of base64url)
 */
export const battleIdOf = (challengerUserId: string, requestId: string): string =>
  `btl_${toBase64Url(createHash('sha256').update(`${challengerUserId}\u0000${requestId}`).digest().subarray(0, 16))}`

/**
 * The challenger's commitment: SHA-256 of the battle, the challenger and the seed, so a commitment
 * is worth nothing in another battle or from another player, and one seed gives unrelated
 * commitments in two battles.
 *
 * @example commitmentOf({ battleId: battleIdOf('usr_sam', 'r-1'), challengerUserId: 'usr_sam', seed }) // 64 hex digits the challenger sends first
 */
export const commitmentOf = (bound: { readonly battleId: string; readonly challengerUserId: string; readonly seed: string }): string =>
  createHash('sha256').update(`signal-circuit/battle-commit\u0000${bound.battleId}\u0000${bound.challengerUserId}\u0000${bound.seed}`).digest('hex')

/** The seed the battle is fought with: the battle id and both players' seeds. */
export const battleSeedOf = (battleId: string, challengerSeed: string, opponentSeed: string): string => `${battleId}:${challengerSeed}:${opponentSeed}`

/** The outcome both seeds give (challenger is side a). */
export function foughtOutcome(battle: Pick<BattleRecord, 'battleId' | 'challenger' | 'opponent'>, challengerSeed: string, opponentSeed: string): BattleOutcome {
  const result = replayBattle(battle.challenger.claimHash, battle.opponent.claimHash, battleSeedOf(battle.battleId, challengerSeed, opponentSeed))
  const winner: Winner = result.winner === 'a' ? 'challenger' : result.winner === 'b' ? 'opponent' : 'draw'
  return { winner, forfeit: false, exchanges: result.exchanges, chargeLeft: { challenger: result.chargeLeft.a, opponent: result.chargeLeft.b } }
}

/** The challenger never revealed in time: the opponent wins without a fight. */
export const forfeitOutcome: BattleOutcome = { winner: 'opponent', forfeit: true, exchanges: 0, chargeLeft: { challenger: 0, opponent: 0 } }

/** What the battle's escrow pays out: both stakes to the winner, or each stake back on a draw or refusal. */
export function payoutsOf(battle: BattleRecord, winner: Winner | 'refund'): readonly Payout[] {
  if (battle.stake !== 'money' || battle.stakePhiMicro === null) return []
  const stake = fromDecimal(battle.stakePhiMicro)
  const pay = (userId: string, amount: bigint): Payout => ({ userId, amountPhiMicro: toDecimal(amount), entryId: null })
  if (winner === 'refund') return [pay(battle.challengerUserId, stake)]
  if (winner === 'draw') return [pay(battle.challengerUserId, stake), pay(battle.opponentUserId, stake)]
  return [pay(winner === 'challenger' ? battle.challengerUserId : battle.opponentUserId, 2n * stake)]
}

/** A player's tally after one more battle; XP is awarded only in XP battles. */
export function tallied(prior: XpRecord | undefined, userId: string, result: 'win' | 'draw' | 'loss', xpBattle: boolean): XpRecord {
  const base = prior ?? { userId, xp: 0, battles: 0, wins: 0, draws: 0, losses: 0 }
  return {
    userId, xp: base.xp + (xpBattle ? XP_AWARD[result] : 0), battles: base.battles + 1,
    wins: base.wins + (result === 'win' ? 1 : 0), draws: base.draws + (result === 'draw' ? 1 : 0), losses: base.losses + (result === 'loss' ? 1 : 0),
  }
}
