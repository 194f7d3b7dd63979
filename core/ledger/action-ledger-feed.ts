/**
 * `GET /api/ledger/actions/public`: the public action ledger, page by page (paging rules:
 * feed-page.ts).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { DomainError } from '../errors/domain-error.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { actionLedger, type ActionEvent } from './action-ledger.js'
import { readFeedPage, type FeedPage, type FeedQuery, type FeedReader } from './feed-page.js'

export { DEFAULT_FEED_LIMIT, SCAN_BUDGET, type FeedQuery } from './feed-page.js'

export type ActionLedgerPage = FeedPage<ActionEvent>

/** Only the published members, whatever else an entry may hold. */
const actionLedgerReader: FeedReader<ActionEvent, ActionEvent> = {
  stream: actionLedger,
  createdAtOf: (event) => event.createdAt,
  publish: (event) => ({ id: event.id, kind: event.kind, action: event.action, actor: event.actor, createdAt: event.createdAt, pulse: event.pulse }),
}

/**
 * @example await readActionLedger(deps, { limit: 10 }) // right({ events: […], nextCursor: '0000000000000010' })
 */
export function readActionLedger(deps: Pick<CoreDeps, 'store'>, query: FeedQuery): Promise<Either<DomainError, ActionLedgerPage>> {
  return readFeedPage(deps, actionLedgerReader, query)
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
