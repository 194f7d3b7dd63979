/**
 * The battle rules: golden vectors (a commitment checked with `sha256sum`, fights pinned by claim
 * hashes and seeds, so a change to the engine that changes an outcome fails here) and the escrow's
 * invariant: whatever the outcome, the payouts are exactly what the escrow holds.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { BattleRecord, Stake } from './battle-records.js'
import { battleIdOf, commitmentOf, foughtOutcome, payoutsOf } from './battle-rules.js'

const corner = (claimHash: string, userId: string) => ({ claimHash, userId, cardId: `card_${userId}` })

describe('battle golden vectors', () => {
  it('commits to the battle, the challenger and the seed as SHA-256 of a domain-separated text', () => {
    // printf 'signal-circuit/battle-commit\0btl_golden_1\0usr_sam\0sam-secret-seed-0000000001' | sha256sum
    expect(commitmentOf({ battleId: 'btl_golden_1', challengerUserId: 'usr_sam', seed: 'sam-secret-seed-0000000001' })).toBe('f74792bf8907929e1b978b107343829f6b476ba480df9f48a9076d973034f3a9')
    // printf 'usr_sam\0r-1' | sha256sum | head -c 32 | xxd -r -p | basenc --base64url | tr -d =
    expect(battleIdOf('usr_sam', 'r-1')).toBe('btl_sHSuWl0U_8WFSN_kO2ZLpg')
  })

  it('fights the same battle from the same claim hashes and seeds', () => {
    const golden: [string, string, string, string, string, object][] = [
      ['btl_golden_1', '1f'.repeat(32), 'c4'.repeat(32), 'sam-secret-seed-0001', 'bea-answer-seed-0001', { winner: 'challenger', exchanges: 5, chargeLeft: { challenger: 7, opponent: -7 } }],
      ['btl_golden_2', '1f'.repeat(32), 'c4'.repeat(32), 'sam-secret-seed-0001', 'bea-answer-seed-0001', { winner: 'challenger', exchanges: 5, chargeLeft: { challenger: 9, opponent: -6 } }],
      ['btl_golden_4', '3a'.repeat(32), '1f'.repeat(32), 'x-secret-seed-00001', 'y-answer-seed-00001', { winner: 'opponent', exchanges: 4, chargeLeft: { challenger: 0, opponent: 8 } }],
    ]
    for (const [battleId, a, b, seedA, seedB, expected] of golden) {
      expect(foughtOutcome({ battleId, challenger: corner(a, 'u1'), opponent: corner(b, 'u2') }, seedA, seedB)).toEqual({ forfeit: false, ...expected })
    }
  })
})

describe('payouts', () => {
  it('pay out exactly what the escrow holds, for every outcome', () => {
    fc.assert(fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.constantFrom('challenger', 'opponent', 'draw', 'refund'), fc.constantFrom<Stake>('fun', 'xp', 'money', 'card'), (stake, winner, kind) => {
      const battle = { stake: kind, stakePhiMicro: kind === 'money' ? stake.toString() : null, challengerUserId: 'u1', opponentUserId: 'u2' } as BattleRecord
      const held = kind !== 'money' ? 0n : winner === 'refund' ? stake : 2n * stake
      const paid = payoutsOf(battle, winner as 'draw').reduce((sum, payout) => sum + BigInt(payout.amountPhiMicro), 0n)
      expect(paid).toBe(held)
    }))
  })
})
