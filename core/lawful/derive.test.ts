/**
 * The value-head derivation: golden vectors pin the exact head bytes and digests (anyone can
 * recompute them from docs/runtime.md), and fast-check properties prove it is deterministic,
 * depends on nothing but the membership and the server-sampled pulse, never pays a pulse twice and
 * never pays beyond the sealed completion.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson } from '../digest/canonical-json.js'
import { sha256OfJson } from '../digest/sha256.js'
import { advancedMembership, deriveValueHead } from './derive.js'
import type { MembershipRecord } from './records.js'

const membership: MembershipRecord = {
  membershipId: 'a'.repeat(64), lawDigest: 'b'.repeat(64), actionId: 'visit-1', admissionDigest: 'a'.repeat(64),
  holderUserId: 'usr_bob', payerUserId: 'usr_ada', ratePhiMicroPerPulse: '7', startedAtKaiPulse: 12_800_100, completedAtKaiPulse: 12_800_200,
  settledThroughKaiPulse: 12_800_100, valueHeadDigest: null, status: 'spendable', spentByAdmissionDigest: null,
}

describe('deriveValueHead golden vectors', () => {
  it('before the start nothing has accrued', () => {
    expect(deriveValueHead(membership, 12_800_074)).toEqual({ _tag: 'nothing-accrued', throughKaiPulse: 12_800_100 })
  })

  it('mid-action: the rate for every pulse since the start, chained from null', () => {
    const derived = deriveValueHead(membership, 12_800_140)
    if (derived._tag !== 'derived') throw new Error('expected a head')
    expect(derived.amount).toBe(280n)
    expect(canonicalJson(derived.head)).toBe(
      '{"admissionDigest":"' + 'a'.repeat(64) + '","amountPhiMicro":"280","completedAtKaiPulse":12800200,"fromKaiPulse":12800100,"holderUserId":"usr_bob",' +
      '"lawDigest":"' + 'b'.repeat(64) + '","membershipId":"' + 'a'.repeat(64) + '","payerUserId":"usr_ada","priorValueHeadDigest":null,' +
      '"ratePhiMicroPerPulse":"7","sampledAtKaiPulse":12800140,"schema":"cairn.v125.value_head.v1","startedAtKaiPulse":12800100,"throughKaiPulse":12800140}',
    )
    expect(derived.valueHeadDigest).toBe('ec3fecd1b638eefa6a206b3830234b3e995a4949a85a07bdb79356002a0287e7')
    expect(derived.valueHeadDigest).toBe(sha256OfJson(derived.head))
  })

  it('after the completion: only up to the completion, chained from the prior head', () => {
    const first = deriveValueHead(membership, 12_800_140)
    if (first._tag !== 'derived') throw new Error('expected a head')
    const next = deriveValueHead(advancedMembership(membership, first.head, first.valueHeadDigest), 99_999_999)
    if (next._tag !== 'derived') throw new Error('expected a head')
    expect(next.amount).toBe(420n)
    expect(next.head).toMatchObject({ priorValueHeadDigest: first.valueHeadDigest, fromKaiPulse: 12_800_140, throughKaiPulse: 12_800_200, sampledAtKaiPulse: 99_999_999 })
    expect(next.valueHeadDigest).toBe('172fc15fcad42055680268e3ac6d0af3840f1b3e9113fc48cc3807d511ac4f29')
  })
})

const memberships = fc.record({
  start: fc.integer({ min: 0, max: 2 ** 40 }),
  length: fc.integer({ min: 1, max: 1_000_000_000 }),
  rate: fc.bigInt({ min: 1n, max: 10n ** 9n }),
  holder: fc.stringMatching(/^usr_[a-z]{1,8}$/),
}).map(({ start, length, rate, holder }): MembershipRecord => ({
  ...membership, holderUserId: holder, ratePhiMicroPerPulse: rate.toString(), startedAtKaiPulse: start, completedAtKaiPulse: start + length, settledThroughKaiPulse: start,
}))

describe('deriveValueHead properties', () => {
  it('is deterministic: the same membership and sampled pulse give the same head, byte for byte', () => {
    fc.assert(fc.property(memberships, fc.integer({ min: 0, max: 2 ** 41 }), (m, sampled) => {
      expect(deriveValueHead(structuredClone(m), sampled)).toStrictEqual(deriveValueHead(m, sampled))
    }))
  })

  it('pays exactly rate × settled pulses, however the server\'s samples split them, and never past the completion', () => {
    fc.assert(fc.property(memberships, fc.array(fc.integer({ min: 0, max: 2 ** 41 }), { minLength: 1, maxLength: 12 }), (m, samples) => {
      let current = m
      let paid = 0n
      for (const sampled of [...samples].sort((a, b) => a - b)) {
        const derived = deriveValueHead(current, sampled)
        if (derived._tag === 'nothing-accrued') continue
        expect(derived.amount).toBeGreaterThan(0n)
        expect(derived.head.priorValueHeadDigest).toBe(current.valueHeadDigest)
        paid += derived.amount
        current = advancedMembership(current, derived.head, derived.valueHeadDigest)
      }
      const last = Math.max(...samples)
      const through = Math.min(Math.max(last, m.startedAtKaiPulse), m.completedAtKaiPulse)
      expect(paid).toBe(BigInt(m.ratePhiMicroPerPulse) * BigInt(through - m.startedAtKaiPulse))
      expect(current.settledThroughKaiPulse).toBe(paid === 0n ? m.startedAtKaiPulse : through)
    }))
  })

  it('a sample earlier than what was settled pays nothing', () => {
    fc.assert(fc.property(memberships, fc.integer({ min: 0, max: 2 ** 41 }), (m, sampled) => {
      const settled = { ...m, settledThroughKaiPulse: m.completedAtKaiPulse }
      expect(deriveValueHead(settled, sampled)._tag).toBe('nothing-accrued')
    }))
  })
})
