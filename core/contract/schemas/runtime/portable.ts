/**
 * The portable transition set a client submits to execute a staged plan: one member per
 * participant, each with its exact predecessor and candidate bytes, identity artifact, signed
 * capability (with its parent chain when delegated) and identity proof, so the set can be
 * re-verified anywhere.
 */
import * as t from 'io-ts'
import { struct } from '../../define.js'
import { V124ArtifactAppendPlan } from './artifacts.js'
import { RuntimeAuthority } from './authority.js'
import { V124IdentityLoginProof } from './authority-sessions.js'
import { V124SignedCapability } from './capabilities.js'
import { V124Digest } from './digests.js'
import { V124ApplicationId, V124CommitDomainId, V124NamespaceId } from './identifiers.js'
import { V124ExactIdentityArtifact, V124PortableSealedArtifact } from './sources.js'
import { Base64Url } from '../../primitives.js'
import { ParticipantHeads, RuntimeId, Slug } from './values.js'

/** The namespace event a member plans to append, and the head it expects. */
export const V124PortableExecutionPlanning = struct(
  'V124PortableExecutionPlanning',
  {
    commitDomain: V124CommitDomainId,
    namespace: V124NamespaceId,
    event: t.record(t.string, t.unknown),
    expectedHead: V124Digest,
    idempotencyKey: RuntimeId,
  },
  {
    privatePayload: t.type({
      visibility: t.keyof({ private: null, grant: null }),
      ownerSubjectId: RuntimeId,
      saltB64u: Base64Url,
      payloadB64u: Base64Url,
    }),
  },
  'Planning input of one member: the namespace event (JSON, hashed in RFC 8785 canonical form) and the head it expects; optionally a private payload the event commits to (`event.privatePayloadCommitment`), shown only to viewers granted it (docs/runtime.md).',
)

/** One participant's part of a transition set. */
export const V124PortableExecutionTransitionMember = struct(
  'V124PortableExecutionTransitionMember',
  {
    schema: t.literal('cairn.v124.portable_execution_transition_member'),
    profile: Slug,
    participantId: RuntimeId,
    operationPlan: V124ArtifactAppendPlan,
    planning: V124PortableExecutionPlanning,
    predecessor: V124PortableSealedArtifact,
    candidate: V124PortableSealedArtifact,
    identityArtifact: V124ExactIdentityArtifact,
    signedCapability: V124SignedCapability,
    identityProof: V124IdentityLoginProof,
    authority: RuntimeAuthority,
  },
  {
    // The chain travels with the member, not inside V124SignedCapability: a signed capability
    // holding its own parents would be recursive and could state one chain twice.
    parentCapabilities: t.array(V124SignedCapability),
  },
  'One participant: append plan, planning input, exact predecessor and candidate bytes, identity artifact, signed capability and identity proof. '
    + 'A delegated capability (`delegationDepth` > 0) comes with `parentCapabilities`: its signed ancestors, root first, so the chain verifies from the set alone.',
)

/** Every participant's member, with the heads expected now and proposed after commit. */
export const V124PortableExecutionTransitionSet = struct(
  'V124PortableExecutionTransitionSet',
  {
    schema: t.literal('cairn.v124.portable_execution_transition_set'),
    applicationId: V124ApplicationId,
    exactPlanDigest: V124Digest,
    expectedParticipantHeads: ParticipantHeads,
    proposedParticipantHeads: ParticipantHeads,
    members: t.array(V124PortableExecutionTransitionMember),
    authority: RuntimeAuthority,
  },
  {},
  'Transition set of a staged plan: participant id → expected head before and proposed head after, and one member per participant.',
)

/** This file's components by name, spread into `runtimeComponents`. */
export const portableComponents = {
  V124PortableExecutionPlanning,
  V124PortableExecutionTransitionMember,
  V124PortableExecutionTransitionSet,
} as const
