/** Byte-exact namespace projections of a subject at one authenticated head. */
import * as t from 'io-ts'
import { struct } from '../../define.js'
import { RuntimeAuthority } from './authority.js'
import { V124Digest } from './digests.js'
import { V124DomainNamespaceProjection } from './domains.js'
import { V124ApplicationId } from './identifiers.js'
import { V124PortableSealedArtifact } from './sources.js'
import { RuntimeId, Slug } from './values.js'

/** Resolve named namespaces at one exact head with pinned proof, ownership, registry and reducer. */
export const V124NamespaceResolutionRequest = struct(
  'V124NamespaceResolutionRequest',
  {
    applicationId: V124ApplicationId,
    subjectId: RuntimeId,
    atHead: V124Digest,
    names: t.array(Slug),
    expectedAdmittedProofDigest: V124Digest,
    expectedOwnershipHead: V124Digest,
    expectedRegistryDigest: V124Digest,
    expectedReducerDigest: V124Digest,
  },
  {},
  'Resolve named namespaces of a subject at one exact head; every expected digest must match or nothing is resolved.',
)

/** The projections, with the subject's source artifact so they can be rechecked offline. */
export const V124NamespaceResolutionWire = struct(
  'V124NamespaceResolutionWire',
  {
    schema: t.literal('cairn.v124.namespace_resolution_wire'),
    subjectId: RuntimeId,
    atHead: V124Digest,
    admittedProofDigest: V124Digest,
    ownershipHead: V124Digest,
    registryDigest: V124Digest,
    reducerDigest: V124Digest,
    namespaces: t.array(V124DomainNamespaceProjection),
    authority: RuntimeAuthority,
    resolutionDigest: V124Digest,
    sourceArtifact: V124PortableSealedArtifact,
  },
  {},
  'Byte-exact namespace projections at an authenticated head, with the subject source artifact they derive from.',
)

/** This file's components by name, spread into `runtimeComponents`. */
export const namespaceComponents = { V124NamespaceResolutionRequest, V124NamespaceResolutionWire } as const
