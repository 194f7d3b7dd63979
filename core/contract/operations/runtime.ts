import { json, operation } from './define.js'

const read = ['cairn:runtime.read']
const execute = ['cairn:runtime.execute']
const session = ['cairn:runtime.session']

export const runtimeOperations = [
  operation('Universal Runtime', 'getGrantedScopes', 'GET /api/sdk/v1/auth/granted-scopes', {
    auth: 'Bearer', response: 'GrantedScopesResponse', summary: 'Scopes granted to the current application authority',
  }),
  operation('Universal Runtime', 'replayDomain', 'POST /api/sdk/v1/domains/verified-replay', {
    auth: 'Bearer', scopes: read, request: json('V124VerifiedReplayRequest'), response: 'V124SignedDomainReplayEnvelope',
    summary: 'Closed-shape replay for exact application, domain, registry, reducer, cursor, namespace and head expectations',
  }),
  operation('Universal Runtime', 'listDomainAdditions', 'POST /api/sdk/v1/domains/verified-additions', {
    auth: 'Bearer', scopes: read, request: json('V124VerifiedReplayRequest'), response: 'V124SignedDomainReplayEnvelope',
    summary: 'Additions after an exact domain head',
  }),
  operation('Universal Runtime', 'checkpointDomain', 'POST /api/sdk/v1/domains/verified-checkpoint', {
    auth: 'Bearer', scopes: read, request: json('V124VerifiedCheckpointRequest'), response: 'V124SignedDomainCheckpointEnvelope',
    summary: 'Immutable checkpoint bound to a verified replay head',
  }),
  operation('Universal Runtime', 'listPrivateDomainAdditions', 'POST /api/sdk/v1/domains/verified-private-additions', {
    auth: 'Bearer', scopes: read, request: json('V124VerifiedPrivateAdditionsRequest'), response: 'V124SignedPrivateDomainAdditionsEnvelope',
    summary: 'Private additions filtered before response construction; encrypted payloads bound to viewer, grant, access key and domain heads',
  }),
  operation('Universal Runtime', 'getExecution', 'GET /api/sdk/v1/execution/{applicationId}/{executionId}', {
    auth: 'Bearer', scopes: read, response: 'V124SignedExecutionResolutionEnvelope', summary: 'Immutable execution outcome without replanning',
  }),
  operation('Universal Runtime', 'getExecutionByIdempotency',
    'GET /api/sdk/v1/execution/by-idempotency/{applicationId}/{domainId}/{operationKind}/{semanticIdempotencyKey}', {
      auth: 'Bearer', scopes: read, response: 'V124SignedExecutionResolutionEnvelope',
      summary: 'Resolve committed, zero-write, cancelled, staged or unknown before retry',
    }),
  operation('Universal Runtime', 'stageExecution', 'POST /api/sdk/v1/execution/stage', {
    auth: 'Bearer', scopes: execute, request: json('V124ExecutionStageRequest'), response: 'V124SignedExecutionStageEnvelope',
    summary: 'Persist one canonical plan; byte-identical retry returns the same handle',
  }),
  operation('Universal Runtime', 'executeExecution', 'POST /api/sdk/v1/execution/execute', {
    auth: 'Bearer', scopes: execute, request: json('V124ExecutionExecuteRequest'), response: 'V124SignedExecutionResolutionEnvelope',
    summary: 'Atomic compare-and-swap over every participant head, or zero writes',
  }),
  operation('Universal Runtime', 'cancelExecution', 'POST /api/sdk/v1/execution/cancel', {
    auth: 'Bearer', scopes: execute, request: json('V124ExecutionCancelRequest'), response: 'V124SignedExecutionCancelEnvelope',
    summary: 'Cancel uncommitted staged plan, zero domain writes',
  }),
  operation('Universal Runtime', 'exchangeProofAuthority', 'POST /api/sdk/v1/identity/proof-authority/exchange', {
    auth: 'ProofConsent', request: json('ProofAuthorityExchangeRequest'), response: 'ProofAuthorityExchangeResponse',
    summary: 'Exchange a verified identity proof object plus in-application consent for a short-lived, non-refreshable, minimum-scope authority',
  }),
  operation('Universal Runtime', 'resolvePublicRecipient', 'POST /api/sdk/v1/identity/public-recipient/resolve', {
    auth: 'Bearer', scopes: read, request: json('V124PublicRecipientResolutionRequest'), response: 'V124SignedPublicRecipientResolutionEnvelope',
    summary: 'Resolve a consented public alias, with privacy-safe rate limiting, to an encrypted purpose-bound one-use locator',
  }),
  operation('Universal Runtime', 'openAuthoritySession', 'POST /api/sdk/v1/runtime/authority-sessions/open', {
    auth: 'Bearer', scopes: session, request: json('V124OpenAuthoritySessionRequest'), response: 'V124SignedActiveAuthoritySessionEnvelope',
    summary: 'Open a short-lived server-custodied session after proof verification, consent, exact scope binding and head checks',
  }),
  operation('Universal Runtime', 'refreshAuthoritySession', 'POST /api/sdk/v1/runtime/authority-sessions/refresh', {
    auth: 'Bearer', scopes: session, request: json('V124RefreshAuthoritySessionRequest'), response: 'V124SignedActiveAuthoritySessionEnvelope',
    summary: 'Refresh only from a fresh challenge with identical application, audience, scope, proof, owner, revocation and head bindings',
  }),
  operation('Universal Runtime', 'closeAuthoritySession', 'POST /api/sdk/v1/runtime/authority-sessions/close', {
    auth: 'Bearer', scopes: session, request: json('V124CloseAuthoritySessionRequest'), response: 'V124SignedClosedAuthoritySessionEnvelope',
    summary: 'Append revocation',
  }),
  operation('Universal Runtime', 'qualifyOperations', 'POST /api/sdk/v1/runtime/qualify', {
    auth: 'Bearer', scopes: read, request: json('V124OperationalQualificationRequest'), response: 'V124SignedOperationalCapabilityEnvelope',
    summary: 'Reports available, degraded or unavailable only from actual granted scopes, dependency health and authenticated evidence',
  }),
  operation('Universal Runtime', 'publishSealedSource', 'POST /api/sdk/v1/sources/publish', {
    auth: 'Bearer', scopes: ['cairn:runtime.publish'], request: json('V124SealedSourcePublicationRequest'),
    response: 'V124SignedSealedSourcePublicationEnvelope', summary: 'Publish exact sealed bytes to content-addressed custody; result is coordination only',
  }),
  operation('Universal Runtime', 'resolveSubjectNamespaces', 'POST /api/sdk/v1/subjects/{subjectId}/namespaces/resolve', {
    auth: 'Bearer', scopes: read, request: json('SubjectNamespaceResolutionRequest'), response: 'SubjectNamespaceResolutionResponse',
    summary: 'Resolve named namespaces at one exact head with pinned registry and reducer digests',
  }),
  operation('Universal Runtime', 'resolveNamespaces', 'POST /api/sdk/v1/subjects/namespaces/resolve', {
    auth: 'Bearer', scopes: read, request: json('V124NamespaceResolutionRequest'), response: 'V124SignedNamespaceResolutionEnvelope',
    summary: 'Byte-exact namespace projections at authenticated heads',
  }),
  operation('Universal Runtime', 'getValueExecutionByIdempotency', 'GET /api/sdk/v1/value/executions/by-idempotency/{idempotencyKey}', {
    auth: 'Bearer', scopes: ['cairn:value.read'], response: 'PhiValueExecutionOutcome',
    summary: 'Recover committed, zero-write or unknown outcome before retry',
  }),
  operation('Universal Runtime', 'executeReserve', 'POST /api/sdk/v1/value/reserve/execute', {
    auth: 'Bearer', scopes: ['cairn:value.execute'], request: json('PhiValueExecutionRequest'), response: 'PhiValueExecutionOutcome',
    summary: 'One canonical Reserve intent, atomic, with receipt and zero-write failure',
  }),
  operation('Universal Runtime', 'executeSettlement', 'POST /api/sdk/v1/value/settlement/execute', {
    auth: 'Bearer', scopes: ['cairn:value.execute'], request: json('PhiValueExecutionRequest'), response: 'PhiValueExecutionOutcome',
    summary: 'One canonical Settlement intent, atomic, with receipt and zero-write failure',
  }),
]
