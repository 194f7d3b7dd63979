/**
 * Promotion decisions of an owner's Twin as stored: every decision kept (newest first), the newest
 * one's status and time top-level so the store can index them (`by_status` lists promoted Twins,
 * the World's featured ventures).
 */
import * as t from 'io-ts'
import type { CollectionSpec } from '../../ports/store.js'
import { typedCollection } from '../usecases/typed-collection.js'

export const TWIN_APPROVALS = 'twin.approvals'

const StatusCodec = t.keyof({ approved: null, rejected: null })

const DecisionCodec = t.readonly(t.intersection([
  t.type({ status: StatusCodec, entitled: t.boolean, performance: t.UnknownRecord, decidedAt: t.string }),
  t.partial({ reason: t.string, note: t.string }),
]))
export type Decision = t.TypeOf<typeof DecisionCodec>

/** `status` and `decidedAtMs` are absent on records written before they were indexed. */
const ApprovalRecordCodec = t.readonly(t.intersection([
  t.type({ ownerId: t.string, decisions: t.readonlyArray(DecisionCodec) }),
  t.partial({ status: StatusCodec, decidedAtMs: t.number }),
]))
export type ApprovalRecord = t.TypeOf<typeof ApprovalRecordCodec>

export const twinApprovals = typedCollection({ name: TWIN_APPROVALS, indexes: [{ name: 'by_status', fields: ['status', 'decidedAtMs'] }] }, ApprovalRecordCodec)
export const twinApprovalCollection: CollectionSpec = twinApprovals.spec
