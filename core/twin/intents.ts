/**
 * `GET|POST /api/connect/twin/market/intents` and `POST …/intents/{intentId}/approve`. A new intent
 * is checked against the mandate at once: a failing check records it `rejected` with the reason;
 * otherwise it waits `pending` for approval (or is `approved` at once when the mandate does not
 * require approval). Approving re-runs every check against the mandate and the day's approved
 * total as they are then — approval never bypasses the mandate — and records either outcome. An
 * approval and the day's total are one commit guarded by both versions read.
 */
import * as E from 'fp-ts/lib/Either.js'
import { toBase64Url } from '../encoding/base64url.js'
import { conflict, invalidInput, notFound } from '../errors/domain-error.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import type { Write } from '../../ports/store.js'
import { dailyKey, dayOf, guardedPut, publicIntent, twinDailyTotals, twinIntents, TWIN_INTENTS, type DailyTotal, type IntentRecord } from './market-records.js'
import { loadMandate } from './mandate.js'
import { checkIntent } from './risk-checks.js'
import { twinOwnerOf } from './owner.js'

const WHOLE_CENTS = /^(0|[1-9][0-9]{0,15})$/
const POSITIVE_DECIMAL = /^(0|[1-9][0-9]{0,15})(\.[0-9]{1,8})?$/
const LIST_LIMIT = 100

async function loadDailyTotal(deps: Pick<CoreDeps, 'store'>, ownerId: string, day: string) {
  const doc = await twinDailyTotals.get(deps.store, dailyKey(ownerId, day))
  return { doc, approved: BigInt(doc?.value.approvedUsdCents ?? '0') }
}

/** The writes that approve `intent`: the intent and the day's total, each guarded by what was read. */
function approvalWrites(intent: IntentRecord, daily: Awaited<ReturnType<typeof loadDailyTotal>>, day: string, intentRead?: Parameters<typeof guardedPut>[3]): Write[] {
  const total: DailyTotal = { ownerId: intent.ownerId, day, approvedUsdCents: (daily.approved + BigInt(intent.amountUsdCents ?? '0')).toString() }
  return [guardedPut(twinIntents, intent.id, intent, intentRead), guardedPut(twinDailyTotals, dailyKey(intent.ownerId, day), total, daily.doc)]
}

/** @example await listTwinMarketIntents({ body: { marketId: 'any', side: 'buy' }, principal, … }, deps) */
export const listTwinMarketIntents: UseCaseFor<'listTwinMarketIntents'> = async (request, deps) => {
  const owner = twinOwnerOf(request.principal)
  if (E.isLeft(owner)) return owner
  const page = await deps.store.query(TWIN_INTENTS, { index: 'by_owner', equals: [owner.right.userId], order: 'desc', limit: LIST_LIMIT })
  return E.right(json({ ok: true as const, intents: page.items.map((doc) => publicIntent(twinIntents.decode(doc))) }, { 'cache-control': 'no-store' }))
}

/** @example await createTwinMarketIntent({ body: { marketId: 'btc-usd', side: 'buy', amountUsdCents: '2500', limitPrice: '64000' }, principal, … }, deps) */
export const createTwinMarketIntent: UseCaseFor<'createTwinMarketIntent'> = async (request, deps) => {
  const owner = twinOwnerOf(request.principal)
  if (E.isLeft(owner)) return owner
  const { marketId, side, amountUsdCents, limitPrice, note } = request.body
  if (amountUsdCents !== undefined && !WHOLE_CENTS.test(amountUsdCents)) return E.left(invalidInput('amountUsdCents must be a whole, non-negative number of US cents'))
  if (limitPrice !== undefined && !POSITIVE_DECIMAL.test(limitPrice)) return E.left(invalidInput('limitPrice must be a non-negative decimal with at most 8 fraction digits'))
  if (note !== undefined && note.length > 500) return E.left(invalidInput('note must be at most 500 characters'))
  const now = deps.clock.now()
  const day = dayOf(now)
  const [{ mandate }, daily] = await Promise.all([loadMandate(deps, owner.right.userId), loadDailyTotal(deps, owner.right.userId, day)])
  const base: IntentRecord = {
    id: `tmi_${toBase64Url(deps.entropy.bytes(12))}`, ownerId: owner.right.userId, marketId, side, status: 'pending',
    ...(amountUsdCents !== undefined ? { amountUsdCents } : {}), ...(limitPrice !== undefined ? { limitPrice } : {}), ...(note !== undefined ? { note } : {}),
    createdAt: new Date(now).toISOString(), createdAtMs: now,
  }
  const verdict = checkIntent(mandate, base, daily.approved)
  const decided = { decidedAt: base.createdAt }
  const intent: IntentRecord = !verdict.ok ? { ...base, status: 'rejected', reason: verdict.reason, ...decided } : mandate!.requireApproval ? base : { ...base, status: 'approved', ...decided }
  const writes = intent.status === 'approved' ? approvalWrites(intent, daily, day) : [guardedPut(twinIntents, intent.id, intent, undefined)]
  const outcome = await deps.store.commit(writes)
  if (!outcome.ok) return E.left(conflict('Another approval changed today\'s total at the same moment; send the intent again'))
  return E.right(json({ ok: true as const, intent: publicIntent(intent) }))
}

/** @example await approveTwinMarketIntent({ params: { intentId }, principal, … }, deps) */
export const approveTwinMarketIntent: UseCaseFor<'approveTwinMarketIntent'> = async (request, deps) => {
  const owner = twinOwnerOf(request.principal)
  if (E.isLeft(owner)) return owner
  const read = await twinIntents.get(deps.store, request.params.intentId)
  const intent = read?.value
  if (!read || !intent || intent.ownerId !== owner.right.userId) return E.left(notFound('No intent of this Twin has that id'))
  if (intent.status !== 'pending') return E.left(conflict(`The intent is ${intent.status} already; only a pending intent can be approved`))
  const now = deps.clock.now()
  const day = dayOf(now)
  const [{ mandate }, daily] = await Promise.all([loadMandate(deps, owner.right.userId), loadDailyTotal(deps, owner.right.userId, day)])
  const verdict = checkIntent(mandate, intent, daily.approved)
  const decidedAt = new Date(now).toISOString()
  const decided: IntentRecord = verdict.ok ? { ...intent, status: 'approved', decidedAt } : { ...intent, status: 'rejected', reason: verdict.reason, decidedAt }
  const writes = verdict.ok ? approvalWrites(decided, daily, day, read) : [guardedPut(twinIntents, intent.id, decided, read)]
  const outcome = await deps.store.commit(writes)
  if (!outcome.ok) return E.left(conflict('The intent or today\'s total changed at the same moment; read the intent and try again'))
  return E.right(json({ ok: true as const, intent: publicIntent(decided) }))
}
