/**
 * The artifact-transition kernel: an actor's plan to append to an artifact's history, the basis it
 * was computed from, the commit command and unit, and the receipt. Every digest here is a typed
 * `{ algorithm, binds, value }` digest so that plan, transition, command, capability and history
 * digests can never be swapped; artifact heads are history digests.
 */
import * as t from 'io-ts'
import { struct } from '../../define.js'
import { NonEmptyString } from '../../primitives.js'
import { RuntimeAuthority } from './authority.js'
import { V124VerifiedCapability } from './capabilities.js'
import {
  V124ArtifactAppendPlanDigest,
  V124ArtifactDigest,
  V124ArtifactTransitionCommandDigest,
  V124ArtifactTransitionDigest,
  V124Digest,
  V124ExternalOperationEffectsDigest,
  V124HistoryDigest,
  V124IdempotencyIdentityDigest,
  V124NamespaceBodyDigest,
  V124NamespaceEventDigest,
  V124PayloadDigest,
  V124RegistryBoundDigest,
  V124VerifiedActorEvidenceDigest,
  V124VerifiedCapabilityDigest,
} from './digests.js'
import { V124CommitDomainId, V124NamespaceId } from './identifiers.js'
import { MediaType, nullable, RuntimeId, Slug, VersionLabel } from './values.js'

/** An actor admitted under a profile, with the digest of the evidence that admitted it. */
export const V124VerifiedActorReference = struct(
  'V124VerifiedActorReference',
  {
    actorId: RuntimeId,
    evidenceDigest: V124VerifiedActorEvidenceDigest,
    admissionProfile: Slug,
    registryDigest: V124RegistryBoundDigest,
  },
  {},
  'An actor admitted under `admissionProfile`, with the digest of the admitting evidence and the registry it was read against.',
)

/** A namespace a transition leaves untouched, with the body digest it must keep. */
export const V124ArtifactPreservedNamespace = struct(
  'V124ArtifactPreservedNamespace',
  { namespace: V124NamespaceId, bodyDigest: V124NamespaceBodyDigest },
  {},
  'A namespace the transition must preserve byte for byte.',
)

/** What the candidate artifact's proof must satisfy. */
export const V124ArtifactProofSuiteRequirements = struct(
  'V124ArtifactProofSuiteRequirements',
  { signatureVersion: VersionLabel, carrier: MediaType },
  {},
  'Proof suite the candidate must carry: the signature version and the media type of the container whose exact bytes carry the proof.',
)

/** Everything a transition is computed from: prior artifact, heads, namespace law and registry. */
export const V124ArtifactTransitionBasis = struct(
  'V124ArtifactTransitionBasis',
  {
    artifactId: RuntimeId,
    priorArtifactDigest: V124ArtifactDigest,
    basePayloadDigest: V124PayloadDigest,
    expectedHead: V124HistoryDigest,
    proposedHistoryHead: V124HistoryDigest,
    namespace: V124NamespaceId,
    namespaceLawVersion: VersionLabel,
    namespaceReducerVersion: VersionLabel,
    priorNamespaceBodyDigest: nullable(V124NamespaceBodyDigest),
    eventDigest: V124NamespaceEventDigest,
    proposedNamespaceBodyDigest: V124NamespaceBodyDigest,
    preservedNamespaces: t.array(V124ArtifactPreservedNamespace),
    registryDigest: V124RegistryBoundDigest,
    actor: V124VerifiedActorReference,
    proofSuiteRequirements: V124ArtifactProofSuiteRequirements,
  },
  {},
  'Basis of one artifact transition. `priorNamespaceBodyDigest` is null when the transition creates the namespace.',
)

/** An actor's plan to append one transition to an artifact in a commit domain. */
export const V124ArtifactAppendPlan = struct(
  'V124ArtifactAppendPlan',
  {
    transitionDigest: V124ArtifactTransitionDigest,
    actor: V124VerifiedActorReference,
    resource: NonEmptyString,
    operation: Slug,
    commitDomain: V124CommitDomainId,
    effectsDigest: V124ExternalOperationEffectsDigest,
    idempotencyKeyDigest: V124IdempotencyIdentityDigest,
    registryDigest: V124RegistryBoundDigest,
    schema: t.literal('cairn.v124.artifact_append_plan'),
    transition: V124ArtifactTransitionBasis,
    actorConstraint: t.keyof({ owner: null, delegate: null }),
    planDigest: V124ArtifactAppendPlanDigest,
    authority: RuntimeAuthority,
  },
  {},
  'Plan to append one transition. `actorConstraint` is `owner` (the actor must own the artifact per its proof) or `delegate` (the actor acts under a capability chain from the owner).',
)

/** Where staged candidate bytes wait for commit (content-addressed). */
export const V124StagedCandidateReference = struct(
  'V124StagedCandidateReference',
  {
    commitDomain: V124CommitDomainId,
    artifactDigest: V124ArtifactDigest,
    transitionDigest: V124ArtifactTransitionDigest,
    storageKeyDigest: V124Digest,
    authority: RuntimeAuthority,
  },
  {},
  'Staged candidate artifact: its digest, the transition it realises and the content address (`storageKeyDigest`) of its staged bytes.',
)

/** The command that commits a staged candidate under a verified capability. */
export const V124ArtifactTransitionCommitCommand = struct(
  'V124ArtifactTransitionCommitCommand',
  {
    planDigest: V124ArtifactAppendPlanDigest,
    capabilityDigest: V124VerifiedCapabilityDigest,
    transitionDigest: V124ArtifactTransitionDigest,
    candidateArtifactDigest: V124ArtifactDigest,
    stagedCandidateReference: V124StagedCandidateReference,
    commitDomain: V124CommitDomainId,
    commandDigest: V124ArtifactTransitionCommandDigest,
  },
  {},
  'Commit command binding plan, capability, transition and candidate artifact digests.',
)

/** One compare-and-swap unit: plan, capability and command against an expected head. */
export const V124ArtifactTransitionCommitUnit = struct(
  'V124ArtifactTransitionCommitUnit',
  {
    commitDomain: V124CommitDomainId,
    plan: V124ArtifactAppendPlan,
    capability: V124VerifiedCapability,
    command: V124ArtifactTransitionCommitCommand,
    expectedHead: V124HistoryDigest,
  },
  {},
  'One commit unit: applied only if the artifact history head still equals `expectedHead`.',
)

/** What was accepted: the heads before and after and every digest the commit bound. */
export const V124ArtifactAppendReceipt = struct(
  'V124ArtifactAppendReceipt',
  {
    commitDomain: V124CommitDomainId,
    actor: V124VerifiedActorReference,
    resource: NonEmptyString,
    operation: Slug,
    planDigest: V124ArtifactAppendPlanDigest,
    capabilityDigest: V124VerifiedCapabilityDigest,
    transitionDigest: V124ArtifactTransitionDigest,
    artifactDigest: V124ArtifactDigest,
    priorHead: V124HistoryDigest,
    acceptedHead: V124HistoryDigest,
    commandDigest: V124ArtifactTransitionCommandDigest,
    idempotencyIdentityDigest: V124IdempotencyIdentityDigest,
    authority: RuntimeAuthority,
  },
  {},
  'Receipt of an accepted append. Coordination only: the appended sealed artifact is the authority.',
)

/** This file's components by name, spread into `runtimeComponents`. */
export const artifactComponents = {
  V124VerifiedActorReference,
  V124ArtifactPreservedNamespace,
  V124ArtifactProofSuiteRequirements,
  V124ArtifactTransitionBasis,
  V124ArtifactAppendPlan,
  V124StagedCandidateReference,
  V124ArtifactTransitionCommitCommand,
  V124ArtifactTransitionCommitUnit,
  V124ArtifactAppendReceipt,
} as const
