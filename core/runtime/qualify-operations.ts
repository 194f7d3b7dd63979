/**
 * `POST /api/sdk/v1/runtime/qualify`: for each operation asked about, `available`, `degraded` or
 * `unavailable`, decided only from the token's actual scopes, a live probe of the ports the
 * operation needs and whether this deployment serves it — never from what the caller claims.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ComponentType } from '../contract/components.js'
import { operationsById } from '../contract/operations/index.js'
import type { OperationSpec } from '../contract/operation.js'
import { RUNTIME_AUTHORITY } from '../contract/schemas/runtime/authority.js'
import { sha256OfJson } from '../digest/sha256.js'
import { probeDependencies, type Availability, type DependencyHealth, type DependencyName } from '../health/dependency-health.js'
import { RELEASES } from '../releases/records.js'
import { kaiMomentAt } from '../time/kai.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { findClient, isConfidential } from '../oidc/clients.js'
import { revocationHeadOf } from './revocation-head.js'
import { runtimeCaller, type RuntimeCaller } from './runtime-caller.js'
import { signEnvelope } from './signed-envelope.js'
import { RUNTIME_REDUCER_VERSION, RUNTIME_REGISTRY_VERSION } from './runtime-versions.js'

type Capability = ComponentType<'V124OperationalCapability'>
type ReasonCode = NonNullable<Capability['reasonCode']>

export { RUNTIME_REGISTRY_VERSION, RUNTIME_REDUCER_VERSION }

/**
 * Qualification for a deployment that serves the operations `isServed` names. The registry that
 * composes the areas passes its own keys, so this area never imports the registry (no cycle).
 * @example const qualifyOperations = qualifyOperationsServing((id) => id in useCases)
 */
export const qualifyOperationsServing = (isServed: (operationId: string) => boolean): UseCaseFor<'qualifyOperations'> => async (request, deps) => {
  const caller = runtimeCaller(request.principal, request.body.applicationId)
  if (E.isLeft(caller)) return caller
  const now = deps.clock.now()
  const [health, revocationHead] = await Promise.all([probeDependencies(deps), revocationHeadOf(deps, caller.right.applicationId)])
  const context: QualificationContext = {
    caller: caller.right,
    businessTier: request.principal.kind === 'bearer' && request.principal.businessTier,
    confidentialClient: isClientConfidential(deps, caller.right.applicationId),
    health,
    publicDependencyHeads: { revocations: revocationHead },
    evidence: [sha256OfJson({ schema: 'cairn.v124.dependency_probe', qualifiedAtMs: now, health })],
    isBuilt: isServed,
  }
  const results = request.body.operations.map((operationId) => qualify(operationId, context))
  const unsigned = {
    schema: 'cairn.v124.operational_capability_report_wire' as const,
    applicationId: caller.right.applicationId,
    requestedOperations: request.body.operations,
    qualifiedAtKaiUPulse: kaiMomentAt(now).uPulse,
    results,
    authority: RUNTIME_AUTHORITY,
  }
  const wire = { ...unsigned, reportDigest: sha256OfJson(unsigned) }
  const envelope = await signEnvelope(deps, 'cairn.v124.signed_operational_capability_envelope', wire, {
    operationId: 'qualifyOperations',
    params: request.params,
    body: request.body,
    applicationId: caller.right.applicationId,
    audience: caller.right.applicationId,
    revocationHead,
  })
  return E.right(json(envelope, { 'cache-control': 'no-store' }))
}

interface QualificationContext {
  readonly caller: RuntimeCaller
  readonly businessTier: boolean
  /** The application holds a client secret: only such an application can call the ProofConsent exchange. */
  readonly confidentialClient: boolean
  readonly health: Readonly<Record<DependencyName, DependencyHealth>>
  readonly publicDependencyHeads: Readonly<Record<string, string>>
  readonly evidence: readonly string[]
  readonly isBuilt: (operationId: string) => boolean
}

/** One operation's qualification: a pure decision over what was measured. */
export function qualify(operationId: string, context: QualificationContext): Capability {
  const op = operationsById.get(operationId)
  const needs = op ? dependenciesOf(op) : []
  const dependencyHealth = Object.fromEntries(needs.map((name) => [name, context.health[name].status])) as Record<string, Availability>
  const result = (status: Availability, reasonCode: ReasonCode | null, retry: boolean): Capability => ({
    operation: operationId,
    status,
    actualGrantedScopes: [...context.caller.scopes],
    serviceVersion: RELEASES[0]?.version ?? 'unreleased',
    registryVersion: RUNTIME_REGISTRY_VERSION,
    reducerVersion: RUNTIME_REDUCER_VERSION,
    publicDependencyHeads: { ...context.publicDependencyHeads },
    dependencyHealth,
    reasonCode,
    retry,
    evidence: [...context.evidence],
  })
  if (!op || !context.isBuilt(operationId)) return result('unavailable', 'operation-unknown', false)
  if (!grants(op, context)) return result('unavailable', 'scope-not-granted', false)
  const statuses = needs.map((name) => context.health[name].status)
  if (statuses.includes('unavailable')) return result('unavailable', 'dependency-unavailable', true)
  if (statuses.includes('degraded')) return result('degraded', 'dependency-degraded', true)
  return result('available', null, false)
}

const isClientConfidential = (deps: CoreDeps, clientId: string): boolean => {
  const client = findClient(deps, clientId)
  return client !== undefined && isConfidential(client)
}

/** Whether the application's token can call `op` at all: its auth class and every scope it names. */
function grants(op: OperationSpec, context: QualificationContext): boolean {
  if (op.auth === 'None') return true
  // ProofConsent: no token — the application authenticates with its client secret, so a public client cannot
  if (op.auth === 'ProofConsent') return context.confidentialClient
  if (op.auth === 'Bearer' || (op.auth === 'Business' && context.businessTier)) return op.scopes.every((scope) => context.caller.scopes.includes(scope))
  return false // Session and Client operations are not called with an application's token
}

/** Every operation reads the Store and signs with the KeyStore; those that carry files (or read them back from custody) also need the BlobStore. */
function dependenciesOf(op: OperationSpec): DependencyName[] {
  const carriesFiles = op.request.kind === 'multipart' || op.response.contentType === 'image/png' || op.operationId === 'publishSealedSource' || op.operationId === 'resolveNamespaces'
  return carriesFiles ? ['store', 'keys', 'blobs'] : ['store', 'keys']
}

