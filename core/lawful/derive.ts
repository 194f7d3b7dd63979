/**
 * The value-head derivation, pure and exact (bigints; no caller number enters it). A Settlement
 * membership accrues the law's rate for every Kai pulse of its action between the sealed start and
 * the sealed completion; at the server-sampled pulse `s` the value settled so far is
 *
 *   through = min(max(s, startedAtKaiPulse), completedAtKaiPulse)
 *   amount  = ratePhiMicroPerPulse × (through − settledThroughKaiPulse)
 *
 * and the next head is SHA-256 of the RFC 8785 JSON of every input and the amount, chained to the
 * prior head. The same membership and the same sampled pulse always give the same head.
 */
import { sha256OfJson } from '../digest/sha256.js'
import type { MembershipRecord, ValueHead } from './records.js'

export const VALUE_HEAD_SCHEMA = 'cairn.v125.value_head.v1'

/** The derived head, exactly as hashed (its codec is the stored value head's, records.ts). */
export type { ValueHead }

export type Derivation =
  | { readonly _tag: 'derived'; readonly head: ValueHead; readonly valueHeadDigest: string; readonly amount: bigint }
  /** Nothing accrued since the prior head: before the start, or settled through the completion. */
  | { readonly _tag: 'nothing-accrued'; readonly throughKaiPulse: number }

/**
 * @example deriveValueHead(membership, 12800100) // { _tag: 'derived', valueHeadDigest: '…', amount: 260n }
 */
export function deriveValueHead(membership: MembershipRecord, sampledAtKaiPulse: number): Derivation {
  if (!Number.isSafeInteger(sampledAtKaiPulse) || sampledAtKaiPulse < 0) throw new RangeError('The sampled time must be a whole Kai pulse')
  const through = Math.min(Math.max(sampledAtKaiPulse, membership.startedAtKaiPulse), membership.completedAtKaiPulse)
  const from = membership.settledThroughKaiPulse
  if (through <= from) return { _tag: 'nothing-accrued', throughKaiPulse: through }
  const amount = BigInt(membership.ratePhiMicroPerPulse) * BigInt(through - from)
  const head: ValueHead = {
    schema: VALUE_HEAD_SCHEMA,
    membershipId: membership.membershipId,
    priorValueHeadDigest: membership.valueHeadDigest,
    lawDigest: membership.lawDigest,
    admissionDigest: membership.admissionDigest,
    holderUserId: membership.holderUserId,
    payerUserId: membership.payerUserId,
    ratePhiMicroPerPulse: membership.ratePhiMicroPerPulse,
    startedAtKaiPulse: membership.startedAtKaiPulse,
    completedAtKaiPulse: membership.completedAtKaiPulse,
    fromKaiPulse: from,
    throughKaiPulse: through,
    sampledAtKaiPulse,
    amountPhiMicro: amount.toString(),
  }
  return { _tag: 'derived', head, valueHeadDigest: sha256OfJson(head), amount }
}

/** The membership after a head: settled through the head's pulse, the head its new tip. */
export function advancedMembership(membership: MembershipRecord, head: ValueHead, valueHeadDigest: string): MembershipRecord {
  return { ...membership, settledThroughKaiPulse: head.throughKaiPulse, valueHeadDigest }
}
