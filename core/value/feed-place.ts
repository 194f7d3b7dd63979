/**
 * Where a movement's public event sits in the wallet feed is the Store's to say: movements append
 * their events with `appendNext`, so an event's receipt (its sequence, the chain heads around it,
 * the page that holds it) is known only once its commit applied. The live answer takes it from the
 * commit's `appended`; a saved answer names its event and the feed position its batch read, and a
 * replay finds the event after that position. Both build the event exactly as the feed serves it
 * (`publishedEntry`), so an answer and its replay are equal, byte for byte.
 */
import type { Json, StreamEntry, StreamHead } from '../../ports/store.js'
import { readStreamAfter } from '../ledger/feed-page.js'
import type { CoreDeps } from '../usecases/use-case.js'
import type { IdempotencyRecord } from './idempotency.js'
import { publishedEntry, walletLedger, WALLET_LEDGER_STREAM, type PublishedWalletEvent, type WalletLedgerEventValue } from './wallet-feed.js'

/** A position of the feed: after `sequence` entries, at `cursor` (null: the start). */
interface FeedPosition {
  readonly sequence: number
  readonly cursor: string | null
}

/** Entries read at a time while looking for a position. */
const PAGE = 1000
/** A replay's first page: its event is among the first few entries after where its batch read, unless other hosts appended many meanwhile. */
const REPLAY_FIRST_PAGE = 32

/**
 * The published events of one commit's feed `entries` (with the stored `values` they hold), in
 * order. `before` is the feed head the batch read before deciding: when another host appended in
 * between, the entry before the first event is read to learn its cursor.
 */
export async function placedEvents(
  deps: Pick<CoreDeps, 'store'>, entries: readonly StreamEntry[], values: readonly WalletLedgerEventValue[], before: StreamHead | undefined,
): Promise<PublishedWalletEvent[]> {
  const events: PublishedWalletEvent[] = []
  let known: FeedPosition = before ? { sequence: before.sequence, cursor: before.cursor } : { sequence: 0, cursor: null }
  for (const [i, entry] of entries.entries()) {
    const priorCursor = entry.sequence === known.sequence + 1 ? known.cursor : await cursorBefore(deps, entry.sequence, known)
    events.push(publishedEntry(values[i]!, entry, priorCursor))
    known = { sequence: entry.sequence, cursor: entry.cursor }
  }
  return events
}

/** The saved answer as first given: one that names its event gets the event back, found in the feed. */
export async function replayedRecord(deps: Pick<CoreDeps, 'store'>, saved: IdempotencyRecord): Promise<IdempotencyRecord> {
  if (saved.answerEvent === undefined) return saved
  const event = await findEvent(deps, saved.answerEvent.id, saved.answerEvent.after)
  return { ...saved, reply: answerWithEvent(saved.reply, event) }
}

/** An answer (a JSON object) ending with `event` as its member `event`. */
export function answerWithEvent(answer: Json, event: PublishedWalletEvent): Json {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw new TypeError('An answer that ends with its event is a JSON object')
  return { ...answer, event }
}

/** The cursor of the entry at `sequence − 1`, read forward from `known`. */
async function cursorBefore(deps: Pick<CoreDeps, 'store'>, sequence: number, known: FeedPosition): Promise<string | null> {
  for await (const { entry } of feedAfter(deps, known.cursor, Math.min(PAGE, sequence - 1 - known.sequence))) {
    if (entry.sequence === sequence - 1) return entry.cursor
  }
  throw new Error(`The wallet feed ends before entry ${sequence - 1}, which its commit reported`)
}

/** The event `id`, found after `after` (its batch read the feed there before the event was committed). */
async function findEvent(deps: Pick<CoreDeps, 'store'>, id: string, after: string | null): Promise<PublishedWalletEvent> {
  for await (const { entry, priorCursor } of feedAfter(deps, after, REPLAY_FIRST_PAGE)) {
    const value = walletLedger.decode(entry)
    if (value.id === id) return publishedEntry(value, entry, priorCursor)
  }
  throw new Error(`The saved answer's wallet event ${id} is not in the feed after its batch's position`)
}

/** The feed's entries after `cursor`, each with the cursor just before it: `firstPage` entries first, then PAGE at a time. */
async function* feedAfter(deps: Pick<CoreDeps, 'store'>, cursor: string | null, firstPage: number): AsyncGenerator<{ entry: StreamEntry; priorCursor: string | null }> {
  for (let pageSize = firstPage; ; pageSize = PAGE) {
    const page = await readStreamAfter(deps, WALLET_LEDGER_STREAM, cursor, pageSize)
    for (const entry of page.items) {
      yield { entry, priorCursor: cursor }
      cursor = entry.cursor
    }
    if (page.items.length === 0 || page.nextCursor === null) return
  }
}
