/**
 * An access grant to a domain's private additions as stored, keyed by `grantKeyOf(handle)`.
 * `issuerSubjectId`: who granted it (the verified actor of the granting event, or whom
 * `grantDomainAccess` was told); it opens only this subject's payloads. Absent on grants stored
 * before grants opened only what the grantor owns: such a grant opens nothing and nobody revokes it
 * by an event.
 */
import * as t from 'io-ts'
import { V124PortableSealedArtifact } from '../../contract/schemas/runtime/sources.js'
import { typedCollection } from '../../usecases/typed-collection.js'
import { domainGrantsSpec } from './domain-records.js'

/** An EC P-256 public key as a JWK (only these members are kept). */
const AccessKeyJwkCodec = t.readonly(t.type({ kty: t.literal('EC'), crv: t.literal('P-256'), x: t.string, y: t.string }))
export type AccessKeyJwk = t.TypeOf<typeof AccessKeyJwkCodec>

const GrantRecordCodec = t.readonly(t.intersection([
  t.type({
    domainKey: t.string, applicationId: t.string, domainId: t.string, viewerSubjectId: t.string, namespaces: t.readonlyArray(t.string),
    accessKeyJwk: AccessKeyJwkCodec, accessKeyHead: t.string, grantHead: t.string, grantedAtMs: t.number,
    accessGrantSourceArtifact: V124PortableSealedArtifact, viewerSubjectSourceArtifact: V124PortableSealedArtifact,
  }),
  t.partial({ issuerSubjectId: t.string }),
]))
export type GrantRecord = t.TypeOf<typeof GrantRecordCodec>

export const domainGrants = typedCollection(domainGrantsSpec, GrantRecordCodec)
