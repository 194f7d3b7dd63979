/**
 * `GET /api/wallet/ledger/public`: the public wallet ledger page by page, with the same paging as
 * the action ledger (`cursor`, `since`, `nextCursor`; core/ledger/feed-page.ts) and the
 * rollup over the whole ledger. Every event carries its receipt (its place in the chained stream)
 * and a `proofBundle.verifyPath` to the page holding exactly that event.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { DomainError } from '../errors/domain-error.js'
import { readFeedPage, type FeedPage, type FeedQuery, type FeedReader } from '../ledger/feed-page.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { loadRollup, publishedEntry, walletLedger, type PublishedWalletEvent, type WalletLedgerEventValue } from './wallet-feed.js'

const walletLedgerReader: FeedReader<WalletLedgerEventValue, PublishedWalletEvent> = {
  stream: walletLedger,
  createdAtOf: (event) => event.createdAt,
  publish: publishedEntry,
}

/** @example await readWalletLedger(deps, { limit: 10 }) */
export function readWalletLedger(deps: Pick<CoreDeps, 'store'>, query: FeedQuery): Promise<Either<DomainError, FeedPage<PublishedWalletEvent>>> {
  return readFeedPage(deps, walletLedgerReader, query)
}

export const getWalletLedger: UseCaseFor<'getWalletLedger'> = async (request, deps) => {
  const query: FeedQuery = request.query
  const page = await readWalletLedger(deps, query)
  if (E.isLeft(page)) return page
  const rollup = await loadRollup(deps)
  return E.right(json({ ok: true, cursor: query.cursor ?? null, since: query.since ?? null, nextCursor: page.right.nextCursor, events: page.right.events, rollup }))
}
