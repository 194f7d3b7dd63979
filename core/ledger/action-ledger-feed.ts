/**
 * `GET /api/ledger/actions/public`: the public action ledger, page by page.
 *
 * Paging: `cursor` continues strictly after a position; `since` skips events created before a
 * time. `nextCursor` is where to continue — the position after the last entry examined — so a
 * poller always holds a cursor; it equals the request's `cursor` when nothing new was there
 * (that is the current end). A page may hold fewer than `limit` events, even none, without being
 * the end: one request examines at most `SCAN_BUDGET` entries, so a far `since` cannot make a
 * request read the whole ledger.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Page, StreamEntry } from '../../ports/store.js'
import { invalidInput, type DomainError } from '../errors/domain-error.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { ACTION_LEDGER_STREAM, type ActionEvent } from './action-ledger.js'

export const DEFAULT_FEED_LIMIT = 50
/** Entries one request examines at most. */
export const SCAN_BUDGET = 1000

export interface FeedQuery {
  readonly cursor?: string
  readonly since?: string
  readonly limit?: number
}

export interface ActionLedgerPage {
  readonly events: readonly ActionEvent[]
  readonly nextCursor: string | null
}

/**
 * @example await readActionLedger(deps, { limit: 10 }) // right({ events: […], nextCursor: '0000000000000010' })
 */
export async function readActionLedger(deps: Pick<CoreDeps, 'store'>, query: FeedQuery): Promise<Either<DomainError, ActionLedgerPage>> {
  const limit = query.limit ?? DEFAULT_FEED_LIMIT
  const since = query.since === undefined ? undefined : Date.parse(query.since)
  const events: ActionEvent[] = []
  let position = query.cursor ?? null
  let examined = 0
  while (events.length < limit && examined < SCAN_BUDGET) {
    const page = await readAfter(deps, position, Math.min(SCAN_BUDGET - examined, Math.max(limit - events.length, 100)))
    if (E.isLeft(page)) return page
    for (const entry of page.right.items) {
      examined += 1
      position = entry.cursor
      const event = entry.value as unknown as ActionEvent
      if (since === undefined || Date.parse(event.createdAt) >= since) events.push(publicEvent(event))
      if (events.length === limit) break
    }
    if (page.right.nextCursor === null || page.right.items.length === 0) break
  }
  if (query.cursor !== undefined && examined === 0 && !(await isEndCursor(deps, query.cursor))) return E.left(invalidInput(NOT_A_CURSOR))
  return E.right({ events, nextCursor: position })
}

const NOT_A_CURSOR = 'cursor is not a cursor of this feed'

/**
 * Nothing follows `cursor`: a cursor this feed handed out is then the ledger's head. Anything
 * else is forged (past the end, or from another ledger). Entries committed meanwhile move the
 * head, so a cursor that now has entries after it is a real position too.
 */
async function isEndCursor(deps: Pick<CoreDeps, 'store'>, cursor: string): Promise<boolean> {
  const head = await deps.store.streamHead(ACTION_LEDGER_STREAM)
  if (head?.cursor === cursor) return true
  const again = await readAfter(deps, cursor, 1)
  return E.isRight(again) && again.right.items.length > 0
}

/** Only the published members, whatever else an entry may hold. */
function publicEvent(event: ActionEvent): ActionEvent {
  return { id: event.id, kind: event.kind, action: event.action, actor: event.actor, createdAt: event.createdAt, pulse: event.pulse }
}

/**
 * Store adapters refuse a cursor that is not theirs with a RangeError; that is the client's
 * mistake (400), unlike any other failure.
 */
async function readAfter(deps: Pick<CoreDeps, 'store'>, after: string | null, limit: number): Promise<Either<DomainError, Page<StreamEntry>>> {
  try {
    return E.right(await deps.store.readStream(ACTION_LEDGER_STREAM, { ...(after === null ? {} : { after }), limit }))
  } catch (error) {
    if (error instanceof RangeError) return E.left(invalidInput(NOT_A_CURSOR))
    throw error
  }
}

/**
 * @example await getActionLedger({ params: {}, query: { limit: 10 }, body: undefined, principal: ANONYMOUS }, deps)
 */
export const getActionLedger: UseCaseFor<'getActionLedger'> = async (request, deps) => {
  const { query } = request
  const page = await readActionLedger(deps, query)
  if (E.isLeft(page)) return page
  return E.right(json({ ok: true, cursor: query.cursor ?? null, since: query.since ?? null, nextCursor: page.right.nextCursor, events: page.right.events }))
}
