/**
 * `cairn/client`: Cairn from the other side of the wire, for browsers and Node (plain ESM, fetch
 * and WebCrypto only). docs/client.md shows each family.
 */
export { createCairnClient, type CairnClient, type CairnClientOptions, type ClientCredentials } from './cairn-client.js'
export { unwrap, type ClientError, type ClientErrorTag, type Result } from './result.js'
export type { RetryPolicy } from './retry.js'
export type { AnswerOf, BodyOf, CallInput, FilePart, OperationId } from './types.js'
export {
  draftProofConsentChallenge, fileKeyKeeper, indexedDbKeyKeeper, loadOrCreateIdKey, memoryKeyKeeper, signedChallenge, signIdProof, signIn, signProofConsentChallenge,
  type ChallengeDraft, type ChallengeInput, type IdKey, type KeyKeeper, type SignInDraft,
} from './identity.js'
export { fetchTrust, portableArtifactOf, sealFile, verifySealedFile, type Sealed, type TrustMaterial, type Verdict } from './proofs.js'
export {
  authorizationUrl, codeFromRedirect, createDpopProver, createPkce, exchangeCode, refreshingTokens,
  type AuthorizationRequest, type DpopProver, type Pkce, type TokenSet,
} from './oauth.js'
export { connectLiveUpdates, type LiveConnection, type LiveStatus, type LiveUpdate, type LiveUpdatesOptions, type WebSocketLike } from './live-updates.js'
/** Private domain additions: open each `encrypted` addition of a verified `listPrivateDomainAdditions` answer with the viewer's access key. */
export { decryptPrivateAddition, type DecryptVerdict, type EncryptedAddition, type PrivateAdditionExpectation } from '../core/runtime/decrypt-private-addition.js'
export { chainPayloads, signCapabilityChain, signedLink, type LinkPayload, type LinkSigner, type SignedCapabilityLink } from './capabilities.js'
export {
  closeAuthoritySession, openAuthoritySession, openSessionBody, refreshAuthoritySession,
  type AuthoritySession, type ChallengeSigner, type ClosedAuthoritySession, type SessionConsent, type SessionTerms,
} from './authority-sessions.js'
export {
  DEFAULT_REDUCER_DIGEST, DEFAULT_REGISTRY_DIGEST, draftExecutionPlan, genesisParticipantHead, signExecutionPlan,
  type DelegationStep, type ExecutionPlanDraft, type ExecutionPlanInput, type OperationPlan, type PlanKey, type PlanParticipant, type SigningPlanKey, type TransitionSet,
} from './execution-plans.js'
export { executePlan, resolveExecution, stagePlan, type ExecutedPlan, type ExecutionHandle, type ExecutionResolution } from './executions.js'
