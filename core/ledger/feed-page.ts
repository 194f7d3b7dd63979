/**
 * One page of an append-only public feed (the action ledger, the wallet ledger), read the same way
 * for every feed.
 *
 * Paging: `cursor` continues strictly after a position; `since` skips events created before a
 * time. `nextCursor` is where to continue — the position after the last entry examined — so a
 * poller always holds a cursor; it equals the request's `cursor` when nothing new was there (that
 * is the current end). A page may hold fewer than `limit` events, even none, without being the
 * end: one request examines at most `SCAN_BUDGET` entries, so a far `since` cannot make a request
 * read the whole feed. A cursor the feed never handed out is a 400.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Page, StreamEntry } from '../../ports/store.js'
import { invalidInput, type DomainError } from '../errors/domain-error.js'
import type { TypedStream } from '../usecases/typed-stream.js'
import type { CoreDeps } from '../usecases/use-case.js'

export const DEFAULT_FEED_LIMIT = 50
/** Entries one request examines at most. */
export const SCAN_BUDGET = 1000

export interface FeedQuery {
  readonly cursor?: string
  readonly since?: string
  readonly limit?: number
}

/** How a feed turns the stored values of its stream into published events. */
export interface FeedReader<Stored, Event> {
  readonly stream: TypedStream<Stored>
  /** When the stored event was created (ISO 8601), for `since`. */
  createdAtOf(stored: Stored): string
  /** The published event of `stored`, held by `entry`; `priorCursor` is the position just before the entry. */
  publish(stored: Stored, entry: StreamEntry, priorCursor: string | null): Event
}

export interface FeedPage<Event> {
  readonly events: readonly Event[]
  readonly nextCursor: string | null
}

const NOT_A_CURSOR = 'cursor is not a cursor of this feed'

/** @example await readFeedPage(deps, actionLedgerReader, { limit: 10 }) */
export async function readFeedPage<Stored, Event>(deps: Pick<CoreDeps, 'store'>, feed: FeedReader<Stored, Event>, query: FeedQuery): Promise<Either<DomainError, FeedPage<Event>>> {
  const limit = query.limit ?? DEFAULT_FEED_LIMIT
  const since = query.since === undefined ? undefined : Date.parse(query.since)
  const events: Event[] = []
  let position = query.cursor ?? null
  let examined = 0
  while (events.length < limit && examined < SCAN_BUDGET) {
    const page = await readAfter(deps, feed.stream.name, position, Math.min(SCAN_BUDGET - examined, Math.max(limit - events.length, 100)))
    if (E.isLeft(page)) return page
    for (const entry of page.right.items) {
      examined += 1
      const priorCursor = position
      position = entry.cursor
      const stored = feed.stream.decode(entry)
      if (since === undefined || Date.parse(feed.createdAtOf(stored)) >= since) events.push(feed.publish(stored, entry, priorCursor))
      if (events.length === limit) break
    }
    if (page.right.nextCursor === null || page.right.items.length === 0) break
  }
  if (query.cursor !== undefined && examined === 0 && !(await isEndCursor(deps, feed.stream.name, query.cursor))) return E.left(invalidInput(NOT_A_CURSOR))
  return E.right({ events, nextCursor: position })
}

/**
 * Nothing follows `cursor`: a cursor this feed handed out is then the feed's head. Anything else is
 * forged (past the end, or from another feed). Entries committed meanwhile move the head, so a
 * cursor that now has entries after it is a real position too.
 */
async function isEndCursor(deps: Pick<CoreDeps, 'store'>, stream: string, cursor: string): Promise<boolean> {
  const head = await deps.store.streamHead(stream)
  if (head?.cursor === cursor) return true
  const again = await readAfter(deps, stream, cursor, 1)
  return E.isRight(again) && again.right.items.length > 0
}

/** Store adapters refuse a cursor that is not theirs with a RangeError: the client's mistake (400). */
async function readAfter(deps: Pick<CoreDeps, 'store'>, stream: string, after: string | null, limit: number): Promise<Either<DomainError, Page<StreamEntry>>> {
  try {
    return E.right(await readStreamAfter(deps, stream, after, limit))
  } catch (error) {
    if (error instanceof RangeError) return E.left(invalidInput(NOT_A_CURSOR))
    throw error
  }
}

/** Up to `limit` entries of `stream` after the position `after` (null: from the start). */
export function readStreamAfter(deps: Pick<CoreDeps, 'store'>, stream: string, after: string | null, limit: number): Promise<Page<StreamEntry>> {
  return deps.store.readStream(stream, { ...(after === null ? {} : { after }), limit })
}
