/**
 * Test support for staged execution: builds a plan and its complete portable transition set with
 * cairn/client's plan builder (client/execution-plans.ts), capabilities (and their delegation
 * chains) and member identity proofs signed by the identity holders' ID keys; opens an authority
 * session consented for `cairn:runtime.execute`; and calls the execution use cases in process.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Principal } from '../../core/auth/principal.js'
import type { ComponentType } from '../../core/contract/components.js'
import { sha256Hex } from '../../core/digest/sha256.js'
import { fromBase64Url } from '../../core/encoding/base64url.js'
import { runtimeUseCases } from '../../core/runtime/index.js'
import { loadParticipantHeads } from '../../core/runtime/participant-heads.js'
import type { CoreDeps, UseCase } from '../../core/usecases/use-case.js'
import { FixedClock, MemoryBlobStore, MemoryEventBus, MemoryKeyStore, SeededEntropy } from '../../adapters/memory/index.js'
import { collections } from '../../core/usecases/collections.js'
import type { Store } from '../../ports/store.js'
import {
  draftExecutionPlan,
  type DelegationStep, type ExecutionPlanInput, type OperationPlan, type PlanParticipant, type TransitionSet,
} from '../../client/index.js'
import { APP, createIdentityHolder, openSessionBody, runtimeDeployment, type IdentityHolder, type PortableArtifact } from './runtime-test-support.js'

export { DEFAULT_REGISTRY_DIGEST as REGISTRY, DEFAULT_REDUCER_DIGEST as REDUCER } from '../../client/index.js'
export const EXECUTION_SCOPES = ['cairn:runtime.session', 'cairn:runtime.execute', 'cairn:runtime.read']
export const SESSION_AUDIENCE = 'https://notes.example'

/** One participant's part of a plan, signed by test identity holders. */
export type MemberDraft = PlanParticipant<IdentityHolder>

/** One delegation link: whom it grants, overrides of its payload, and who signs it (its issuer unless given). */
export type DelegationDraft = DelegationStep<IdentityHolder>

export interface ExecutionDraft {
  readonly plan: OperationPlan
  readonly transitionSet: TransitionSet
}

/**
 * A plan and its transition set, built by cairn/client's `draftExecutionPlan` and signed at once
 * by the holders' synchronous Ed25519 keys (defaults of these tests: domain `notes`, operation
 * `append`, the session audience `SESSION_AUDIENCE`).
 *
 * @example draftExecution(deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: [{ participantId: 'doc-1', expectedHead, predecessor, candidate, owner: ada }] })
 */
export function draftExecution(
  deps: Pick<CoreDeps, 'clock'>,
  input: Omit<ExecutionPlanInput<IdentityHolder>, 'domainId' | 'operationKind' | 'participants'> & {
    readonly domainId?: string
    readonly operationKind?: string
    readonly members: readonly MemberDraft[]
  },
): ExecutionDraft {
  const { members, ...rest } = input
  const draft = draftExecutionPlan({ ...rest, domainId: input.domainId ?? 'notes', operationKind: input.operationKind ?? 'append', audience: input.audience ?? SESSION_AUDIENCE, participants: members }, deps.clock.now())
  return { plan: draft.plan, transitionSet: draft.transitionSet(draft.toSign.map(({ signer, bytes }) => fromBase64Url(signer.sign(bytes))!)) }
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
    body: openSessionBody(holder, { applicationId, audience: SESSION_AUDIENCE, consent: scopes }),
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
