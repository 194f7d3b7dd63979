/**
 * Freshness of signed partner feeds: each signed feed names when it was issued (`issuedAt`) and its
 * place in the partner's own order (`sequence`), both under the signature. The registry keeps the
 * last accepted pair per partner and takes a feed only when it is newer, so a captured feed
 * replayed later (by anyone holding a `cairn:record` token) cannot roll the partner's records back.
 * The partner's mark is written in the same commit as the records the feed changes.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { CollectionSpec, Store, Write } from '../../ports/store.js'
import { NonNegativeInteger } from '../contract/primitives.js'
import { conflict, unprocessable, type DomainError } from '../errors/domain-error.js'
import { typedCollection, unchangedSince } from '../usecases/typed-collection.js'

export const PARTNER_FEED_MARKS = 'publicProof.partnerFeedMarks'

/** A signed feed may be issued at most this far ahead of the registry's clock (clock skew). */
export const MAX_FEED_CLOCK_SKEW_MS = 5 * 60_000
/** A signed feed older than this is refused: sign it again with the next sequence. */
export const MAX_FEED_AGE_MS = 24 * 3600_000

/** The last signed feed accepted from one partner. */
export const PartnerFeedMark = t.type({
  partnerId: t.string,
  sequence: NonNegativeInteger,
  issuedAt: t.string,
  /** SHA-256 of the accepted feed's signed bytes: a retransmission is told it was accepted already. */
  feedDigest: t.string,
}, 'PartnerFeedMark')
export type PartnerFeedMark = t.TypeOf<typeof PartnerFeedMark>

const partnerFeedMarks = typedCollection({ name: PARTNER_FEED_MARKS }, PartnerFeedMark)
export const partnerFeedMarksCollection: CollectionSpec = partnerFeedMarks.spec

export interface StoredMark {
  readonly mark: PartnerFeedMark
  readonly version: number
}

/** The partner's mark as stored, decoded; a document that does not decode is a fault, not a fresh partner. */
export async function loadPartnerFeedMark(store: Store, partnerId: string): Promise<StoredMark | undefined> {
  const found = await partnerFeedMarks.get(store, partnerId)
  return found && { mark: found.value, version: found.version }
}

/** The write that moves the partner's mark forward, guarded by what was read. */
export function partnerFeedMarkWrite(mark: PartnerFeedMark, prior: StoredMark | undefined): Write {
  return partnerFeedMarks.put(mark.partnerId, mark, unchangedSince(prior?.version ?? null))
}

/** What a signed feed says of itself, under its signature. */
export interface FeedFreshness {
  readonly issuedAt: string
  readonly sequence: number
}

export const FRESHNESS_REQUIRED = 'A signed feed carries issuedAt and sequence (both under the signature), so it cannot be replayed'

/**
 * Pure: the mark a signed feed sets, or why it is refused — 422 issued out of the accepted window,
 * 409 not newer than the last accepted feed.
 *
 * @example decideFreshness('shopco', { issuedAt, sequence: 8 }, digest, stored, Date.now()) // right(mark)
 */
export function decideFreshness(partnerId: string, feed: FeedFreshness, feedDigest: string, prior: StoredMark | undefined, nowMs: number): Either<DomainError, PartnerFeedMark> {
  const issuedMs = Date.parse(feed.issuedAt)
  if (issuedMs > nowMs + MAX_FEED_CLOCK_SKEW_MS) return E.left(unprocessable(`issuedAt ${feed.issuedAt} is in the future; a feed may be at most ${MAX_FEED_CLOCK_SKEW_MS / 60_000} minutes ahead of the registry's clock`))
  if (issuedMs < nowMs - MAX_FEED_AGE_MS) return E.left(unprocessable(`issuedAt ${feed.issuedAt} is more than ${MAX_FEED_AGE_MS / 3600_000} hours old; sign the feed again with the next sequence`))
  if (prior) {
    const last = prior.mark
    if (feed.sequence === last.sequence && feedDigest === last.feedDigest) return E.left(conflict(`This feed (sequence ${feed.sequence}) was accepted already; nothing was written`))
    if (feed.sequence <= last.sequence) return E.left(conflict(`Feed sequence ${feed.sequence} is not newer than the last feed accepted from partner ${partnerId} (sequence ${last.sequence}); nothing was written`))
    if (issuedMs < Date.parse(last.issuedAt)) return E.left(conflict(`issuedAt ${feed.issuedAt} is older than the last feed accepted from partner ${partnerId} (${last.issuedAt}); nothing was written`))
  }
  return E.right({ partnerId, sequence: feed.sequence, issuedAt: new Date(issuedMs).toISOString(), feedDigest })
}
