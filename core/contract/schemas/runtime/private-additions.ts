/**
 * Private domain additions: filtered for one viewer before the response is built. Public additions
 * carry only public event bytes; encrypted ones add a private envelope bound to the viewer, the
 * access grant, the access key and the domain heads.
 */
import * as t from 'io-ts'
import { alias, describe, struct } from '../../define.js'
import { Base64Url, NonNegativeInteger } from '../../primitives.js'
import { RuntimeAuthority } from './authority.js'
import { V124Digest } from './digests.js'
import { V124ApplicationId } from './identifiers.js'
import { V124PrivateRecipientWrapProjection } from './recipients.js'
import { V124PortableSealedArtifact } from './sources.js'
import { Cursor, nullable, OpaqueHandle, RuntimeId } from './values.js'

/** Private additions after an exact head, for the viewer and grant the caller expects. */
export const V124VerifiedPrivateAdditionsRequest = struct(
  'V124VerifiedPrivateAdditionsRequest',
  {
    applicationId: V124ApplicationId,
    domainId: RuntimeId,
    afterHead: nullable(V124Digest),
    authoritySessionHandle: OpaqueHandle,
    accessGrantHandle: OpaqueHandle,
    expectedViewerSubjectId: RuntimeId,
    expectedViewerSubjectHead: V124Digest,
    expectedGrantHead: V124Digest,
  },
  {},
  'Private additions after `afterHead` (null: from genesis) for the expected viewer subject and access grant heads.',
)

/** Ciphertext of a private payload with the recipient's wrapped content key. */
export const V124PrivateWorldEnvelopeProjection = struct(
  'V124PrivateWorldEnvelopeProjection',
  {
    schema: t.literal('cairn.v124.private_world_envelope_projection'),
    worldId: RuntimeId,
    visibilityMode: t.keyof({ private: null, grant: null }),
    ciphertextB64u: Base64Url,
    nonceB64u: Base64Url,
    aadDigest: V124Digest,
    payloadDigest: V124Digest,
    envelopeDigest: V124Digest,
    recipientWrap: V124PrivateRecipientWrapProjection,
    authority: RuntimeAuthority,
  },
  {},
  'Encrypted private payload: ciphertext, nonce, AAD and payload digests, and the content key wrapped for the viewer. `visibilityMode` is `private` (owner only) or `grant` (holders of an access grant).',
)

/** Fields every private-domain addition shares. */
const additionFields = {
  appendId: RuntimeId,
  sequence: NonNegativeInteger,
  cursor: Cursor,
  exactPublicEventBytesB64u: Base64Url,
  eventDigest: V124Digest,
  priorHead: nullable(V124Digest),
  newHead: V124Digest,
  domainHead: V124Digest,
}

/** An addition with a private envelope for the viewer. */
export const V124PrivateDomainEncryptedAddition = struct(
  'V124PrivateDomainEncryptedAddition',
  {
    additionKind: t.literal('encrypted'),
    ...additionFields,
    viewerSubjectId: RuntimeId,
    viewerSubjectHead: V124Digest,
    grantHead: V124Digest,
    accessKeyHead: V124Digest,
    privateEnvelope: V124PrivateWorldEnvelopeProjection,
    recipientWrapDigest: V124Digest,
  },
  {},
  'Addition whose private payload is encrypted for the viewer, bound to viewer, grant, access key and domain heads.',
)

/** An addition with public event bytes only. */
export const V124PrivateDomainPublicAddition = struct(
  'V124PrivateDomainPublicAddition',
  { additionKind: t.literal('public'), ...additionFields },
  {},
  'Addition of a private domain that carries only public event bytes.',
)

/** Encrypted or public, told apart by `additionKind`. */
export const V124PrivateDomainAddition = describe(
  alias('V124PrivateDomainAddition', t.union([V124PrivateDomainEncryptedAddition, V124PrivateDomainPublicAddition])),
  'One private-domain addition: `additionKind` `encrypted` or `public`.',
)

/** The viewer's filtered additions with the source artifacts that bind them. */
export const V124PrivateDomainAdditionsSuccessWire = struct(
  'V124PrivateDomainAdditionsSuccessWire',
  {
    schema: t.literal('cairn.v124.private_domain_additions_success_wire'),
    status: t.literal('succeeded'),
    applicationId: V124ApplicationId,
    domainId: RuntimeId,
    afterHead: nullable(V124Digest),
    afterCursor: nullable(Cursor),
    cursor: nullable(Cursor),
    priorHead: nullable(V124Digest),
    head: nullable(V124Digest),
    viewerSubjectId: RuntimeId,
    viewerSubjectHead: V124Digest,
    grantHead: V124Digest,
    accessKeyHead: V124Digest,
    additions: t.array(V124PrivateDomainAddition),
    sourceArtifact: V124PortableSealedArtifact,
    viewerSubjectSourceArtifact: V124PortableSealedArtifact,
    accessGrantSourceArtifact: V124PortableSealedArtifact,
    authority: RuntimeAuthority,
  },
  {},
  'Private additions filtered for one viewer, with the domain, viewer subject and access grant source artifacts so the client can verify offline.',
)

/** Not served. No reason is given, so the answer never reveals whether a grant or domain exists. */
export const V124PrivateDomainAdditionsFailureWire = struct(
  'V124PrivateDomainAdditionsFailureWire',
  { schema: t.literal('cairn.v124.private_domain_additions_failure_wire'), status: t.literal('failed') },
  {},
  'Private additions were not served. Deliberately reason-free so nothing private leaks.',
)

/** Success or failure, told apart by `status`. */
export const V124PrivateDomainAdditionsWire = describe(
  alias('V124PrivateDomainAdditionsWire', t.union([V124PrivateDomainAdditionsSuccessWire, V124PrivateDomainAdditionsFailureWire])),
  'Private additions result: success (`status: succeeded`) or failure (`status: failed`).',
)

/** This file's components by name, spread into `runtimeComponents`. */
export const privateAdditionComponents = {
  V124VerifiedPrivateAdditionsRequest,
  V124PrivateWorldEnvelopeProjection,
  V124PrivateDomainEncryptedAddition,
  V124PrivateDomainPublicAddition,
  V124PrivateDomainAddition,
  V124PrivateDomainAdditionsSuccessWire,
  V124PrivateDomainAdditionsFailureWire,
  V124PrivateDomainAdditionsWire,
} as const
