/**
 * Test support for staged execution: builds a plan and its complete portable transition set the
 * way a client SDK would (core/runtime/execution-plan.ts has the exact bytes), with capabilities
 * (and their delegation chains) and member identity proofs signed by the identity holders' ID keys; opens an authority session
 * consented for `cairn:runtime.execute`; and calls the execution use cases in process.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Principal } from '../../core/auth/principal.js'
import type { ComponentType } from '../../core/contract/components.js'
import { RUNTIME_AUTHORITY } from '../../core/contract/schemas/runtime/authority.js'
import { sha256Hex, sha256OfJson } from '../../core/digest/sha256.js'
import { toBase64Url } from '../../core/encoding/base64url.js'
import {
  appendPlanDigestOf, memberConsentBytes, planBytes, proposedHeadOf,
  type AppendPlan, type OperationPlan, type TransitionMember, type TransitionSet,
} from '../../core/runtime/execution-plan.js'
import { runtimeUseCases } from '../../core/runtime/index.js'
import { loadParticipantHeads } from '../../core/runtime/participant-heads.js'
import { kaiMomentAt } from '../../core/time/kai.js'
import type { CoreDeps, UseCase } from '../../core/usecases/use-case.js'
import { FixedClock, MemoryBlobStore, MemoryEventBus, MemoryKeyStore, SeededEntropy } from '../../adapters/memory/index.js'
import { collections } from '../../core/usecases/collections.js'
import type { Store } from '../../ports/store.js'
import { signCapabilityChain, type LinkToSign } from './capability-chain-test-support.js'
import { APP, createIdentityHolder, runtimeDeployment, type IdentityHolder, type PortableArtifact } from './runtime-test-support.js'

export const REGISTRY = sha256OfJson({ schema: 'cairn.v124.registry', version: 'cairn.v124.registry.1' })
export const REDUCER = sha256OfJson({ schema: 'cairn.v124.reducer', version: 'cairn.v124.reducer.1' })
export const EXECUTION_SCOPES = ['cairn:runtime.session', 'cairn:runtime.execute', 'cairn:runtime.read']
export const SESSION_AUDIENCE = 'https://notes.example'

type Digest = { algorithm: 'sha-256'; binds: string; value: string }
const typed = <B extends string>(binds: B, value: string) => ({ algorithm: 'sha-256' as const, binds, value }) as Digest & { binds: B }

/** One participant's part of a plan. */
export interface MemberDraft {
  readonly participantId: string
  readonly expectedHead: string
  /** The artifact the participant stands for now (any proof object of the owner at genesis). */
  readonly predecessor: PortableArtifact
  readonly candidate: PortableArtifact
  /** The artifacts' owner: issues the capability. */
  readonly owner: IdentityHolder
  /** Who acts (signs the member consent); the owner unless given (then `delegate`). */
  readonly actor?: IdentityHolder
  readonly event?: Record<string, unknown>
  /** This member's event namespace (the draft's, else `{ scheme: 'subject', value: 'profile' }`). */
  readonly namespace?: { readonly scheme: string; readonly value: string }
  /** A private payload the member's event commits to (planning.privatePayload). */
  readonly privatePayload?: NonNullable<TransitionMember['planning']['privatePayload']>
  /** Overrides of the actor's capability payload (tests of refusals). */
  readonly capability?: Partial<ComponentType<'V124CapabilityPayload'>>
  /** Delegations from the owner down to whoever issues the actor's capability, root first (none: the owner issues it). */
  readonly delegation?: readonly DelegationDraft[]
}

/** One delegation link: whom it grants, overrides of its payload, and who signs it (its issuer unless given). */
export interface DelegationDraft {
  readonly grantee: IdentityHolder
  readonly capability?: Partial<ComponentType<'V124CapabilityPayload'>>
  readonly signer?: IdentityHolder
}

export interface ExecutionDraft {
  readonly plan: OperationPlan
  readonly transitionSet: TransitionSet
}

/**
 * A plan and its transition set.
 *
 * @example draftExecution(deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: [{ participantId: 'doc-1', expectedHead, predecessor, candidate, owner: ada }] })
 */
export function draftExecution(
  deps: Pick<CoreDeps, 'clock'>,
  input: {
    readonly applicationId: string
    readonly domainId?: string
    readonly operationKind?: string
    readonly semanticIdempotencyKey: string
    readonly attemptId?: string
    readonly audience?: string
    readonly members: readonly MemberDraft[]
    readonly extraPlan?: Record<string, unknown>
    /** The members' event namespace (`{ scheme: 'subject', value: 'profile' }` unless given). */
    readonly namespace?: { readonly scheme: string; readonly value: string }
  },
): ExecutionDraft {
  const nowMs = deps.clock.now()
  const registry = typed('registry', REGISTRY)
  const built = input.members.map((draft) => {
    const actor = draft.actor ?? draft.owner
    const event = draft.event ?? { set: { participant: draft.participantId, key: input.semanticIdempotencyKey } }
    const commitDomain = { scheme: 'artifact', value: draft.participantId }
    const namespace = draft.namespace ?? input.namespace ?? { scheme: 'subject', value: 'profile' }
    const eventDigest = sha256OfJson(event)
    const proposed = proposedHeadOf(draft.expectedHead, { applicationId: input.applicationId, participantId: draft.participantId, eventDigest, candidateArtifactSha256: draft.candidate.artifactSha256 })
    const actorRef = { actorId: actor.userId, evidenceDigest: typed('verified-actor-evidence', sha256Hex(actor.identityArtifact.artifactSha256)), admissionProfile: 'cairn.identity', registryDigest: registry }
    const transition = {
      artifactId: draft.participantId,
      priorArtifactDigest: typed('artifact', draft.predecessor.artifactSha256),
      basePayloadDigest: typed('payload', draft.predecessor.payloadSha256),
      expectedHead: typed('history', draft.expectedHead),
      proposedHistoryHead: typed('history', proposed),
      namespace,
      namespaceLawVersion: 'law.1',
      namespaceReducerVersion: 'cairn.v124.reducer.1',
      priorNamespaceBodyDigest: null,
      eventDigest: typed('namespace-event', eventDigest),
      proposedNamespaceBodyDigest: typed('namespace-body', sha256OfJson({ body: event })),
      preservedNamespaces: [],
      registryDigest: registry,
      actor: actorRef,
      proofSuiteRequirements: { signatureVersion: 'cairn.proof.1', carrier: draft.candidate.mimeType },
    }
    const unsigned = {
      transitionDigest: typed('artifact-transition', sha256OfJson(transition)),
      actor: actorRef,
      resource: `artifact:${draft.participantId}`,
      operation: 'artifact.append',
      commitDomain,
      effectsDigest: typed('external-operation-effects', sha256OfJson([])),
      idempotencyKeyDigest: typed('idempotency-identity', sha256OfJson({ key: input.semanticIdempotencyKey, participant: draft.participantId })),
      registryDigest: registry,
      schema: 'cairn.v124.artifact_append_plan' as const,
      transition,
      actorConstraint: (actor === draft.owner ? 'owner' : 'delegate') as 'owner' | 'delegate',
    }
    const appendPlanDigest = appendPlanDigestOf(unsigned)
    const operationPlan = { ...unsigned, planDigest: typed('artifact-append-plan', appendPlanDigest), authority: RUNTIME_AUTHORITY } as AppendPlan
    return { draft, actor, event, commitDomain, namespace, proposed, appendPlanDigest, operationPlan }
  })
  const attemptId = input.attemptId ?? 'a1'
  const bytes = planBytes(Object.fromEntries(built.map((b) => [b.draft.participantId, b.appendPlanDigest])), input.extraPlan)
  const exactPlanDigest = sha256Hex(bytes)
  const expectedParticipantHeads = Object.fromEntries(built.map((b) => [b.draft.participantId, b.draft.expectedHead]))
  const plan: OperationPlan = {
    schema: 'cairn.v124.operation_plan', applicationId: input.applicationId, domainId: input.domainId ?? 'notes', operationKind: input.operationKind ?? 'append',
    registryDigest: REGISTRY, reducerDigest: REDUCER, exactPlanBytesB64u: toBase64Url(bytes), exactPlanDigest, expectedParticipantHeads,
    semanticIdempotencyKey: input.semanticIdempotencyKey, attemptId, writesOnFailure: 0,
  }
  const members: TransitionMember[] = built.map((b) => {
    const delegation = b.draft.delegation ?? []
    // Who issues each link: the owner the root, each grantee the next link, the last one the actor's capability.
    const issuers = [b.draft.owner, ...delegation.map((link) => link.grantee)]
    const common = {
      schema: 'cairn.v124.capability_payload', capabilityId: `cap-${b.appendPlanDigest.slice(0, 16)}`,
      tenantId: input.applicationId, audience: input.audience ?? SESSION_AUDIENCE, authorityProfile: 'cairn.owner', operations: ['artifact.append'],
      resourceScopes: ['cairn:runtime.execute'], maximumEffects: 1, registryDigest: typed('registry', REGISTRY),
      validFromKai: kaiMomentAt(nowMs - 60_000).uPulse, expiresAtKai: kaiMomentAt(nowMs + 60 * 60_000).uPulse, nonce: toBase64Url(new TextEncoder().encode(`nonce-${b.appendPlanDigest.slice(0, 24)}`)),
      maximumDelegationDepth: delegation.length, offline: false,
    } as const
    const links: LinkToSign[] = [
      ...delegation.map((link, depth) => {
        const signer = link.signer ?? issuers[depth]!
        return {
          signer,
          payload: {
            ...common, capabilityId: `${common.capabilityId}-${depth}`, nonce: `${common.nonce}-${depth}`, issuerKeyId: signer.keyId, actorId: link.grantee.userId,
            operationConstraints: null, ...link.capability,
          } as LinkToSign['payload'],
        }
      }),
      {
        signer: issuers[delegation.length]!,
        payload: {
          ...common, issuerKeyId: issuers[delegation.length]!.keyId, actorId: b.actor.userId,
          operationConstraints: { planDigest: typed('artifact-append-plan', b.appendPlanDigest), commitDomain: b.commitDomain }, ...b.draft.capability,
        } as LinkToSign['payload'],
      },
    ]
    const chain = signCapabilityChain(links)
    const consent = memberConsentBytes({ applicationId: input.applicationId, exactPlanDigest, participantId: b.draft.participantId, appendPlanDigest: b.appendPlanDigest })
    return {
      schema: 'cairn.v124.portable_execution_transition_member',
      profile: 'cairn.artifact',
      participantId: b.draft.participantId,
      operationPlan: b.operationPlan,
      planning: {
        commitDomain: b.commitDomain, namespace: b.namespace, event: b.event, expectedHead: b.draft.expectedHead, idempotencyKey: input.semanticIdempotencyKey,
        ...(b.draft.privatePayload ? { privatePayload: b.draft.privatePayload } : {}),
      },
      predecessor: b.draft.predecessor,
      candidate: b.draft.candidate,
      identityArtifact: { exactBytesB64u: b.actor.identityArtifact.exactBytesB64u, digest: b.actor.identityArtifact.artifactSha256 },
      signedCapability: chain[chain.length - 1]!,
      ...(delegation.length > 0 ? { parentCapabilities: chain.slice(0, -1) } : {}),
      identityProof: { schema: 'cairn.v124.identity_login_proof', keyId: b.actor.keyId, alg: 'EdDSA', challengeB64Url: toBase64Url(consent), signatureB64Url: b.actor.sign(consent) },
      authority: RUNTIME_AUTHORITY,
    } as TransitionMember
  })
  const transitionSet: TransitionSet = {
    schema: 'cairn.v124.portable_execution_transition_set', applicationId: input.applicationId, exactPlanDigest, expectedParticipantHeads,
    proposedParticipantHeads: Object.fromEntries(built.map((b) => [b.draft.participantId, b.proposed])), members, authority: RUNTIME_AUTHORITY,
  }
  return { plan, transitionSet }
}

/** The participants' current heads and the artifact each stands for (null at genesis). */
export async function currentHeads(deps: Pick<CoreDeps, 'store'>, applicationId: string, participantIds: readonly string[]) {
  const states = await loadParticipantHeads(deps, applicationId, participantIds)
  return new Map(states.map((state) => [state.participantId, { head: state.head, artifactSha256: state.record?.artifactSha256 ?? null }]))
}

export function bearerOf(applicationId: string, holder: IdentityHolder, scopes: readonly string[] = EXECUTION_SCOPES): Principal {
  return { kind: 'bearer', actsAsClient: true, subject: holder.userId, clientId: applicationId, scopes, tokenId: 'tok', businessTier: false }
}

export type ExecutionOperation = 'stageExecution' | 'executeExecution' | 'cancelExecution' | 'getExecution' | 'getExecutionByIdempotency' | 'openAuthoritySession'

/** Calls a runtime use case in process; answers the envelope body, or the refusal. */
export async function callRuntime(deps: CoreDeps, operation: ExecutionOperation, principal: Principal, input: { body?: unknown; params?: Record<string, string> }) {
  const reply = await (runtimeUseCases[operation] as unknown as UseCase)({ params: input.params ?? {}, query: {}, body: input.body, principal }, deps)
  if (E.isLeft(reply)) return { ok: false as const, error: reply.left }
  const json = reply.right as { kind: 'json'; body: { wire: Record<string, unknown> & { status?: string; reasonCode?: string } }; headers?: Record<string, string> }
  return { ok: true as const, envelope: json.body, wire: json.body.wire, headers: json.headers ?? {} }
}

/** Opens an authority session for `holder` consented for executing; answers its wire. */
export async function openExecutionSession(deps: CoreDeps, applicationId: string, holder: IdentityHolder, scopes: readonly string[] = EXECUTION_SCOPES): Promise<ComponentType<'V124AuthoritySession'>> {
  const answer = await callRuntime(deps, 'openAuthoritySession', bearerOf(applicationId, holder, [...new Set([...EXECUTION_SCOPES, ...scopes])]), {
    body: {
      applicationId, actorSubjectId: holder.userId, artifact: { exactBytesB64u: holder.identityArtifact.exactBytesB64u, digest: holder.identityArtifact.artifactSha256 },
      subjectSourceArtifact: holder.identityArtifact, signedChallenge: holder.challenge({ audience: SESSION_AUDIENCE, scopes }), requestedRails: [], requiredNamespaces: [], audience: SESSION_AUDIENCE,
    },
  })
  if (!answer.ok) throw new Error(`open refused: ${answer.error.message}`)
  return answer.wire as unknown as ComponentType<'V124AuthoritySession'>
}

/** A whole runtime on one store: deps, a person with a pool of sealed artifacts, and an execution session. */
export interface ExecutionWorld {
  readonly deps: CoreDeps
  readonly owner: IdentityHolder
  readonly pool: readonly PortableArtifact[]
  readonly session: ComponentType<'V124AuthoritySession'>
  readonly principal: Principal
}

/**
 * @example const world = await createExecutionWorld(store, { seed: 'lin' })
 */
export async function createExecutionWorld(store: Store, options: { readonly seed: string; readonly clock?: FixedClock; readonly poolSize?: number }): Promise<ExecutionWorld> {
  const deps: CoreDeps = {
    store, blobs: new MemoryBlobStore(), clock: options.clock ?? new FixedClock(Date.parse('2026-06-25T00:00:00Z')), entropy: new SeededEntropy(options.seed),
    events: new MemoryEventBus(), keys: new MemoryKeyStore(), config: { baseUrl: 'https://cairn.test', deployment: runtimeDeployment() },
  }
  await store.declare(collections)
  const owner = await createIdentityHolder(deps, 'ada')
  const pool: PortableArtifact[] = []
  for (let i = 0; i < (options.poolSize ?? 3); i++) pool.push(await owner.seal(`doc-${i}.json`, 'application/json', new TextEncoder().encode(JSON.stringify({ doc: i }))))
  const session = await openExecutionSession(deps, APP, owner)
  return { deps, owner, pool, session, principal: bearerOf(APP, owner) }
}

/** Members for `participantIds` at their current heads: predecessor the artifact each stands for, candidate another (`choose(n)` picks). */
export async function membersAtCurrentHeads(world: Pick<ExecutionWorld, 'deps' | 'owner' | 'pool'>, participantIds: readonly string[], choose: (n: number) => number = () => 0): Promise<MemberDraft[]> {
  const heads = await currentHeads(world.deps, APP, participantIds)
  return participantIds.map((participantId) => {
    const current = heads.get(participantId)!
    const predecessor = world.pool.find((a) => a.artifactSha256 === current.artifactSha256) ?? world.pool[0]!
    const others = world.pool.filter((a) => a !== predecessor)
    return { participantId, expectedHead: current.head, predecessor, candidate: others[choose(others.length)]!, owner: world.owner }
  })
}

/** Stages `draft` and answers its handle (throws on refusal). */
export async function stageDraft(world: Pick<ExecutionWorld, 'deps' | 'principal'>, draft: ExecutionDraft, deps: CoreDeps = world.deps): Promise<ComponentType<'V124DurableExecutionHandle'>> {
  const staged = await callRuntime(deps, 'stageExecution', world.principal, { body: { applicationId: APP, plan: draft.plan } })
  if (!staged.ok) throw new Error(`stage refused: ${staged.error.message}`)
  return staged.wire as unknown as ComponentType<'V124DurableExecutionHandle'>
}

/** Executes a staged draft under the world's session. */
export function executeDraft(world: Pick<ExecutionWorld, 'deps' | 'principal' | 'session'>, draft: ExecutionDraft, handle: ComponentType<'V124DurableExecutionHandle'>, deps: CoreDeps = world.deps) {
  return callRuntime(deps, 'executeExecution', world.principal, { body: { applicationId: APP, handle, authoritySession: world.session, transitionSet: draft.transitionSet } })
}

/** Every participant's head and move count (0 and the genesis head for one that never moved). */
export async function finalParticipantStates(deps: Pick<CoreDeps, 'store'>, participantIds: readonly string[]): Promise<Map<string, { head: string; sequence: number }>> {
  const states = await loadParticipantHeads(deps, APP, participantIds)
  return new Map(states.map((state) => [state.participantId, { head: state.head, sequence: state.record?.sequence ?? 0 }]))
}

/** A small seeded PRNG (mulberry32 over a SHA-256 of the seed), for choices tests must replay. */
export function seededRandom(seed: string): (n: number) => number {
  let state = Number.parseInt(sha256Hex(seed).slice(0, 8), 16) >>> 0
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (((t ^ (t >>> 14)) >>> 0) % n)
  }
}
