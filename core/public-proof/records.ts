/**
 * Public proof records as stored: the published record plus what the service keeps beside it
 * (who published it and a digest of its content, so a replayed feed is recognised). Every change
 * to a record is a leaf of the transparency log, committed with it.
 */
import * as t from 'io-ts'
import type { CollectionSpec } from '../../ports/store.js'
import { PublicProofRecord as PublicProofRecordCodec } from '../contract/schemas/public-proof.js'
import { sha256Hex, sha256OfJson } from '../digest/sha256.js'
import type { LogLeaf } from '../tlog/sequence.js'
import { typedCollection } from '../usecases/typed-collection.js'
import { partnerFeedMarksCollection } from './partner-freshness.js'

export type PublicProofRecord = t.TypeOf<typeof PublicProofRecordCodec>

export const PUBLIC_PROOF_RECORDS = 'publicProof.records'

/**
 * The stored document: the public record's fields at the top level (indexes read them) plus
 * bookkeeping: `publisher` is `observer` for observations, `partner:<id>` or `user:<id>` for feed
 * records; `contentDigest` the SHA-256 of what the publisher said about the record (equal digests
 * mean nothing changed). Both were stored from the first record on.
 */
const StoredPublicProofCodec = t.intersection([PublicProofRecordCodec, t.type({ publisher: t.string, contentDigest: t.string })])
export type StoredPublicProof = t.TypeOf<typeof StoredPublicProofCodec>

export const publicProofRecords = typedCollection({
  name: PUBLIC_PROOF_RECORDS,
  indexes: [
    { name: 'byCreator', fields: ['externalCreatorId', 'createdAt'] },
    { name: 'byNamespace', fields: ['namespace', 'createdAt'] },
    { name: 'byUrl', fields: ['sourceUrl', 'createdAt'] },
  ],
}, StoredPublicProofCodec)

export const publicProofCollections: readonly CollectionSpec[] = [publicProofRecords.spec, partnerFeedMarksCollection]

/** The record as the API answers it (bookkeeping removed). */
export function publicRecordOf(stored: StoredPublicProof): PublicProofRecord {
  const { publisher: _publisher, contentDigest: _contentDigest, ...record } = stored
  return record
}

/** IDs are derived, so the same observation or partner record maps to one record on every host. */
export function observedRecordId(canonicalUrl: string): string {
  return `pp_${sha256Hex(`cairn.public-proof.observed\n${canonicalUrl}`).slice(0, 32)}`
}

export function publishedRecordId(publisher: string, partnerRecordId: string): string {
  return `pp_${sha256Hex(`cairn.public-proof.published\n${publisher}\n${partnerRecordId}`).slice(0, 32)}`
}

/**
 * The log leaf of one version of a record: anyone holding the record (as the API answers it)
 * rebuilds it and finds its inclusion proof at `GET /log/proof/leaf/{hash}`.
 */
export function publicProofLeaf(record: PublicProofRecord): LogLeaf {
  return { kind: 'cairn.public_proof.v1', id: record.id ?? '', state: record.state ?? 'observed', sha256: sha256OfJson(record) }
}
