/**
 * A source a subject published, as stored: keyed by SHA-256 of subject and artifact digest, so
 * publishing the same artifact again finds it and answers `already-published`.
 */
import * as t from 'io-ts'
import { typedCollection } from '../usecases/typed-collection.js'
import { subjectSourcesSpec } from './runtime-collections.js'

const SourceRecordCodec = t.readonly(t.type({
  subjectId: t.string, artifactSha256: t.string, sourceKind: t.string, sourceBindingDigest: t.string, head: t.string, publishedAtMs: t.number,
}))
export type SourceRecord = t.TypeOf<typeof SourceRecordCodec>

export const subjectSources = typedCollection(subjectSourcesSpec, SourceRecordCodec)
