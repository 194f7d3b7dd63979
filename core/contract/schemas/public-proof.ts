/**
 * Public proof components: metadata-only records observed for public URLs (the work itself is
 * never hosted), and the app-state projection feeds partners publish into the registry.
 */
import * as t from 'io-ts'
import { struct } from '../define.js'
import { Base64Url, IsoTimestamp, JsonObject, NonEmptyString, NonNegativeInteger, UrlString } from '../primitives.js'

/** One public proof record: observed for a URL, or published from an app-state feed. */
export const PublicProofRecord = struct(
  'PublicProofRecord',
  {},
  {
    id: NonEmptyString,
    kind: t.keyof({
      observed: null, claimed: null, verified: null, sealed: null, disputed: null, 'rights-scoped': null, 'app-state-projection': null,
    }),
    state: t.keyof({ observed: null, published: null }),
    sourceUrl: UrlString,
    schema: NonEmptyString,
    data: JsonObject,
    externalCreatorId: NonEmptyString,
    namespace: NonEmptyString,
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  },
  'Public proof record (metadata only). `kind` says what is claimed about the source; `state` is `observed` after observe and `published` after a registry feed; `schema`/`data` hold an app-state projection (e.g. `cairn.app.public_store_state_projection.v1`). A record is an observation, never proof of ownership.',
)

/** Result of observing a public URL. */
export const PublicProofObserveResponse = struct(
  'PublicProofObserveResponse',
  { ok: t.literal(true), record: PublicProofRecord },
  { created: t.boolean },
  'Observe result; `created` is false when the URL was already observed (the existing record is returned).',
)

/** One record by ID or canonical URL. */
export const PublicProofLookupResponse = struct(
  'PublicProofLookupResponse',
  { ok: t.literal(true) },
  { record: t.union([PublicProofRecord, t.null]) },
  'Lookup result. By URL, an unobserved URL gives `record: null`; an unknown ID is a 4XX.',
)

/** Records of one creator or namespace. */
export const PublicProofCollectionResponse = struct(
  'PublicProofCollectionResponse',
  { ok: t.literal(true), records: t.array(PublicProofRecord) },
  { nextCursor: t.union([t.string, t.null]) },
  'A page of records, newest first; `nextCursor` is null on the last page.',
)

/** The registry's own feed of published records. */
export const PublicProofRegistryFeed = struct(
  'PublicProofRegistryFeed',
  { schema: t.literal('cairn.public_proof.registry_feed.v1'), records: t.array(PublicProofRecord) },
  { generatedAt: IsoTimestamp, nextCursor: t.union([t.string, t.null]) },
  'Registry feed as the registry publishes it: public proof records, oldest first.',
)

/** One app-state projection record a partner publishes. */
export const CairnAppStateRecord = struct(
  'CairnAppStateRecord',
  { id: NonEmptyString, sourceUrl: UrlString, schema: NonEmptyString, data: JsonObject },
  { namespace: NonEmptyString, externalCreatorId: NonEmptyString, updatedAt: IsoTimestamp },
  'App-state projection. `id` is the partner\'s stable record ID (republishing it updates the record); `schema` is the projection identifier, e.g. `cairn.app.public_store_state_projection.v1`; `data` the projection itself.',
)

const FeedSignature = struct('FeedSignature', { kid: NonEmptyString, alg: NonEmptyString, sig: Base64Url }, { partnerId: NonEmptyString })

/** A batch of app-state records for the registry; optionally signed by a partner key. */
export const CairnAppStateFeed = struct(
  'CairnAppStateFeed',
  { schema: NonEmptyString, records: t.array(CairnAppStateRecord) },
  { signature: FeedSignature, issuedAt: IsoTimestamp, sequence: NonNegativeInteger },
  'App-state feed (`schema` e.g. `cairn.app_state_feed.v1`). Signed partner feeds add `signature`: a JWS-algorithm signature (`alg`, `kid`) over the RFC 8785 canonical JSON of `{ schema, issuedAt, sequence, records }`; `issuedAt` and `sequence` (the partner\'s own counter) are required when signed, and a signed feed is accepted only when newer than the last one accepted from its partner (409 otherwise). Every record of a signed feed carries `updatedAt`.',
)

const Rejection = struct('FeedRejection', { index: NonNegativeInteger, reason: t.string }, { id: t.string })

/** Per-record result of publishing a feed. */
export const PublicProofRegistryFeedResponse = struct(
  'PublicProofRegistryFeedResponse',
  { ok: t.literal(true) },
  { accepted: NonNegativeInteger, rejected: NonNegativeInteger, records: t.array(PublicProofRecord), rejections: t.array(Rejection) },
  'Feed result: accepted records (state `published`) and, per rejected record, its index and a plain-sentence reason.',
)

export const publicProofComponents = {
  PublicProofRecord, PublicProofObserveResponse, PublicProofLookupResponse, PublicProofCollectionResponse, PublicProofRegistryFeed,
  PublicProofRegistryFeedResponse, CairnAppStateFeed, CairnAppStateRecord,
} as const
