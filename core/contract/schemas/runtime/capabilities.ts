/**
 * Capabilities: signed, delegable, time-boxed permissions for an actor to run operations on
 * resources. Kernel schemas, so their digests are the typed `{ algorithm, binds, value }` forms.
 */
import * as t from 'io-ts'
import { struct } from '../../define.js'
import { Base64Url, KaiUPulse, NonNegativeInteger } from '../../primitives.js'
import { RuntimeAuthority } from './authority.js'
import { V124ArtifactAppendPlanDigest, V124RegistryBoundDigest, V124VerifiedCapabilityDigest } from './digests.js'
import { V124CommitDomainId } from './identifiers.js'
import { Audience, KeyId, Nonce, nullable, RuntimeId, ScopeName, SignatureAlgorithm, Slug } from './values.js'

/** Binds a capability to one plan in one commit domain (a one-shot capability). */
export const V124CapabilityOperationConstraints = struct(
  'V124CapabilityOperationConstraints',
  { planDigest: V124ArtifactAppendPlanDigest, commitDomain: V124CommitDomainId },
  {},
  'Restricts a capability to one append plan in one commit domain.',
)

/** What a capability grants; `parentDigest` and `operationConstraints` are null for a root, unconstrained capability. */
export const V124CapabilityPayload = struct(
  'V124CapabilityPayload',
  {
    schema: t.literal('cairn.v124.capability_payload'),
    capabilityId: RuntimeId,
    issuerKeyId: KeyId,
    actorId: RuntimeId,
    tenantId: RuntimeId,
    audience: Audience,
    authorityProfile: Slug,
    operations: t.array(Slug),
    resourceScopes: t.array(ScopeName),
    maximumEffects: NonNegativeInteger,
    registryDigest: V124RegistryBoundDigest,
    validFromKai: KaiUPulse,
    expiresAtKai: KaiUPulse,
    nonce: Nonce,
    parentDigest: nullable(V124VerifiedCapabilityDigest),
    delegationDepth: NonNegativeInteger,
    maximumDelegationDepth: NonNegativeInteger,
    offline: t.boolean,
    operationConstraints: nullable(V124CapabilityOperationConstraints),
  },
  {},
  'Capability grant: actor, tenant, audience, operations, resource scopes, effect bound, Kai μpulse validity window, delegation chain and optional one-plan constraint.',
)

/** A capability payload with the issuer key's signature over its canonical JSON. */
export const V124SignedCapability = struct(
  'V124SignedCapability',
  {
    schema: t.literal('cairn.v124.signed_capability'),
    payload: V124CapabilityPayload,
    alg: SignatureAlgorithm,
    signatureB64u: Base64Url,
  },
  {},
  'Capability payload signed by `payload.issuerKeyId` over its RFC 8785 canonical JSON.',
)

/** A capability Cairn verified, with the verifier key that checked it. */
export const V124VerifiedCapability = struct(
  'V124VerifiedCapability',
  {
    schema: t.literal('cairn.v124.verified_capability'),
    payload: V124CapabilityPayload,
    digest: V124VerifiedCapabilityDigest,
    verifier: KeyId,
    authority: RuntimeAuthority,
  },
  {},
  'A capability whose signature and chain were verified; `verifier` is the kid of the verifying key. Coordination only.',
)

/** This file's components by name, spread into `runtimeComponents`. */
export const capabilityComponents = {
  V124CapabilityOperationConstraints,
  V124CapabilityPayload,
  V124SignedCapability,
  V124VerifiedCapability,
} as const
