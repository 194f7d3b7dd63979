/**
 * A used one-use nonce, kept until it can no longer be presented (`expiresAtMs`): a ProofConsent
 * challenge's (with the identity key that signed it) or a recipient resolution's operation nonce
 * (with the locator it produced, null when the resolution failed). Only its presence is ever read.
 */
import * as t from 'io-ts'
import { nullableString, typedCollection } from '../usecases/typed-collection.js'
import { runtimeChallengesSpec } from './runtime-collections.js'

const UsedChallengeRecordCodec = t.readonly(t.intersection([
  t.type({ applicationId: t.string, operation: t.string, usedAtMs: t.number, expiresAtMs: t.number }),
  t.partial({ identityKeyId: t.string, locatorDigest: nullableString }),
]))
export type UsedChallengeRecord = t.TypeOf<typeof UsedChallengeRecordCodec>

export const usedChallenges = typedCollection(runtimeChallengesSpec, UsedChallengeRecordCodec)
