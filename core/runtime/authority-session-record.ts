/**
 * An authority session as stored, keyed by SHA-256 of its handle (the handle itself is never
 * stored): its bindings, its lifetime, and how it ended (`closedRevocationHead`: the revocation
 * head the close appended).
 */
import * as t from 'io-ts'
import { V124AuthorityNamespaceHead } from '../contract/schemas/runtime/authority-sessions.js'
import { nullableNumber, nullableString, typedCollection } from '../usecases/typed-collection.js'
import { authoritySessionsSpec } from './runtime-collections.js'

const AuthoritySessionRecordCodec = t.readonly(t.type({
  status: t.keyof({ active: null, refreshed: null, closed: null }),
  applicationId: t.string, audience: t.string, ownerUserId: t.string, actorSubjectId: t.string,
  subjectSourceArtifactSha256: t.string, identityArtifactSha256: t.string, identityKeyId: t.string,
  grantedScopes: t.readonlyArray(t.string), grantedRails: t.readonlyArray(t.string), namespaces: t.readonlyArray(V124AuthorityNamespaceHead),
  revocationHead: t.string, issuedAtMs: t.number, expiresAtMs: t.number, issuedAtKaiUPulse: t.number, expiresAtKaiUPulse: t.number,
  sessionBindingDigest: t.string, runtimeReceiptDigest: t.string, closedAtMs: nullableNumber, closedRevocationHead: nullableString,
}))
export type AuthoritySessionRecord = t.TypeOf<typeof AuthoritySessionRecordCodec>

export const authoritySessions = typedCollection(authoritySessionsSpec, AuthoritySessionRecordCodec)
