/**
 * The Universal Runtime (`/api/sdk/v1/`): signed envelopes for every answer, the client-side
 * verifier (`verify-envelope.ts`, published as `cairn/runtime-verify`), granted scopes,
 * operational qualification, ProofConsent (proof-authority exchange), authority sessions, sealed
 * source publication, public recipient resolution and namespace resolution.
 */
import type { UseCaseRegistry } from '../usecases/use-case.js'
import { getGrantedScopes } from './granted-scopes.js'
import { exchangeProofAuthority } from './exchange-proof-authority.js'
import { publishSealedSource } from './publish-sealed-source.js'
import { resolvePublicRecipient } from './resolve-public-recipient.js'
import { resolveNamespaces, resolveSubjectNamespaces } from './resolve-namespaces.js'
import { executionUseCases } from './execution.js'
import { closeAuthoritySession, openAuthoritySession, refreshAuthoritySession } from './authority-sessions.js'

/** Every runtime use case but qualification, which the registry composes with what it serves (`qualifyOperationsServing`). @example const useCases = { ...runtimeUseCases } */
export const runtimeUseCases = {
  getGrantedScopes, exchangeProofAuthority, openAuthoritySession, refreshAuthoritySession, closeAuthoritySession, publishSealedSource, resolvePublicRecipient,
  resolveSubjectNamespaces, resolveNamespaces,
  ...executionUseCases,
} as const satisfies UseCaseRegistry

export { signEnvelope, requestDigestOf, receiptDigestOf, calledPath, ENVELOPE_LIFETIME_MS, ENVELOPE_ALG, type SignedEnvelope, type EnvelopeBinding } from './signed-envelope.js'
export { verifyRuntimeEnvelope, type SentRequest, type VerifyEnvelopeOptions, type EnvelopeVerdict } from './verify-envelope.js'
export { revocationHeadOf, genesisRevocationHead, revocationStreamOf } from './revocation-head.js'
export { qualifyOperationsServing } from './qualify-operations.js'
export { runtimeCaller, type RuntimeCaller } from './runtime-caller.js'
export { runtimeCollections, RUNTIME_CHALLENGES, AUTHORITY_SESSIONS, EXECUTIONS, EXECUTION_COORDINATES, PARTICIPANT_HEADS } from './runtime-collections.js'
export { redeemRecipientLocator, type RecipientLocator } from './resolve-public-recipient.js'
export type { LocatorRecord } from './recipient-locator-record.js'
export { REGISTRY_DIGEST, REDUCER_DIGEST, NAMESPACE_REGISTRY, NAMESPACE_REDUCER, genesisSubjectHead, subjectStreamOf } from './subject-namespaces.js'
export { ownershipHeadOf } from './resolve-namespaces.js'
export { recoveryOf, currentOutcome, STAGING_WINDOW_MS } from './execution.js'
export { commitParticipantHeads, loadParticipantHeads, participantHeadWrites, genesisParticipantHead, nextParticipantHead, type ParticipantMove, type ParticipantHeadState } from './participant-heads.js'
