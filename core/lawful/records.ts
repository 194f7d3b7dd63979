/**
 * What the Lawful Economy stores: registered laws (by law digest), admissions (by admission
 * digest, immutable), the custody of each action (one document per law and action, guarded by
 * its version: the compare-and-swap of custody continuity), Settlement memberships (one per
 * admission, spendable until the custody moves on) and value heads (immutable, by digest).
 */
import * as t from 'io-ts'
import type { CollectionSpec } from '../../ports/store.js'
import { nullableString, typedCollection } from '../usecases/typed-collection.js'
import { VALUE_HEAD_SCHEMA } from './derive.js'
import { Law } from './payloads.js'

export const LAWFUL_LAWS = 'lawful.laws'
export const LAWFUL_ADMISSIONS = 'lawful.admissions'
export const LAWFUL_CUSTODY = 'lawful.custody'
export const LAWFUL_MEMBERSHIPS = 'lawful.memberships'
export const LAWFUL_VALUE_HEADS = 'lawful.value_heads'

/** Transparency-log leaf kinds: each law, admission and value head is public by digest. */
export const LAW_LEAF_KIND = 'cairn.v125.law'
export const ADMISSION_LEAF_KIND = 'cairn.v125.lawful_admission'

export const RESULT_SCHEMA = 'cairn.v125.lawful_action_result'
export const RECEIPT_SCHEMA = 'cairn.v125.lawful_action_receipt'
export const AUTHORITY = { role: 'coordination', proofAuthority: false, heldBytesWin: true } as const

/** A registered law; `ownerUserId` is the sealed object's owner: who agreed to pay, from their reserve. */
const LawRecordCodec = t.readonly(t.type({
  lawDigest: t.string, law: Law.type, ownerUserId: t.string, sealedSha256: t.string, registeredByApplicationId: t.string, registeredAt: t.string,
  registeredAtKaiPulse: t.number, receiptDigest: t.string,
}))
export type LawRecord = t.TypeOf<typeof LawRecordCodec>

/** An admission; `sealerUserId` is who sealed the action (the law's owner first, then each custodian handing it on). */
const AdmissionRecordCodec = t.readonly(t.type({
  admissionDigest: t.string, action: t.keyof({ admitted: null, transferred: null }), lawDigest: t.string, actionId: t.string, priorAdmissionDigest: nullableString,
  sealerUserId: t.string, custodianUserId: t.string, startedAtKaiPulse: t.number, completedAtKaiPulse: t.number, membershipId: t.string,
  admittedAt: t.string, admittedAtKaiPulse: t.number, receiptDigest: t.string,
}))
export type AdmissionRecord = t.TypeOf<typeof AdmissionRecordCodec>

/** The one current custody of an action under a law. */
const CustodyRecordCodec = t.readonly(t.type({
  lawDigest: t.string, actionId: t.string, admissionDigest: t.string, custodianUserId: t.string, membershipId: t.string, admissions: t.number,
}))
export type CustodyRecord = t.TypeOf<typeof CustodyRecordCodec>

/** A Settlement membership; value has been settled for every pulse before `settledThroughKaiPulse` (it starts at `startedAtKaiPulse`). */
const MembershipRecordCodec = t.readonly(t.type({
  membershipId: t.string, lawDigest: t.string, actionId: t.string, admissionDigest: t.string, holderUserId: t.string, payerUserId: t.string,
  ratePhiMicroPerPulse: t.string, startedAtKaiPulse: t.number, completedAtKaiPulse: t.number, settledThroughKaiPulse: t.number,
  valueHeadDigest: nullableString, status: t.keyof({ spendable: null, spent: null }), spentByAdmissionDigest: nullableString,
}))
export type MembershipRecord = t.TypeOf<typeof MembershipRecordCodec>

/** A derived value head, exactly as hashed (derive.ts). */
const ValueHeadCodec = t.readonly(t.type({
  schema: t.literal(VALUE_HEAD_SCHEMA), membershipId: t.string, priorValueHeadDigest: nullableString, lawDigest: t.string, admissionDigest: t.string,
  holderUserId: t.string, payerUserId: t.string, ratePhiMicroPerPulse: t.string, startedAtKaiPulse: t.number, completedAtKaiPulse: t.number,
  fromKaiPulse: t.number, throughKaiPulse: t.number, sampledAtKaiPulse: t.number, amountPhiMicro: t.string,
}))
export type ValueHead = t.TypeOf<typeof ValueHeadCodec>

const ValueHeadRecordCodec = t.readonly(t.type({
  valueHeadDigest: t.string, head: ValueHeadCodec, membershipId: t.string, throughKaiPulse: t.number, entryId: t.string, receiptDigest: t.string,
}))
export type ValueHeadRecord = t.TypeOf<typeof ValueHeadRecordCodec>

export const lawfulLaws = typedCollection({ name: LAWFUL_LAWS, indexes: [{ name: 'byOwner', fields: ['ownerUserId', 'lawDigest'] }] }, LawRecordCodec)
export const lawfulAdmissions = typedCollection({ name: LAWFUL_ADMISSIONS, indexes: [{ name: 'byLaw', fields: ['lawDigest', 'actionId', 'admittedAt'] }] }, AdmissionRecordCodec)
export const lawfulCustody = typedCollection({ name: LAWFUL_CUSTODY, indexes: [{ name: 'byCustodian', fields: ['custodianUserId', 'actionId'] }] }, CustodyRecordCodec)
export const lawfulMemberships = typedCollection({ name: LAWFUL_MEMBERSHIPS, indexes: [{ name: 'byHolder', fields: ['holderUserId', 'membershipId'] }] }, MembershipRecordCodec)
export const lawfulValueHeads = typedCollection({ name: LAWFUL_VALUE_HEADS, indexes: [{ name: 'byMembership', fields: ['membershipId', 'throughKaiPulse'] }] }, ValueHeadRecordCodec)

export const lawfulCollections: readonly CollectionSpec[] = [lawfulLaws.spec, lawfulAdmissions.spec, lawfulCustody.spec, lawfulMemberships.spec, lawfulValueHeads.spec]

export const custodyKey = (lawDigest: string, actionId: string) => `${lawDigest}:${actionId}`

/** A membership is named by the admission that opened it. */
export const membershipIdOf = (admissionDigest: string) => admissionDigest
