/**
 * The battle rules: golden vectors (a commitment checked with `sha256sum`, fights pinned by claim
 * hashes and seeds, so a change to the engine that changes an outcome fails here) and the escrow's
 * invariant: whatever the outcome, the payouts are exactly what the escrow holds.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { BattleRecord, Stake } from './battle-records.js'
import { commitmentOf, foughtOutcome, payoutsOf } from './battle-rules.js'

const corner = (claimHash: string, userId: string) => ({ claimHash, userId, cardId: `card_${userId}` })

describe('battle golden vectors', () => {
  it('commits to a seed as SHA-256 of a domain-separated text', () => {
    // printf 'signal-circuit/battle-commit\0sam-secret-seed-0001' | sha256sum
    expect(commitmentOf('sam-secret-seed-0001')).toBe('f3cc6fb2d8674bdc98d2354933e47c9c04b6cda603fcb2d76b033e59acef9da4')
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
