/**
 * What a domain stores, each declared once with its codec: the domain record (source artifact,
 * owner, current head), one document per addition (public facts only), the private payloads of
 * additions, and the chained value each addition appends to the domain's stream.
 */
import * as t from 'io-ts'
import { V124PortableSealedArtifact } from '../../contract/schemas/runtime/sources.js'
import { nullable, nullableString, typedCollection } from '../../usecases/typed-collection.js'
import { domainAdditionsSpec, domainPrivateSpec, domainsSpec } from './domain-records.js'

/**
 * What is stored per domain. `ownerSubjectId`: the owner of its source artifact (for a domain a
 * plan created, the verified owner of its first member's candidate); only they grant and revoke
 * access in it. Absent on a domain stored before owners were recorded, which then accepts no grant
 * event. `head` and `sequence`: the current head and the sequence of the addition it names (null /
 * -1 before the first).
 */
const DomainRecordCodec = t.readonly(t.intersection([
  t.type({
    applicationId: t.string, domainId: t.string, registryDigest: t.string, reducerDigest: t.string, sourceArtifact: V124PortableSealedArtifact,
    head: nullableString, sequence: t.number, createdAtMs: t.number,
  }),
  t.partial({ ownerSubjectId: t.string }),
]))
export type DomainRecord = t.TypeOf<typeof DomainRecordCodec>

/** name → the namespace's current body digest and head. */
const NamespaceIndexCodec = t.readonly(t.record(t.string, t.readonly(t.type({ digest: t.string, head: t.string }))))
export type NamespaceIndex = t.TypeOf<typeof NamespaceIndexCodec>

/** The chained value of one addition: exactly what the wire addition carries, so a client recomputes the head. */
const ChainedAdditionProps = {
  schema: t.literal('cairn.v124.domain_addition'), appendId: t.string, exactEventBytesB64u: t.string, eventDigest: t.string,
  causalParents: t.readonlyArray(t.string), namespaceHead: t.string, namespaceDigest: t.string,
}
const ChainedAdditionCodec = t.readonly(t.type(ChainedAdditionProps))
export type ChainedAddition = t.TypeOf<typeof ChainedAdditionCodec>

/**
 * What is stored per addition (public facts only). `namespaces`: the namespace index after this
 * addition. `privateAccess`: who may read the private payload document, when there is one (server
 * side only: never on a wire).
 */
const AdditionRecordCodec = t.readonly(t.type({
  ...ChainedAdditionProps,
  domainKey: t.string, headKey: t.string, appendKey: t.string, sequence: t.number, namespace: t.string, priorHead: nullableString, newHead: t.string,
  namespaces: NamespaceIndexCodec,
  privateAccess: nullable(t.readonly(t.type({ visibility: t.keyof({ private: null, grant: null }), ownerSubjectId: t.string }))),
}))
export type AdditionRecord = t.TypeOf<typeof AdditionRecordCodec>

/** A private payload as stored. */
const PrivateRecordCodec = t.readonly(t.type({ payloadB64u: t.string }))
export type PrivateRecord = t.TypeOf<typeof PrivateRecordCodec>

export const domains = typedCollection(domainsSpec, DomainRecordCodec)
export const domainAdditions = typedCollection(domainAdditionsSpec, AdditionRecordCodec)
export const domainPrivate = typedCollection(domainPrivateSpec, PrivateRecordCodec)
