/**
 * `GET|PATCH /api/connect/twin/market/mandate`: the limits within which the owner's Twin may trade.
 * PATCH saves a partial update over the current mandate (defaults: enabled, approval required,
 * every market, medium risk), guarded by the version it read. The GET body is accepted and ignored.
 */
import * as E from 'fp-ts/lib/Either.js'
import { conflict, invalidInput } from '../errors/domain-error.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { guardedPut, twinMandates, type Mandate } from './market-records.js'
import { twinOwnerOf } from './owner.js'

const WHOLE_CENTS = /^(0|[1-9][0-9]{0,15})$/

export async function loadMandate(deps: Pick<CoreDeps, 'store'>, ownerId: string) {
  const doc = await twinMandates.get(deps.store, ownerId)
  return { doc, mandate: doc?.value }
}

/** @example await getTwinMarketMandate({ body: {}, principal, … }, deps) */
export const getTwinMarketMandate: UseCaseFor<'getTwinMarketMandate'> = async (request, deps) => {
  const owner = twinOwnerOf(request.principal)
  if (E.isLeft(owner)) return owner
  const { mandate } = await loadMandate(deps, owner.right.userId)
  return E.right(json({ ok: true as const, mandate: mandate ? { ...mandate, allowedMarketIds: [...mandate.allowedMarketIds] } : null }, { 'cache-control': 'no-store' }))
}

/** @example await saveTwinMarketMandate({ body: { maxOrderUsdCents: '5000', riskLevel: 'low' }, principal, … }, deps) */
export const saveTwinMarketMandate: UseCaseFor<'saveTwinMarketMandate'> = async (request, deps) => {
  const owner = twinOwnerOf(request.principal)
  if (E.isLeft(owner)) return owner
  const patch = request.body
  for (const field of ['maxOrderUsdCents', 'dailyLimitUsdCents'] as const) {
    const value = patch[field]
    if (value !== undefined && !WHOLE_CENTS.test(value)) return E.left(invalidInput(`${field} must be a whole, non-negative number of US cents`))
  }
  const { doc, mandate } = await loadMandate(deps, owner.right.userId)
  const saved: Mandate = {
    enabled: patch.enabled ?? mandate?.enabled ?? true,
    requireApproval: patch.requireApproval ?? mandate?.requireApproval ?? true,
    ...((patch.maxOrderUsdCents ?? mandate?.maxOrderUsdCents) !== undefined ? { maxOrderUsdCents: (patch.maxOrderUsdCents ?? mandate?.maxOrderUsdCents)! } : {}),
    ...((patch.dailyLimitUsdCents ?? mandate?.dailyLimitUsdCents) !== undefined ? { dailyLimitUsdCents: (patch.dailyLimitUsdCents ?? mandate?.dailyLimitUsdCents)! } : {}),
    allowedMarketIds: [...new Set(patch.allowedMarketIds ?? mandate?.allowedMarketIds ?? [])],
    riskLevel: patch.riskLevel ?? mandate?.riskLevel ?? 'medium',
    updatedAt: new Date(deps.clock.now()).toISOString(),
  }
  if (saved.maxOrderUsdCents !== undefined && saved.dailyLimitUsdCents !== undefined && BigInt(saved.maxOrderUsdCents) > BigInt(saved.dailyLimitUsdCents)) {
    return E.left(invalidInput('maxOrderUsdCents may not exceed dailyLimitUsdCents'))
  }
  const outcome = await deps.store.commit([guardedPut(twinMandates, owner.right.userId, saved, doc)])
  if (!outcome.ok) return E.left(conflict('The mandate changed while it was being saved; read it and try again'))
  return E.right(json({ ok: true as const, mandate: saved }))
}
