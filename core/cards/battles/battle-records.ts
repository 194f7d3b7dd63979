/**
 * Battles as stored: one record a fight request, from request to settlement, rewritten only with a
 * version expectation (of two racing accepts exactly one lands), and each player's battle tally.
 */
import * as t from 'io-ts'
import type { CollectionSpec, Write } from '../../../ports/store.js'
import { nullable, nullableNumber, typedCollection } from '../../usecases/typed-collection.js'
import type { CoreDeps, ReplyOf } from '../../usecases/use-case.js'

export const CARD_BATTLES = 'cards.battles'
export const CARD_XP = 'cards.xp'

/** What a battle puts at stake: nothing (fun), experience points, Φ from both wallets, or the cards themselves. */
const StakeCodec = t.keyof({ fun: null, xp: null, money: null, card: null })
export type Stake = t.TypeOf<typeof StakeCodec>
const WinnerCodec = t.keyof({ challenger: null, opponent: null, draw: null })
export type Winner = t.TypeOf<typeof WinnerCodec>

/** pending → accepted → settled, or pending → declined | cancelled. */
const BattleStatusCodec = t.keyof({ pending: null, accepted: null, declined: null, cancelled: null, settled: null })
export type BattleStatus = t.TypeOf<typeof BattleStatusCodec>

const CornerCodec = t.readonly(t.type({ userId: t.string, cardId: t.string, claimHash: t.string }))
export type Corner = t.TypeOf<typeof CornerCodec>

/** Φ owed from the battle's escrow; `entryId` is set in the commit that pays it. */
const PayoutCodec = t.readonly(t.type({ userId: t.string, amountPhiMicro: t.string, entryId: nullable(t.string) }))
export type Payout = t.TypeOf<typeof PayoutCodec>

/** `forfeit`: the challenger never revealed and the opponent claimed the battle. */
const BattleOutcomeCodec = t.readonly(t.type({
  winner: WinnerCodec, forfeit: t.boolean, exchanges: t.number, chargeLeft: t.readonly(t.type({ challenger: t.number, opponent: t.number })),
}))
export type BattleOutcome = t.TypeOf<typeof BattleOutcomeCodec>

/**
 * One fight request. `stakePhiMicro`: each side's stake in micro-Φ (money battles only);
 * `seedCommitment`: SHA-256 of the challenger's seed (commit–reveal, docs/signal-circuit.md);
 * `acceptedBy`: the opponent, or the opponent's AI Twin defending the card; `requestId`: the
 * challenger's own key for the request (a retry with it answers the battle already requested).
 */
const BattleRecordCodec = t.readonly(t.type({
  battleId: t.string, stake: StakeCodec, stakePhiMicro: nullable(t.string), challengerUserId: t.string, opponentUserId: t.string,
  challenger: CornerCodec, opponent: CornerCodec, seedCommitment: t.string, challengerSeed: nullable(t.string), opponentSeed: nullable(t.string),
  status: BattleStatusCodec, acceptedBy: nullable(t.keyof({ owner: null, twin: null })), outcome: t.union([BattleOutcomeCodec, t.null]),
  payouts: t.readonlyArray(PayoutCodec), createdAtMs: t.number, respondByMs: t.number, acceptedAtMs: nullableNumber, revealByMs: nullableNumber, endedAtMs: nullableNumber,
  requestId: nullable(t.string),
}))
export type BattleRecord = t.TypeOf<typeof BattleRecordCodec>

export const cardBattles = typedCollection({
  name: CARD_BATTLES,
  indexes: [{ name: 'by_challenger', fields: ['challengerUserId', 'createdAtMs'] }, { name: 'by_opponent', fields: ['opponentUserId', 'createdAtMs'] }],
}, BattleRecordCodec)
export const cardBattlesCollection: CollectionSpec = cardBattles.spec

const XpRecordCodec = t.readonly(t.type({ userId: t.string, xp: t.number, battles: t.number, wins: t.number, draws: t.number, losses: t.number }))
export type XpRecord = t.TypeOf<typeof XpRecordCodec>

export const cardXp = typedCollection({ name: CARD_XP }, XpRecordCodec)
export const cardXpCollection: CollectionSpec = cardXp.spec

export interface LoadedBattle {
  readonly record: BattleRecord
  readonly version: number
}

export const newBattleWrite = (record: BattleRecord): Write => cardBattles.put(record.battleId, record, { kind: 'absent' })

export const battleWrite = (loaded: LoadedBattle, next: BattleRecord): Write => cardBattles.put(next.battleId, next, { kind: 'version', version: loaded.version })

export async function loadBattle(deps: Pick<CoreDeps, 'store'>, battleId: string): Promise<LoadedBattle | undefined> {
  const doc = await cardBattles.get(deps.store, battleId)
  return doc && { record: doc.value, version: doc.version }
}

/** What every battle operation answers. */
export type BattleReply = ReplyOf<'answerBattleRequest'>
