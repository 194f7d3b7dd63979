/**
 * A one-use recipient locator as stored until it expires, keyed by its digest; `usedAtMs` is set by
 * its one redemption.
 */
import * as t from 'io-ts'
import { nullableNumber, typedCollection } from '../usecases/typed-collection.js'
import { recipientLocatorsSpec } from './runtime-collections.js'

const LocatorRecordCodec = t.readonly(t.type({
  locatorDigest: t.string, applicationId: t.string, requesterSubjectId: t.string, recipientSubjectId: t.string, purpose: t.string,
  expiresAtMs: t.number, usedAtMs: nullableNumber,
}))
export type LocatorRecord = t.TypeOf<typeof LocatorRecordCodec>

export const recipientLocators = typedCollection(recipientLocatorsSpec, LocatorRecordCodec)
