/**
 * `GET|POST /api/connect/twin/approval`: public promotion of the owner's Twin. Only owners with the
 * automation entitlement — Business-tier accounts — may have their Twin promoted: a request is
 * decided at once, approved when entitled and rejected with the reason otherwise, and every decision
 * is kept (the newest first, at most 50). The GET body is accepted and ignored.
 */
import * as E from 'fp-ts/lib/Either.js'
import { conflict, invalidInput } from '../errors/domain-error.js'
import { json, type UseCaseFor } from '../usecases/use-case.js'
import { twinApprovals, type ApprovalRecord, type Decision } from './approval-records.js'
import { guardedPut } from './market-records.js'
import { twinOwnerOf } from './owner.js'

const KEPT_DECISIONS = 50
const MAX_PERFORMANCE_BYTES = 16 * 1024

const current = (record: ApprovalRecord | undefined) => {
  const latest = record?.decisions[0]
  if (!latest) return null
  const { note: _note, ...shown } = latest
  return shown
}

/** @example await getTwinApproval({ body: { performance: {} }, principal, … }, deps) */
export const getTwinApproval: UseCaseFor<'getTwinApproval'> = async (request, deps) => {
  const owner = twinOwnerOf(request.principal)
  if (E.isLeft(owner)) return owner
  const record = (await twinApprovals.get(deps.store, owner.right.userId))?.value
  return E.right(json({ ok: true as const, twinApproval: current(record) }, { 'cache-control': 'no-store' }))
}

/** @example await approveTwinPromotion({ body: { performance: { winRate: 0.61 } }, principal, … }, deps) */
export const approveTwinPromotion: UseCaseFor<'approveTwinPromotion'> = async (request, deps) => {
  const owner = twinOwnerOf(request.principal)
  if (E.isLeft(owner)) return owner
  const { performance, note } = request.body
  if (JSON.stringify(performance).length > MAX_PERFORMANCE_BYTES) return E.left(invalidInput(`performance must be at most ${MAX_PERFORMANCE_BYTES} bytes of JSON`))
  if (note !== undefined && note.length > 500) return E.left(invalidInput('note must be at most 500 characters'))
  const read = await twinApprovals.get(deps.store, owner.right.userId)
  const record = read?.value
  const entitled = owner.right.businessTier
  const now = deps.clock.now()
  const decision: Decision = {
    status: entitled ? 'approved' : 'rejected', entitled, performance, decidedAt: new Date(now).toISOString(),
    ...(entitled ? {} : { reason: 'Public Twin promotion needs the automation entitlement (a Business-tier account)' }),
    ...(note !== undefined ? { note } : {}),
  }
  const saved: ApprovalRecord = { ownerId: owner.right.userId, status: decision.status, decidedAtMs: now, decisions: [decision, ...(record?.decisions ?? [])].slice(0, KEPT_DECISIONS) }
  const outcome = await deps.store.commit([guardedPut(twinApprovals, owner.right.userId, saved, read)])
  if (!outcome.ok) return E.left(conflict('Another promotion request was decided at the same moment; read it and try again'))
  return E.right(json({ ok: true as const, twinApproval: current(saved) }))
}
