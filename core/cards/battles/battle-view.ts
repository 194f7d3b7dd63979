/** How a battle reads to its two players: both corners, the commitment, and once fought, both seeds and how to replay it. */
import { RULES, SOURCE_DIGEST } from '../../signal/engine.js'
import type { BattleRecord } from './battle-records.js'
import { battleSeedOf } from './battle-rules.js'

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

export function publicBattle(battle: BattleRecord) {
  const fought = battle.challengerSeed !== null && battle.opponentSeed !== null
  return {
    battleId: battle.battleId,
    stake: battle.stake,
    stakePhiMicro: battle.stakePhiMicro,
    status: battle.status,
    challenger: { cardId: battle.challenger.cardId, claimHash: battle.challenger.claimHash },
    opponent: { cardId: battle.opponent.cardId, claimHash: battle.opponent.claimHash },
    acceptedBy: battle.acceptedBy,
    seedCommitment: battle.seedCommitment,
    // The opponent's seed stays private until the challenger has revealed: it is the challenger's to answer.
    seeds: fought ? { challenger: battle.challengerSeed, opponent: battle.opponentSeed } : null,
    outcome: battle.outcome,
    replay: fought ? { rules: RULES.version, sourceDigest: SOURCE_DIGEST, seed: battleSeedOf(battle.battleId, battle.challengerSeed!, battle.opponentSeed!), sideA: 'challenger' } : null,
    payouts: battle.payouts.map((payout) => ({ toChallenger: payout.userId === battle.challengerUserId, amountPhiMicro: payout.amountPhiMicro, paid: payout.entryId !== null, entryId: payout.entryId })),
    createdAt: iso(battle.createdAtMs),
    respondBy: iso(battle.respondByMs),
    acceptedAt: iso(battle.acceptedAtMs),
    revealBy: iso(battle.revealByMs),
    endedAt: iso(battle.endedAtMs),
  }
}
