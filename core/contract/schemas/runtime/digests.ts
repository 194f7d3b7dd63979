/**
 * Digests of the runtime. `V124Digest` is the plain form every wire uses (heads, request, wire,
 * receipt and outcome digests). The 13 typed `{ algorithm, binds, value }` digests are used inside
 * the artifact-transition kernel (artifacts.ts, capabilities.ts), where a plan digest must never be
 * mistaken for a transition or command digest.
 */
import { alias, describe } from '../../define.js'
import { Sha256Hex } from '../../primitives.js'
import { digestStruct } from '../common.js'

/**
 * Lowercase hex SHA-256, the same form as every head Cairn chains (core/digest/chain.ts), so a
 * head read from a wire compares byte for byte with one recomputed offline.
 *
 * @example V124Digest.is('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855') // true
 */
export const V124Digest = describe(
  alias('V124Digest', Sha256Hex),
  'Lowercase hex SHA-256 (64 characters) over RFC 8785 canonical JSON or exact bytes. Heads use the same form.',
)

/** Digest of a sealed artifact's exact bytes. */
export const V124ArtifactDigest = digestStruct('V124ArtifactDigest', 'artifact')
/** Digest of an artifact append plan. */
export const V124ArtifactAppendPlanDigest = digestStruct('V124ArtifactAppendPlanDigest', 'artifact-append-plan')
/** Digest of an artifact transition basis. */
export const V124ArtifactTransitionDigest = digestStruct('V124ArtifactTransitionDigest', 'artifact-transition')
/** Digest of an artifact transition commit command. */
export const V124ArtifactTransitionCommandDigest = digestStruct('V124ArtifactTransitionCommandDigest', 'artifact-transition-command')
/** Digest of the external effects an operation declares. */
export const V124ExternalOperationEffectsDigest = digestStruct('V124ExternalOperationEffectsDigest', 'external-operation-effects')
/** Digest of an artifact's history (its head). */
export const V124HistoryDigest = digestStruct('V124HistoryDigest', 'history')
/** Digest of an idempotency identity (the key together with what it is scoped to). */
export const V124IdempotencyIdentityDigest = digestStruct('V124IdempotencyIdentityDigest', 'idempotency-identity')
/** Digest of a namespace body. */
export const V124NamespaceBodyDigest = digestStruct('V124NamespaceBodyDigest', 'namespace-body')
/** Digest of one namespace event. */
export const V124NamespaceEventDigest = digestStruct('V124NamespaceEventDigest', 'namespace-event')
/** Digest of an artifact's payload (its content without the proof carrier). */
export const V124PayloadDigest = digestStruct('V124PayloadDigest', 'payload')
/** Digest of the registry a value was read against. */
export const V124RegistryBoundDigest = digestStruct('V124RegistryBoundDigest', 'registry')
/** Digest of the evidence that admitted an actor. */
export const V124VerifiedActorEvidenceDigest = digestStruct('V124VerifiedActorEvidenceDigest', 'verified-actor-evidence')
/** Digest of a verified capability. */
export const V124VerifiedCapabilityDigest = digestStruct('V124VerifiedCapabilityDigest', 'verified-capability')

/** This file's components by name, spread into `runtimeComponents`. */
export const digestComponents = {
  V124Digest,
  V124ArtifactDigest,
  V124ArtifactAppendPlanDigest,
  V124ArtifactTransitionDigest,
  V124ArtifactTransitionCommandDigest,
  V124ExternalOperationEffectsDigest,
  V124HistoryDigest,
  V124IdempotencyIdentityDigest,
  V124NamespaceBodyDigest,
  V124NamespaceEventDigest,
  V124PayloadDigest,
  V124RegistryBoundDigest,
  V124VerifiedActorEvidenceDigest,
  V124VerifiedCapabilityDigest,
} as const
