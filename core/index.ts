/** The core's public surface: the contract, the domain rules and the use-case types. */
export { components, componentNames, type ComponentName, type ComponentType } from './contract/components.js'
export { operations, operationsById, type OperationId, type OperationOf } from './contract/operations/index.js'
export type { AuthClass, HttpMethod, OperationSpec, QueryParameter, RequestBody, Tag } from './contract/operation.js'
export { buildOpenApiDocument, CONTRACT_VERSION, DOCUMENT_VERSION } from './contract/openapi.js'
export { SCOPES, type Scope } from './contract/scopes.js'
export * from './errors/index.js'
export * from './digest/index.js'
export { KAI_GENESIS_MS, kaiMicroPulses, kaiMomentAt, kaiPulseEternalAt, epochMsAtMicroPulse, type KaiMoment } from './time/kai.js'
export type { Authenticator } from './auth/authenticator.js'
export type { Credentials } from './auth/credentials.js'
export type { Principal } from './auth/principal.js'
export { createCairnAuthenticator } from './auth/cairn-authenticator.js'
export type { AccessGrant, VerifyBearer } from './auth/access-grant.js'
export { verifyAccessToken, recordConsent } from './oidc/index.js'
export { endSession } from './identity/sessions.js'
export { DeploymentConfig, OAuthClientConfig } from './config/deployment-config.js'
export { executeOperation, type OperationEnvironment, type RawOperationInput } from './usecases/execute-operation.js'
export type { CoreConfig, CoreDeps, JsonReply, OperationRequest, RedirectReply, Reply, ReplyOf, RequestOf, SetCookie, UseCase, UseCaseFor, UseCaseRegistry } from './usecases/use-case.js'
export type { ParamsOf, QueryOf, RequestBodyOf, ResponseOf } from './usecases/operation-types.js'
export { useCases } from './usecases/registry.js'
export { collections } from './usecases/collections.js'
export { RELEASES } from './releases/records.js'
export { compareReleases, findRelease } from './releases/compare.js'
export { ACTION_LEDGER_STREAM, commitWithActions, type ActionInput } from './ledger/action-ledger.js'
export * as tlog from './tlog/index.js'
export {
  verifyInclusionReceipt,
  verifyCheckpointConsistency,
  verifyInclusion,
  verifyConsistency,
  openCheckpoint,
  commitWithLeaves,
  awaitInclusion,
  type InclusionReceipt,
  type LogLeaf,
} from './tlog/index.js'
export { canonicalSourceUrl, feedSigningBytes, publicProofLeaf } from './public-proof/index.js'
export { PartnerConfig } from './config/deployment-config.js'
