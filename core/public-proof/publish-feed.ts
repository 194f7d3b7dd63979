/**
 * `POST /api/public-proof/registry/feed`: partners publish app-state projection records. Each
 * record is accepted (state `published`) or rejected with a reason; every accepted change is one
 * Store commit together with its log leaves. A record whose content is unchanged writes nothing,
 * so replaying an unsigned feed changes nothing; a signed feed is taken once, only when newer than
 * the partner's last accepted feed (partner-freshness.ts), its mark moving in the same commit.
 * `OPTIONS` on the same path is a dry run: the same checks and answer, nothing written
 * (docs/decisions.md).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Write } from '../../ports/store.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import type { PartnerConfig } from '../config/deployment-config.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import { sha256Hex, sha256OfJson } from '../digest/sha256.js'
import { conflict, forbidden, invalidInput, type DomainError } from '../errors/domain-error.js'
import { commitWithLeaves } from '../tlog/sequence.js'
import type { CoreDeps, OperationRequest, UseCaseFor } from '../usecases/use-case.js'
import { json } from '../usecases/use-case.js'
import { canonicalSourceUrl } from './canonical-url.js'
import { optionalLabel } from './labels.js'
import { feedSigningBytes, verifyPartnerFeed, type AppStateFeed } from './partner-feed.js'
import { decideFreshness, FRESHNESS_REQUIRED, loadPartnerFeedMark, partnerFeedMarkWrite, type FeedFreshness } from './partner-freshness.js'
import { publicProofLeaf, publicProofRecords, publicRecordOf, publishedRecordId, type PublicProofRecord, type StoredPublicProof } from './records.js'

export const APP_STATE_FEED_SCHEMA = 'cairn.app_state_feed.v1'
export const MAX_FEED_RECORDS = 100
export const MAX_RECORD_DATA_BYTES = 16 * 1024

type FeedRecord = AppStateFeed['records'][number]

export interface Rejection {
  readonly index: number
  readonly id?: string
  readonly reason: string
}

/** What a feed does, decided purely from the feed and the records it would touch. */
export interface FeedDecision {
  readonly accepted: readonly PublicProofRecord[]
  readonly rejections: readonly Rejection[]
  /** Only the records that change (a replayed record is accepted and writes nothing). */
  readonly changes: readonly { readonly stored: StoredPublicProof; readonly expectVersion: number | null }[]
}

export interface Publisher {
  /** `partner:<id>` for a signed feed, `user:<id>` for the token's user. */
  readonly name: string
  readonly partner?: PartnerConfig
  /** A signed feed's `issuedAt` and `sequence`, verified under its signature. */
  readonly freshness?: FeedFreshness
}

type Existing = ReadonlyMap<string, { readonly value: StoredPublicProof; readonly version: number }>

/** Decide one record: the stored form it becomes, or why it is refused. */
function decideRecord(record: FeedRecord, publisher: Publisher, existing: Existing, nowIso: string): Either<string, { stored: StoredPublicProof; expectVersion: number | null; unchanged: boolean }> {
  const url = canonicalSourceUrl(record.sourceUrl, 'sourceUrl')
  if (E.isLeft(url)) return url
  const namespaceLabel = optionalLabel(record.namespace, 'namespace')
  if (E.isLeft(namespaceLabel)) return E.left(namespaceLabel.left.message)
  const creator = optionalLabel(record.externalCreatorId, 'externalCreatorId')
  if (E.isLeft(creator)) return E.left(creator.left.message)
  const namespace = namespaceLabel.right ?? url.right.host
  const allowed = publisher.partner?.namespaces
  if (allowed && !allowed.includes(namespace)) return E.left(`Partner ${publisher.partner!.partnerId} may not publish into namespace ${namespace}`)
  if (canonicalJsonBytes(record.data).length > MAX_RECORD_DATA_BYTES) return E.left(`data must be at most ${MAX_RECORD_DATA_BYTES} bytes of canonical JSON`)

  const id = publishedRecordId(publisher.name, record.id)
  const prior = existing.get(id)
  const contentDigest = sha256OfJson({ sourceUrl: url.right.url, schema: record.schema, data: record.data, namespace, externalCreatorId: creator.right ?? null, updatedAt: record.updatedAt ?? null })
  if (publisher.partner && record.updatedAt === undefined) return E.left('A signed partner record carries updatedAt, so an older copy can never replace a newer one')
  if (prior && prior.value.contentDigest === contentDigest) return E.right({ stored: prior.value, expectVersion: prior.version, unchanged: true })
  if (prior && record.updatedAt !== undefined && prior.value.updatedAt !== undefined) {
    const [next, published] = [Date.parse(record.updatedAt), Date.parse(prior.value.updatedAt)]
    // A partner's changed record must be strictly newer; a user's may repeat the instant it replaces.
    if (next < published || (publisher.partner && next === published)) return E.left(`updatedAt ${record.updatedAt} is not newer than the published version (${prior.value.updatedAt})`)
  }
  const stored: StoredPublicProof = {
    id,
    kind: 'app-state-projection',
    state: 'published',
    sourceUrl: url.right.url,
    schema: record.schema,
    data: record.data,
    namespace,
    ...(creator.right === undefined ? {} : { externalCreatorId: creator.right }),
    createdAt: prior?.value.createdAt ?? nowIso,
    updatedAt: record.updatedAt === undefined ? nowIso : new Date(record.updatedAt).toISOString(),
    publisher: publisher.name,
    contentDigest,
  }
  return E.right({ stored, expectVersion: prior?.version ?? null, unchanged: false })
}

/**
 * @example decideFeed(feed, { name: 'user:u1' }, new Map(), '2026-06-25T00:00:00.000Z')
 */
export function decideFeed(feed: AppStateFeed, publisher: Publisher, existing: Existing, nowIso: string): FeedDecision {
  const accepted: PublicProofRecord[] = []
  const rejections: Rejection[] = []
  const changes: { stored: StoredPublicProof; expectVersion: number | null }[] = []
  const seen = new Set<string>()
  feed.records.forEach((record, index) => {
    if (seen.has(record.id)) {
      rejections.push({ index, id: record.id, reason: `Record ${record.id} appears earlier in this feed` })
      return
    }
    seen.add(record.id)
    const decided = decideRecord(record, publisher, existing, nowIso)
    if (E.isLeft(decided)) {
      rejections.push({ index, id: record.id, reason: decided.left })
      return
    }
    accepted.push(publicRecordOf(decided.right.stored))
    if (!decided.right.unchanged) changes.push({ stored: decided.right.stored, expectVersion: decided.right.expectVersion })
  })
  return { accepted, rejections, changes }
}

/** Who publishes: the verified partner of a signed feed, else the token's user. */
function publisherOf(feed: AppStateFeed, request: OperationRequest<AppStateFeed>, deps: CoreDeps): Either<DomainError, Publisher> {
  if (feed.signature) {
    if (feed.issuedAt === undefined || feed.sequence === undefined) return E.left(invalidInput(FRESHNESS_REQUIRED))
    const freshness = { issuedAt: feed.issuedAt, sequence: feed.sequence }
    const partner = verifyPartnerFeed(feed, deps.config.deployment.partners ?? [])
    return E.isLeft(partner) ? E.left(invalidInput(partner.left)) : E.right({ name: `partner:${partner.right.partnerId}`, partner: partner.right, freshness })
  }
  const principal = request.principal
  return principal.kind === 'bearer' ? E.right({ name: `user:${principal.subject}` }) : E.left(forbidden('Publishing a feed needs a bearer token with the cairn:record scope'))
}

function validateFeed(feed: AppStateFeed): Either<DomainError, AppStateFeed> {
  if (feed.schema !== APP_STATE_FEED_SCHEMA) return E.left(invalidInput(`schema must be ${APP_STATE_FEED_SCHEMA}`))
  if (feed.records.length > MAX_FEED_RECORDS) return E.left(invalidInput(`A feed carries at most ${MAX_FEED_RECORDS} records; split it`))
  return E.right(feed)
}

async function loadExisting(deps: CoreDeps, feed: AppStateFeed, publisher: Publisher): Promise<Existing> {
  const existing = new Map<string, { value: StoredPublicProof; version: number }>()
  for (const id of new Set(feed.records.map((record) => publishedRecordId(publisher.name, record.id)))) {
    const found = await publicProofRecords.get(deps.store, id)
    if (found) existing.set(id, found)
  }
  return existing
}

const answer = (decision: FeedDecision) =>
  json({ ok: true as const, accepted: decision.accepted.length, rejected: decision.rejections.length, records: decision.accepted, rejections: decision.rejections })

async function runFeed(request: OperationRequest<AppStateFeed>, deps: CoreDeps, write: boolean): Promise<Either<DomainError, ReturnType<typeof answer>>> {
  const feed = validateFeed(request.body)
  if (E.isLeft(feed)) return feed
  const publisher = publisherOf(feed.right, request, deps)
  if (E.isLeft(publisher)) return publisher
  const actorUserId = request.principal.kind === 'bearer' ? request.principal.subject : null
  const { partner, freshness } = publisher.right
  const signed = partner && freshness ? { partnerId: partner.partnerId, freshness, digest: sha256Hex(feedSigningBytes(feed.right)) } : undefined
  for (let attempt = 0; attempt < 3; attempt++) {
    // A signed feed's freshness is decided before its records: a stale feed is refused whole.
    const prior = signed ? await loadPartnerFeedMark(deps.store, signed.partnerId) : undefined
    const mark = signed ? decideFreshness(signed.partnerId, signed.freshness, signed.digest, prior, deps.clock.now()) : undefined
    if (mark && E.isLeft(mark)) return mark
    const decision = decideFeed(feed.right, publisher.right, await loadExisting(deps, feed.right, publisher.right), new Date(deps.clock.now()).toISOString())
    if (!write || (decision.changes.length === 0 && !mark)) return E.right(answer(decision))
    const markWrites: Write[] = mark ? [partnerFeedMarkWrite(mark.right, prior)] : []
    const writes: Write[] = [...markWrites, ...decision.changes.map(({ stored, expectVersion }) => publicProofRecords.put(stored.id!, stored, unchangedSince(expectVersion)))]
    const { outcome } = await commitWithLeaves(deps, writes, decision.changes.map(({ stored }) => publicProofLeaf(publicRecordOf(stored))), {
      actions: decision.changes.length === 0 ? [] : [{ kind: 'record', action: 'public_proof_published', actorUserId }],
    })
    if (outcome.ok) return E.right(answer(decision))
    // A concurrent publish changed one of these records or the partner's mark: decide again from what is stored now.
  }
  return E.left(conflict('The records were being published concurrently; try again'))
}

export const publishRegistryFeed: UseCaseFor<'publishRegistryFeed'> = (request, deps) => runFeed(request, deps, true)
export const optionsRegistryFeed: UseCaseFor<'optionsRegistryFeed'> = (request, deps) => runFeed(request, deps, false)
