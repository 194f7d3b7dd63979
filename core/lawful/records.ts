/**
 * What the Lawful Economy stores: registered laws (by law digest), admissions (by admission
 * digest, immutable), the custody of each action (one document per law and action, guarded by
 * its version: the compare-and-swap of custody continuity), Settlement memberships (one per
 * admission, spendable until the custody moves on) and value heads (immutable, by digest).
 */
import type { CollectionSpec, Json, Write } from '../../ports/store.js'
import type { Law } from './payloads.js'

export const LAWFUL_LAWS = 'lawful.laws'
export const LAWFUL_ADMISSIONS = 'lawful.admissions'
export const LAWFUL_CUSTODY = 'lawful.custody'
export const LAWFUL_MEMBERSHIPS = 'lawful.memberships'
export const LAWFUL_VALUE_HEADS = 'lawful.value_heads'

export const lawfulCollections: readonly CollectionSpec[] = [
  { name: LAWFUL_LAWS, indexes: [{ name: 'byOwner', fields: ['ownerUserId', 'lawDigest'] }] },
  { name: LAWFUL_ADMISSIONS, indexes: [{ name: 'byLaw', fields: ['lawDigest', 'actionId', 'admittedAt'] }] },
  { name: LAWFUL_CUSTODY, indexes: [{ name: 'byCustodian', fields: ['custodianUserId', 'actionId'] }] },
  { name: LAWFUL_MEMBERSHIPS, indexes: [{ name: 'byHolder', fields: ['holderUserId', 'membershipId'] }] },
  { name: LAWFUL_VALUE_HEADS, indexes: [{ name: 'byMembership', fields: ['membershipId', 'throughKaiPulse'] }] },
]

/** Transparency-log leaf kinds: each law, admission and value head is public by digest. */
export const LAW_LEAF_KIND = 'cairn.v125.law'
export const ADMISSION_LEAF_KIND = 'cairn.v125.lawful_admission'

export const RESULT_SCHEMA = 'cairn.v125.lawful_action_result'
export const RECEIPT_SCHEMA = 'cairn.v125.lawful_action_receipt'
export const AUTHORITY = { role: 'coordination', proofAuthority: false, heldBytesWin: true } as const

export interface LawRecord {
  readonly lawDigest: string
  readonly law: Law
  /** The sealed object's owner: who agreed to pay, from their reserve. */
  readonly ownerUserId: string
  readonly sealedSha256: string
  readonly registeredByApplicationId: string
  readonly registeredAt: string
  readonly registeredAtKaiPulse: number
  readonly receiptDigest: string
}

export interface AdmissionRecord {
  readonly admissionDigest: string
  readonly action: 'admitted' | 'transferred'
  readonly lawDigest: string
  readonly actionId: string
  readonly priorAdmissionDigest: string | null
  /** Who sealed the action (the law's owner first, then each custodian handing it on). */
  readonly sealerUserId: string
  readonly custodianUserId: string
  readonly startedAtKaiPulse: number
  readonly completedAtKaiPulse: number
  readonly membershipId: string
  readonly admittedAt: string
  readonly admittedAtKaiPulse: number
  readonly receiptDigest: string
}

/** The one current custody of an action under a law. */
export interface CustodyRecord {
  readonly lawDigest: string
  readonly actionId: string
  readonly admissionDigest: string
  readonly custodianUserId: string
  readonly membershipId: string
  readonly admissions: number
}

export interface MembershipRecord {
  readonly membershipId: string
  readonly lawDigest: string
  readonly actionId: string
  readonly admissionDigest: string
  readonly holderUserId: string
  readonly payerUserId: string
  readonly ratePhiMicroPerPulse: string
  readonly startedAtKaiPulse: number
  readonly completedAtKaiPulse: number
  /** Value has been settled for every pulse before this one (starts at `startedAtKaiPulse`). */
  readonly settledThroughKaiPulse: number
  readonly valueHeadDigest: string | null
  readonly status: 'spendable' | 'spent'
  readonly spentByAdmissionDigest: string | null
}

export interface ValueHeadRecord {
  readonly valueHeadDigest: string
  readonly head: Json
  readonly membershipId: string
  readonly throughKaiPulse: number
  readonly entryId: string
  readonly receiptDigest: string
}

export const custodyKey = (lawDigest: string, actionId: string) => `${lawDigest}:${actionId}`

/** A membership is named by the admission that opened it. */
export const membershipIdOf = (admissionDigest: string) => admissionDigest

export const putNew = (collection: string, key: string, value: unknown): Write =>
  ({ kind: 'put', collection, key, value: value as Json, expect: { kind: 'absent' } })

export const putOver = (collection: string, key: string, value: unknown, version: number | null): Write =>
  ({ kind: 'put', collection, key, value: value as Json, expect: version === null ? { kind: 'absent' } : { kind: 'version', version } })
