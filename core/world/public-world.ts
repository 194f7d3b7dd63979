/**
 * `GET /api/world/public`: the public world from what is stored — districts (one per sport with
 * recorded cards, with their counts), featured ventures (Twins whose public promotion was
 * approved, newest first) and discovery (recorded cards, newest first and paged with `limit` and
 * `cursor`, and the Twins visitors wrote to most recently).
 */
import * as E from 'fp-ts/lib/Either.js'
import { cardRecords } from '../cards/card-records.js'
import { publicCard } from '../cards/public-card.js'
import { getIdentity } from '../identity/identities.js'
import { invalidInput } from '../errors/domain-error.js'
import { twinApprovals } from '../twin/approval-records.js'
import { json, type UseCaseFor } from '../usecases/use-case.js'
import { worldMessages } from './world-records.js'

/** Cards read to count districts; a larger world counts the newest this many. */
const DISTRICT_SCAN = 1000
const FEATURED = 10
const DISCOVERY = 10

/** @example await getWorldPublic({ query: { limit: 10 }, … }, deps) */
export const getWorldPublic: UseCaseFor<'getWorldPublic'> = async (request, deps) => {
  const { cursor, limit } = request.query
  let discoveryCards
  try {
    discoveryCards = await deps.store.query(cardRecords.name, { index: 'by_recorded', equals: [1], order: 'desc', limit: limit ?? 50, ...(cursor === undefined ? {} : { after: cursor }) })
  } catch (error) {
    if (error instanceof RangeError) return E.left(invalidInput('cursor is not a cursor of this listing'))
    throw error
  }
  const [cards, promoted, messages] = await Promise.all([
    deps.store.query(cardRecords.name, { index: 'by_recorded', equals: [1], order: 'desc', limit: DISTRICT_SCAN }),
    deps.store.query(twinApprovals.name, { index: 'by_status', equals: ['approved'], order: 'desc', limit: FEATURED }),
    deps.store.query(worldMessages.name, { index: 'by_time', order: 'desc', limit: 200 }),
  ])
  const records = cards.items.map(cardRecords.decode)
  const bySport = new Map<string, number>()
  for (const record of records) {
    const sport = (record.manifest as { sport: string }).sport
    bySport.set(sport, (bySport.get(sport) ?? 0) + 1)
  }
  const districts = [...bySport].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([sport, count]) => ({ id: sport, name: sport, cards: count, open: true }))
  const featuredVentures = (await Promise.all(promoted.items.map(async (doc) => {
    const approval = twinApprovals.decode(doc)
    const identity = await getIdentity(deps, approval.ownerId)
    // Found by status, so written since status and decidedAtMs are kept together: decidedAtMs is there.
    return identity && approval.decidedAtMs !== undefined
      ? { username: identity.record.username, displayName: identity.record.displayName, promotedAt: new Date(approval.decidedAtMs).toISOString() }
      : undefined
  }))).filter((venture) => venture !== undefined)
  const activeTwins: { username: string; lastMessageAt: string }[] = []
  for (const doc of messages.items) {
    const message = worldMessages.decode(doc)
    if (activeTwins.length < DISCOVERY && !activeTwins.some((twin) => twin.username === message.twinUsername)) {
      activeTwins.push({ username: message.twinUsername, lastMessageAt: new Date(message.createdAtMs).toISOString() })
    }
  }
  return E.right(json({
    ok: true, districts, featuredVentures,
    discovery: {
      cards: discoveryCards.items.map((doc) => publicCard(cardRecords.decode(doc), deps.config.baseUrl)), nextCursor: discoveryCards.nextCursor, twins: activeTwins,
    },
  }, { 'cache-control': 'no-store' }))
}
