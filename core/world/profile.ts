/**
 * `GET /api/world/profile/{username}`: a Live Twin's public surface — the public profile, an
 * availability preview (slots visitors asked for, so a new visitor sees what is taken) and the
 * visitor thread context (how many messages, when the last came; never their text: threads are
 * between a visitor and the Twin).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { notFound, type DomainError } from '../errors/domain-error.js'
import { quoteInput } from '../errors/quote-input.js'
import { getIdentityByUsername, type IdentityRecord } from '../identity/identities.js'
import { twinApprovals } from '../twin/approval-records.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { worldMessages } from './world-records.js'

const CONTEXT_MESSAGES = 200
const PREVIEW_SLOTS = 10

export async function twinNamed(deps: Pick<CoreDeps, 'store'>, username: string): Promise<Either<DomainError, IdentityRecord>> {
  const identity = await getIdentityByUsername(deps, username)
  return identity ? E.right(identity.record) : E.left(notFound(`No Live Twin is named ${quoteInput(username)}`))
}

/** @example await getWorldProfile({ params: { username: 'ada' }, … }, deps) */
export const getWorldProfile: UseCaseFor<'getWorldProfile'> = async (request, deps) => {
  const twin = await twinNamed(deps, request.params.username)
  if (E.isLeft(twin)) return twin
  const [approval, recent] = await Promise.all([
    twinApprovals.get(deps.store, twin.right.userId),
    deps.store.query(worldMessages.name, { index: 'by_twin', equals: [twin.right.userId], order: 'desc', limit: CONTEXT_MESSAGES }),
  ])
  const messages = recent.items.map(worldMessages.decode)
  const now = deps.clock.now()
  const requestedSlots = messages.filter((m) => m.kind === 'booking' && m.slotStart !== null && Date.parse(m.slotStart) > now).map((m) => m.slotStart!).sort().slice(0, PREVIEW_SLOTS)
  return E.right(json({
    ok: true,
    profile: {
      username: twin.right.username, displayName: twin.right.displayName, joinedAt: twin.right.createdAt,
      promoted: approval?.value.status === 'approved',
    },
    availability: { messages: 'open', bookings: 'open', requestedSlots },
    thread: { visitorMessages: messages.length, lastMessageAt: messages[0] ? new Date(messages[0].createdAtMs).toISOString() : null },
  }, { 'cache-control': 'no-store' }))
}
