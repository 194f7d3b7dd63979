/**
 * Battles as stored: one record a fight request, from request to settlement, rewritten only with a
 * version expectation (of two racing accepts exactly one lands), and each player's battle tally.
 */
import type { CollectionSpec, Json, Write } from '../../../ports/store.js'
import type { CoreDeps, ReplyOf } from '../../usecases/use-case.js'

export const CARD_BATTLES = 'cards.battles'
export const cardBattlesCollection: CollectionSpec = {
  name: CARD_BATTLES,
  indexes: [{ name: 'by_challenger', fields: ['challengerUserId', 'createdAtMs'] }, { name: 'by_opponent', fields: ['opponentUserId', 'createdAtMs'] }],
}

export const CARD_XP = 'cards.xp'
export const cardXpCollection: CollectionSpec = { name: CARD_XP }

/** What a battle puts at stake: nothing (fun), experience points, Φ from both wallets, or the cards themselves. */
export type Stake = 'fun' | 'xp' | 'money' | 'card'
export type Winner = 'challenger' | 'opponent' | 'draw'

/** pending → accepted → settled, or pending → declined | cancelled. */
export type BattleStatus = 'pending' | 'accepted' | 'declined' | 'cancelled' | 'settled'

export interface Corner {
  readonly userId: string
  readonly cardId: string
  readonly claimHash: string
}

/** Φ owed from the battle's escrow; `entryId` is set in the commit that pays it. */
export interface Payout {
  readonly userId: string
  readonly amountPhiMicro: string
  readonly entryId: string | null
}

export interface BattleOutcome {
  readonly winner: Winner
  /** True when the challenger never revealed and the opponent claimed the battle. */
  readonly forfeit: boolean
  readonly exchanges: number
  readonly chargeLeft: { readonly challenger: number; readonly opponent: number }
}

export interface BattleRecord {
  readonly battleId: string
  readonly stake: Stake
  /** Each side's stake in micro-Φ (money battles only). */
  readonly stakePhiMicro: string | null
  readonly challengerUserId: string
  readonly opponentUserId: string
  readonly challenger: Corner
  readonly opponent: Corner
  /** SHA-256 of the challenger's seed (commit–reveal, docs/signal-circuit.md). */
  readonly seedCommitment: string
  readonly challengerSeed: string | null
  readonly opponentSeed: string | null
  readonly status: BattleStatus
  /** Who accepted: the opponent, or the opponent's AI Twin defending the card. */
  readonly acceptedBy: 'owner' | 'twin' | null
  readonly outcome: BattleOutcome | null
  readonly payouts: readonly Payout[]
  readonly createdAtMs: number
  readonly respondByMs: number
  readonly acceptedAtMs: number | null
  readonly revealByMs: number | null
  readonly endedAtMs: number | null
  /** The challenger's own key for the request: a retry with it answers the battle already requested. */
  readonly requestId: string | null
}

export interface LoadedBattle {
  readonly record: BattleRecord
  readonly version: number
}

export interface XpRecord {
  readonly userId: string
  readonly xp: number
  readonly battles: number
  readonly wins: number
  readonly draws: number
  readonly losses: number
}

export const newBattleWrite = (record: BattleRecord): Write => ({ kind: 'put', collection: CARD_BATTLES, key: record.battleId, value: record as unknown as Json, expect: { kind: 'absent' } })

export const battleWrite = (loaded: LoadedBattle, next: BattleRecord): Write => ({
  kind: 'put', collection: CARD_BATTLES, key: next.battleId, value: next as unknown as Json, expect: { kind: 'version', version: loaded.version },
})

export async function loadBattle(deps: Pick<CoreDeps, 'store'>, battleId: string): Promise<LoadedBattle | undefined> {
  const doc = await deps.store.get<Json>(CARD_BATTLES, battleId)
  return doc && { record: doc.value as unknown as BattleRecord, version: doc.version }
}

/** What every battle operation answers. */
export type BattleReply = ReplyOf<'answerBattleRequest'>
