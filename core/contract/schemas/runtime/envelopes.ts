/**
 * The 12 signed runtime envelopes. Each is `{ schema, wire, receipt, transportBinding,
 * transportSignature }` and differs only in its schema string and wire, so one factory builds them.
 */
import * as t from 'io-ts'
import { struct } from '../../define.js'
import { V124AuthoritySession, V124AuthoritySessionClosed } from './authority-sessions.js'
import { V124DomainCheckpointProjection, V124DomainReplayProjection } from './domains.js'
import { V124ExecutionCancelWire, V124ExecutionResolutionWire, V124ExecutionStageWire } from './execution.js'
import { V124NamespaceResolutionWire } from './namespaces.js'
import { V124PrivateDomainAdditionsWire } from './private-additions.js'
import { V124OperationalCapabilityReportWire } from './qualification.js'
import { V124PublicRecipientResolutionWire } from './recipients.js'
import { V124SealedSourcePublicationResult } from './sources.js'
import { V124AuthenticatedRuntimeReceipt, V124TransportBinding, V124TransportSignature } from './transport.js'

/**
 * A signed envelope around `wire`. The transport signature covers the binding, which binds the
 * request, wire and receipt digests; held sealed bytes still win over anything inside.
 *
 * @example signedEnvelope('V124SignedExecutionStageEnvelope', 'cairn.v124.signed_execution_stage_envelope', V124ExecutionStageWire)
 */
function signedEnvelope<S extends string, W extends t.Mixed>(name: string, schema: S, wire: W) {
  return struct(
    name,
    {
      schema: t.literal(schema),
      wire,
      receipt: V124AuthenticatedRuntimeReceipt,
      transportBinding: V124TransportBinding,
      transportSignature: V124TransportSignature,
    },
    {},
    `Signed runtime envelope: the wire, its authenticated receipt, the transport binding and the transport signature over it.`,
  )
}

/** Answer of authority-session open and refresh. */
export const V124SignedActiveAuthoritySessionEnvelope = signedEnvelope(
  'V124SignedActiveAuthoritySessionEnvelope', 'cairn.v124.signed_active_authority_session_envelope', V124AuthoritySession)
/** Answer of authority-session close. */
export const V124SignedClosedAuthoritySessionEnvelope = signedEnvelope(
  'V124SignedClosedAuthoritySessionEnvelope', 'cairn.v124.signed_closed_authority_session_envelope', V124AuthoritySessionClosed)
/** Answer of verified checkpoint. */
export const V124SignedDomainCheckpointEnvelope = signedEnvelope(
  'V124SignedDomainCheckpointEnvelope', 'cairn.v124.signed_domain_checkpoint_envelope', V124DomainCheckpointProjection)
/** Answer of verified replay and verified additions. */
export const V124SignedDomainReplayEnvelope = signedEnvelope(
  'V124SignedDomainReplayEnvelope', 'cairn.v124.signed_domain_replay_envelope', V124DomainReplayProjection)
/** Answer of execution cancel. */
export const V124SignedExecutionCancelEnvelope = signedEnvelope(
  'V124SignedExecutionCancelEnvelope', 'cairn.v124.signed_execution_cancel_envelope', V124ExecutionCancelWire)
/** Answer of execute and of the execution lookups. */
export const V124SignedExecutionResolutionEnvelope = signedEnvelope(
  'V124SignedExecutionResolutionEnvelope', 'cairn.v124.signed_execution_resolution_envelope', V124ExecutionResolutionWire)
/** Answer of execution stage. */
export const V124SignedExecutionStageEnvelope = signedEnvelope(
  'V124SignedExecutionStageEnvelope', 'cairn.v124.signed_execution_stage_envelope', V124ExecutionStageWire)
/** Answer of namespace resolution. */
export const V124SignedNamespaceResolutionEnvelope = signedEnvelope(
  'V124SignedNamespaceResolutionEnvelope', 'cairn.v124.signed_namespace_resolution_envelope', V124NamespaceResolutionWire)
/** Answer of operational qualification. */
export const V124SignedOperationalCapabilityEnvelope = signedEnvelope(
  'V124SignedOperationalCapabilityEnvelope', 'cairn.v124.signed_operational_capability_envelope', V124OperationalCapabilityReportWire)
/** Answer of verified private additions. */
export const V124SignedPrivateDomainAdditionsEnvelope = signedEnvelope(
  'V124SignedPrivateDomainAdditionsEnvelope', 'cairn.v124.signed_private_domain_additions_envelope', V124PrivateDomainAdditionsWire)
/** Answer of public recipient resolution. */
export const V124SignedPublicRecipientResolutionEnvelope = signedEnvelope(
  'V124SignedPublicRecipientResolutionEnvelope', 'cairn.v124.signed_public_recipient_resolution_envelope', V124PublicRecipientResolutionWire)
/** Answer of sealed source publication. */
export const V124SignedSealedSourcePublicationEnvelope = signedEnvelope(
  'V124SignedSealedSourcePublicationEnvelope', 'cairn.v124.signed_sealed_source_publication_envelope', V124SealedSourcePublicationResult)

/** This file's components by name, spread into `runtimeComponents`. */
export const envelopeComponents = {
  V124SignedActiveAuthoritySessionEnvelope,
  V124SignedClosedAuthoritySessionEnvelope,
  V124SignedDomainCheckpointEnvelope,
  V124SignedDomainReplayEnvelope,
  V124SignedExecutionCancelEnvelope,
  V124SignedExecutionResolutionEnvelope,
  V124SignedExecutionStageEnvelope,
  V124SignedNamespaceResolutionEnvelope,
  V124SignedOperationalCapabilityEnvelope,
  V124SignedPrivateDomainAdditionsEnvelope,
  V124SignedPublicRecipientResolutionEnvelope,
  V124SignedSealedSourcePublicationEnvelope,
} as const
