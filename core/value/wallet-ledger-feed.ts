/**
 * `GET /api/wallet/ledger/public`: the public wallet ledger page by page, with the same paging as
 * the action ledger (`cursor`, `since`, `nextCursor`; core/ledger/action-ledger-feed.ts) and the
 * rollup over the whole ledger. Every event carries its receipt (its place in the chained stream)
 * and a `proofBundle.verifyPath` to the page holding exactly that event.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Page, StreamEntry } from '../../ports/store.js'
import { invalidInput, type DomainError } from '../errors/domain-error.js'
import { DEFAULT_FEED_LIMIT, SCAN_BUDGET, type FeedQuery } from '../ledger/action-ledger-feed.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { loadRollup, publishedEvent, WALLET_LEDGER_STREAM, type PublishedWalletEvent, type WalletLedgerEventValue } from './wallet-feed.js'

export async function readWalletLedger(deps: Pick<CoreDeps, 'store'>, query: FeedQuery): Promise<Either<DomainError, { events: PublishedWalletEvent[]; nextCursor: string | null }>> {
  const limit = query.limit ?? DEFAULT_FEED_LIMIT
  const since = query.since === undefined ? undefined : Date.parse(query.since)
  const events: PublishedWalletEvent[] = []
  let position = query.cursor ?? null
  let examined = 0
  while (events.length < limit && examined < SCAN_BUDGET) {
    const page = await readAfter(deps, position, Math.min(SCAN_BUDGET - examined, Math.max(limit - events.length, 100)))
    if (E.isLeft(page)) return page
    for (const entry of page.right.items) {
      examined += 1
      const priorCursor = position
      position = entry.cursor
      const value = entry.value as unknown as WalletLedgerEventValue
      if (since === undefined || Date.parse(value.createdAt) >= since) {
        events.push(publishedEvent(value, { sequence: entry.sequence, entryDigest: entry.entryDigest, priorHead: entry.priorHead, head: entry.head, priorCursor }))
      }
      if (events.length === limit) break
    }
    if (page.right.nextCursor === null || page.right.items.length === 0) break
  }
  return E.right({ events, nextCursor: position })
}

async function readAfter(deps: Pick<CoreDeps, 'store'>, after: string | null, limit: number): Promise<Either<DomainError, Page<StreamEntry>>> {
  try {
    return E.right(await deps.store.readStream(WALLET_LEDGER_STREAM, { ...(after === null ? {} : { after }), limit }))
  } catch (error) {
    if (error instanceof RangeError) return E.left(invalidInput('cursor is not a cursor of this feed'))
    throw error
  }
}

export const getWalletLedger: UseCaseFor<'getWalletLedger'> = async (request, deps) => {
  const query: FeedQuery = request.query
  const page = await readWalletLedger(deps, query)
  if (E.isLeft(page)) return page
  const { rollup } = await loadRollup(deps)
  return E.right(json({ ok: true, cursor: query.cursor ?? null, since: query.since ?? null, nextCursor: page.right.nextCursor, events: page.right.events, rollup }))
}
