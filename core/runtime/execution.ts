/**
 * Staged execution (`/api/sdk/v1/execution/stage|execute|cancel` and the two lookups):
 *
 * - stage persists one canonical plan under its idempotency coordinates; a byte-identical retry
 *   answers the same handle and writes nothing; a different plan under the same coordinates is
 *   refused while the current attempt is staged or committed (after a zero-write or cancelled
 *   attempt, a new `attemptId` restages);
 * - execute verifies the live authority session and the whole transition set, then moves every
 *   participant head, appends the plan's events to its domain (execution-domain.ts) and marks the
 *   execution committed in ONE commit whose expectations are all the heads and the domain head
 *   (`commitParticipantHeads`), or writes no participant head and no domain data: a stale head or an expired
 *   plan is recorded as the terminal `zero-write` outcome, any other refusal leaves the execution
 *   as it was and answers a zero-write failure with its `reasonCode`;
 * - cancel marks a staged plan cancelled (no participant head is touched); committed or zero-write
 *   plans cannot be cancelled and cancelled ones cannot execute;
 * - lookups by execution id or idempotency coordinates answer the outcome with the one safe next
 *   step (`recoveryOf`, also in the `cairn-execution-recovery` header).
 *
 * A staged plan belongs to the subject who staged it (the token's person): its coordinates and id
 * are that stager's, lookups and cancel answer only to them, and execute to them or to a delegate
 * whose capability chains are rooted in them. Anyone else gets exactly the answer an unknown
 * execution gets, so nothing of another user's plan is revealed.
 *
 * decode → load → decide (pure) → one commit; every answer is a signed V124 envelope.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { ComponentType } from '../contract/components.js'
import { RUNTIME_AUTHORITY } from '../contract/schemas/runtime/authority.js'
import { canonicalJson } from '../digest/canonical-json.js'
import { sha256OfJson } from '../digest/sha256.js'
import { conflict, forbidden, invalidInput, notFound, type DomainError } from '../errors/domain-error.js'
import { kaiMomentAt } from '../time/kai.js'
import type { Write } from '../../ports/store.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import { json, type CoreDeps, type OperationRequest, type ReplyOf, type UseCaseFor } from '../usecases/use-case.js'
import { activeSession } from './authority-sessions.js'
import { executionDomainAppend } from './execution-domain.js'
import { coordinatesKey, executionIdOf, parsePlanBytes, type ExecutionCoordinates, type OperationPlan, type PlanBody } from './execution-plan.js'
import { commitParticipantHeads, firstHeadMismatch, loadParticipantHeads } from './participant-heads.js'
import { revocationHeadOf } from './revocation-head.js'
import { executionCoordinates, executions, type CoordinatesRecord, type ExecutionRecord, type ExecutionStatus } from './execution-records.js'
import { runtimeCaller, type RuntimeCaller } from './runtime-caller.js'
import { calledPath, requestDigestOf, signEnvelope } from './signed-envelope.js'
import { verifyTransitionSet, type ExecutionRefusal, type FailureReason, type VerifiedMove } from './verify-transition-set.js'

/** How long a staged plan may wait for execute: after it, the plan is a terminal zero-write (`plan-expired`). */
export const STAGING_WINDOW_MS = 24 * 60 * 60 * 1000

/** The scope an authority session's consent must cover to execute or cancel for its person. */
export const EXECUTE_SCOPE = 'cairn:runtime.execute'

type Handle = ComponentType<'V124DurableExecutionHandle'>
type Outcome = ComponentType<'V124ExecutionOutcome'>
type Committed = ComponentType<'V124CommittedExecutionOutcome'>
type Noncommitted = ComponentType<'V124NoncommittedExecutionOutcome'>
type Unknown = ComponentType<'V124UnknownExecutionOutcome'>
type ZeroWriteFailure = ComponentType<'V124ExecutionZeroWriteFailure'>
type Recovery = ComponentType<'V124ExecutionTransitionRecoveryResponse'>['recovery']
export type { ExecutionRecord, ExecutionStatus }

export const executionKey = (applicationId: string, executionId: string): string => `${applicationId}:${executionId}`

const sameJson = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b)
const kai = (ms: number): number => kaiMomentAt(ms).uPulse

function coordinatesOf(source: Pick<Handle, 'executionId' | 'applicationId' | 'domainId' | 'operationKind' | 'exactPlanDigest' | 'semanticIdempotencyKey' | 'attemptId'>) {
  return {
    executionId: source.executionId, applicationId: source.applicationId, domainId: source.domainId, operationKind: source.operationKind,
    exactPlanDigest: source.exactPlanDigest, semanticIdempotencyKey: source.semanticIdempotencyKey, attemptId: source.attemptId,
  }
}

/** The one safe next step for an outcome (docs/decisions.md). @example recoveryOf({ status: 'staged' }) // 'execute-staged' */
export function recoveryOf(outcome: { readonly status?: string }): Recovery {
  switch (outcome.status) {
    case 'committed': return 'none'
    case 'staged': return 'execute-staged'
    case 'zero-write':
    case 'cancelled': return 'restage'
    default: return 'resolve-later'
  }
}

function committedOutcome(record: ExecutionRecord, committedHeads: Record<string, string>, atMs: number, requestDigest: string): Committed {
  const coordinates = coordinatesOf(record.handle)
  const terminalAtKaiUPulse = kai(atMs)
  const outcomeDigest = sha256OfJson({ schema: 'cairn.v124.execution_outcome', status: 'committed', ...coordinates, terminalAtKaiUPulse, committedHeads })
  return {
    schema: 'cairn.v124.committed_execution_outcome', status: 'committed', ...coordinates, terminalAtKaiUPulse, committedHeads, outcomeDigest,
    authority: RUNTIME_AUTHORITY, receiptDigest: sha256OfJson({ schema: 'cairn.v124.execution_outcome_receipt', handleDigest: record.handle.handleDigest, outcomeDigest, requestDigest }),
  }
}

function noncommittedOutcome(record: ExecutionRecord, status: 'zero-write' | 'cancelled', reasonCode: FailureReason, atMs: number, requestDigest: string | null): Noncommitted {
  const coordinates = coordinatesOf(record.handle)
  const terminalAtKaiUPulse = kai(atMs)
  const outcomeDigest = sha256OfJson({ schema: 'cairn.v124.execution_outcome', status, ...coordinates, terminalAtKaiUPulse, reasonCode })
  return {
    schema: 'cairn.v124.noncommitted_execution_outcome', status, ...coordinates, terminalAtKaiUPulse, reasonCode, writes: 0, outcomeDigest,
    authority: RUNTIME_AUTHORITY, receiptDigest: sha256OfJson({ schema: 'cairn.v124.execution_outcome_receipt', handleDigest: record.handle.handleDigest, outcomeDigest, requestDigest }),
  }
}

function stagedOutcome(record: ExecutionRecord): Unknown {
  return {
    schema: 'cairn.v124.unknown_execution_outcome', status: 'staged', ...coordinatesOf(record.handle), stagedAtKaiUPulse: record.handle.stagedAtKaiUPulse,
    plan: record.plan, authority: RUNTIME_AUTHORITY, receiptDigest: record.handle.receiptDigest,
  }
}

/**
 * What an execution is now: its terminal outcome, or staged; a staged plan past its window is the
 * zero-write `plan-expired` outcome at the moment the window closed (derived, the same bytes
 * whether or not an execute recorded it).
 */
export function currentOutcome(record: ExecutionRecord, nowMs: number): Outcome {
  if (record.outcome) return record.outcome
  if (nowMs >= record.expiresAtMs) return noncommittedOutcome(record, 'zero-write', 'plan-expired', record.expiresAtMs, null)
  return stagedOutcome(record)
}

function zeroWriteFailure(handle: Handle, refusal: ExecutionRefusal, requestDigest: string): ZeroWriteFailure {
  const coordinates = coordinatesOf(handle)
  const failureDigest = sha256OfJson({ schema: 'cairn.v124.execution_zero_write_failure', ...coordinates, reasonCode: refusal.reason, requestDigest })
  return {
    schema: 'cairn.v124.execution_zero_write_failure', ...coordinates, reasonCode: refusal.reason, writes: 0, failureDigest,
    authority: RUNTIME_AUTHORITY, receiptDigest: sha256OfJson({ schema: 'cairn.v124.execution_failure_receipt', failureDigest, requestDigest }),
  }
}

type ExecutionOperation = 'stageExecution' | 'executeExecution' | 'cancelExecution' | 'getExecution' | 'getExecutionByIdempotency'
const ENVELOPE_SCHEMA = {
  stageExecution: 'cairn.v124.signed_execution_stage_envelope',
  executeExecution: 'cairn.v124.signed_execution_resolution_envelope',
  cancelExecution: 'cairn.v124.signed_execution_cancel_envelope',
  getExecution: 'cairn.v124.signed_execution_resolution_envelope',
  getExecutionByIdempotency: 'cairn.v124.signed_execution_resolution_envelope',
} as const

function requestDigestFor(operationId: ExecutionOperation, request: OperationRequest): string {
  const { method, path } = calledPath(operationId, request.params)
  return requestDigestOf(method, path, request.body)
}

async function answer<Id extends ExecutionOperation>(
  deps: CoreDeps, operationId: Id, request: OperationRequest, applicationId: string, audience: string, wire: Handle | Outcome | ZeroWriteFailure, requestDigest?: string,
): Promise<ReplyOf<Id>> {
  const envelope = await signEnvelope(deps, ENVELOPE_SCHEMA[operationId], wire, {
    operationId, params: request.params, body: request.body, applicationId, audience, revocationHead: await revocationHeadOf(deps, applicationId), ...(requestDigest ? { requestDigest } : {}),
  })
  const headers: Record<string, string> = { 'cache-control': 'no-store' }
  if ('status' in wire) headers['cairn-execution-recovery'] = recoveryOf(wire)
  // The wire is the operation's by construction (stage: the handle; execute and lookups: an outcome or a failure; cancel: the cancelled outcome or a failure).
  return json(envelope, headers) as ReplyOf<Id>
}

async function loadExecution(deps: Pick<CoreDeps, 'store'>, applicationId: string, executionId: string) {
  const doc = await executions.get(deps.store, executionKey(applicationId, executionId))
  return doc && { version: doc.version, record: doc.value }
}

const putExecution = (record: ExecutionRecord, version: number | null): Write =>
  executions.put(executionKey(record.applicationId, record.executionId), record, unchangedSince(version))

/**
 * How many times a use case re-reads and decides again after losing a race on its own records or
 * on its domain's head (every plan of a domain appends to one chain, so commits in a busy domain
 * serialise there; each lost round means another plan committed).
 */
const RACE_ROUNDS = 32

/** @example await stageExecution({ body: { applicationId, plan }, principal: bearer, … }, deps) */
export const stageExecution: UseCaseFor<'stageExecution'> = async (request, deps) => {
  const { applicationId, plan } = request.body
  const caller = runtimeCaller(request.principal, applicationId)
  if (E.isLeft(caller)) return caller
  if (plan.applicationId !== applicationId) return E.left(forbidden('plan.applicationId must be the application the access token was issued to'))
  const body = parsePlanBytes(plan)
  if (typeof body === 'string') return E.left(invalidInput(body))
  const stager = caller.right.subject
  const executionId = executionIdOf(plan, stager)
  const coordinates: ExecutionCoordinates = { applicationId, domainId: plan.domainId, operationKind: plan.operationKind, semanticIdempotencyKey: plan.semanticIdempotencyKey }
  const coordKey = coordinatesKey(coordinates, stager)
  const requestDigest = requestDigestFor('stageExecution', request)

  for (let round = 0; round < RACE_ROUNDS; round++) {
    const now = deps.clock.now()
    const existing = await loadExecution(deps, applicationId, executionId)
    if (existing) {
      if (!sameJson(existing.record.plan, plan)) return E.left(conflict('A different plan was staged under these idempotency coordinates and attemptId; nothing was staged'))
      return E.right(await answer(deps, 'stageExecution', request, applicationId, applicationId, existing.record.handle, requestDigest))
    }
    const pointer = await executionCoordinates.get(deps.store, coordKey)
    const prior = pointer?.value
    if (prior) {
      const current = await loadExecution(deps, applicationId, prior.executionId)
      const status = current ? currentOutcome(current.record, now).status : 'zero-write'
      if (status === 'staged' || status === 'committed') {
        return E.left(conflict(`A different plan is ${status} under these idempotency coordinates; resolve it by its coordinates instead of staging another`))
      }
    }
    const record = stagedRecord(plan, stager, executionId, coordKey, now, requestDigest)
    const coordinatesRecord: CoordinatesRecord = { ...coordinates, stagerSubjectId: stager, executionId, attempts: (prior?.attempts ?? 0) + 1 }
    const outcome = await deps.store.commit([
      executionCoordinates.put(coordKey, coordinatesRecord, unchangedSince(pointer?.version ?? null)),
      putExecution(record, null),
    ])
    if (outcome.ok) return E.right(await answer(deps, 'stageExecution', request, applicationId, applicationId, record.handle, requestDigest))
  }
  return E.left(conflict('The idempotency coordinates kept changing while staging; resolve them and try again'))
}

function stagedRecord(plan: OperationPlan, stagerSubjectId: string, executionId: string, coordKey: string, nowMs: number, requestDigest: string): ExecutionRecord {
  const coordinates = coordinatesOf({ ...plan, executionId })
  const stagedAtKaiUPulse = kai(nowMs)
  const handleDigest = sha256OfJson({ schema: 'cairn.v124.durable_execution_handle_binding', ...coordinates, stagedAtKaiUPulse, planDigest: sha256OfJson(plan) })
  const handle: Handle = {
    schema: 'cairn.v124.durable_execution_handle', ...coordinates, stagedAtKaiUPulse, handleDigest, authority: RUNTIME_AUTHORITY,
    receiptDigest: sha256OfJson({ schema: 'cairn.v124.execution_stage_receipt', handleDigest, requestDigest }),
  }
  return {
    applicationId: plan.applicationId, stagerSubjectId, executionId, coordinatesKey: coordKey, plan, handle, status: 'staged', stagedAtMs: nowMs, expiresAtMs: nowMs + STAGING_WINDOW_MS, outcome: null,
  }
}

/** What a caller who did not stage an execution (and is not its delegate) is told: exactly what an unknown handle gets. */
const NOT_HELD: ExecutionRefusal = { reason: 'handle-invalid', message: 'The handle does not name a staged execution of this application' }

/**
 * The execution a held handle names, and the live session bound to its application: or the
 * refusal. `foreign` when the caller is not its stager: such a caller is refused exactly like an
 * unknown handle, whatever else is wrong, and gets further only where a delegate may act
 * (`delegable`: execute, whose transition set can show a chain rooted in the stager; cancel
 * carries none).
 */
async function heldExecution(
  deps: CoreDeps, caller: RuntimeCaller, handle: Handle, session: ComponentType<'V124AuthoritySession'>, delegable: boolean,
): Promise<Either<ExecutionRefusal, { version: number; record: ExecutionRecord; audience: string; foreign: boolean }>> {
  const stored = await loadExecution(deps, caller.applicationId, handle.executionId)
  if (!stored || !sameJson(stored.record.handle, handle)) return E.left(NOT_HELD)
  const foreign = stored.record.stagerSubjectId !== caller.subject
  if (foreign && !delegable) return E.left(NOT_HELD)
  const live = await activeSession(deps, caller, session.authoritySessionHandle)
  if (E.isLeft(live) || live.right.record.sessionBindingDigest !== session.sessionBindingDigest || live.right.record.applicationId !== stored.record.applicationId) {
    return E.left(foreign ? NOT_HELD : { reason: 'authority-invalid', message: 'The authority session is not open, not this application\'s, or not the session held' })
  }
  if (!live.right.record.grantedScopes.includes(EXECUTE_SCOPE)) {
    return E.left(foreign ? NOT_HELD : { reason: 'authority-invalid', message: `The authority session's consent does not cover ${EXECUTE_SCOPE}` })
  }
  return E.right({ version: stored.version, record: stored.record, audience: live.right.record.audience, foreign })
}

/**
 * Pure: whether `caller` may execute a plan `stager` staged on the strength of its verified
 * members: every member's capability chain is rooted in the stager (the stager owns the artifacts
 * and signed the root) and names the caller as one of its actors.
 */
export function delegatedByStager(moves: readonly VerifiedMove[], stager: string, caller: string): boolean {
  return moves.length > 0 && moves.every((move) => move.ownerUserId === stager && move.chainActorIds.includes(caller))
}

/**
 * The opening execute and cancel share: the calling application, the request digest, the held
 * execution (or why it is not held) and how to answer a refusal as a signed zero-write failure.
 */
async function openHeld<Id extends 'executeExecution' | 'cancelExecution'>(
  operationId: Id, request: Parameters<UseCaseFor<'executeExecution'>>[0] | Parameters<UseCaseFor<'cancelExecution'>>[0], deps: CoreDeps,
) {
  const body = request.body
  const caller = runtimeCaller(request.principal, body.applicationId)
  if (E.isLeft(caller)) return caller
  const requestDigest = requestDigestFor(operationId, request)
  const app = caller.right.applicationId
  const refused = async (refusal: ExecutionRefusal, audience: string) =>
    E.right(await answer(deps, operationId, request, app, audience, zeroWriteFailure(body.handle, refusal, requestDigest), requestDigest))
  const held = await heldExecution(deps, caller.right, body.handle, body.authoritySession, operationId === 'executeExecution')
  return E.right({ app, subject: caller.right.subject, requestDigest, held, refused })
}

/** @example await executeExecution({ body: { applicationId, handle, authoritySession, transitionSet }, principal: bearer, … }, deps) */
export const executeExecution: UseCaseFor<'executeExecution'> = async (request, deps) => {
  const opened = await openHeld('executeExecution', request, deps)
  if (E.isLeft(opened)) return opened
  const { app, requestDigest, held, refused } = opened.right
  const { transitionSet } = request.body
  if (E.isLeft(held)) return refused(held.left, app)
  const audience = held.right.audience
  let { version, record } = held.right
  let verified: Awaited<ReturnType<typeof verifyTransitionSet>> | undefined
  if (held.right.foreign) {
    // Not the stager: only a delegate whose verified chains are rooted in the stager, and told nothing otherwise.
    verified = await verifyTransitionSet(deps, { plan: record.plan, planBody: parsePlanBytes(record.plan) as PlanBody, transitionSet, audience })
    if (E.isLeft(verified) || record.stagerSubjectId === undefined || !delegatedByStager(verified.right, record.stagerSubjectId, opened.right.subject)) return refused(NOT_HELD, app)
  }

  for (let round = 0; round < RACE_ROUNDS; round++) {
    const now = deps.clock.now()
    if (record.status !== 'staged') return E.right(await answer(deps, 'executeExecution', request, app, audience, currentOutcome(record, now), requestDigest))
    if (now >= record.expiresAtMs) {
      const expired = currentOutcome(record, now) as Noncommitted
      if ((await deps.store.commit([putExecution({ ...record, status: 'zero-write', outcome: expired }, version)])).ok) {
        return E.right(await answer(deps, 'executeExecution', request, app, audience, expired, requestDigest))
      }
    } else {
      verified ??= await verifyTransitionSet(deps, { plan: record.plan, planBody: parsePlanBytes(record.plan) as PlanBody, transitionSet, audience })
      if (E.isLeft(verified)) return refused(verified.left, audience)
      const moves = verified.right
      const states = await loadParticipantHeads(deps, app, moves.map((move) => move.participantId))
      if (firstHeadMismatch(states, moves)) {
        const stale = noncommittedOutcome(record, 'zero-write', 'head-mismatch', now, requestDigest)
        if ((await deps.store.commit([putExecution({ ...record, status: 'zero-write', outcome: stale }, version)])).ok) {
          return E.right(await answer(deps, 'executeExecution', request, app, audience, stale, requestDigest))
        }
      } else {
        const wrongPredecessor = moves.find((move) => {
          const state = states.find((s) => s.participantId === move.participantId)!
          return state.record !== null && state.record.artifactSha256 !== move.predecessorArtifactSha256
        })
        if (wrongPredecessor) {
          return refused({ reason: 'proof-invalid', message: `member ${wrongPredecessor.participantId}: the predecessor is not the artifact the participant stands for at its head` }, audience)
        }
        const appended = await executionDomainAppend(deps, record.plan, record.executionId, transitionSet.members, moves)
        if (E.isLeft(appended)) return refused(appended.left, audience)
        const committedHeads = Object.fromEntries(moves.map((move) => [move.participantId, move.nextHead]))
        const committed = committedOutcome(record, committedHeads, now, requestDigest)
        const writes = [putExecution({ ...record, status: 'committed', outcome: committed }, version), ...appended.right.writes]
        const outcome = await commitParticipantHeads(deps, app, moves, record.executionId, writes, { states })
        if (outcome.ok) return E.right(await answer(deps, 'executeExecution', request, app, audience, committed, requestDigest))
      }
    }
    // Lost a race (the execution or a head changed meanwhile): read again and decide again.
    const again = await loadExecution(deps, app, record.executionId)
    if (!again) return refused({ reason: 'handle-invalid', message: 'The execution is no longer stored' }, audience)
    version = again.version
    record = again.record
  }
  return E.left(conflict('The execution kept changing while executing; resolve it by its coordinates before any retry'))
}

/** @example await cancelExecution({ body: { applicationId, handle, authoritySession }, principal: bearer, … }, deps) */
export const cancelExecution: UseCaseFor<'cancelExecution'> = async (request, deps) => {
  const opened = await openHeld('cancelExecution', request, deps)
  if (E.isLeft(opened)) return opened
  const { app, requestDigest, held, refused } = opened.right
  if (E.isLeft(held)) return refused(held.left, app)
  const audience = held.right.audience
  let { version, record } = held.right
  for (let round = 0; round < RACE_ROUNDS; round++) {
    const now = deps.clock.now()
    const current = currentOutcome(record, now)
    if (current.status === 'cancelled') return E.right(await answer(deps, 'cancelExecution', request, app, audience, current, requestDigest))
    if (current.status !== 'staged') return refused({ reason: 'already-terminal', message: `The execution is ${current.status}; it cannot be cancelled` }, audience)
    const cancelled = noncommittedOutcome(record, 'cancelled', 'cancelled', now, requestDigest)
    if ((await deps.store.commit([putExecution({ ...record, status: 'cancelled', outcome: cancelled }, version)])).ok) {
      return E.right(await answer(deps, 'cancelExecution', request, app, audience, cancelled, requestDigest))
    }
    const again = await loadExecution(deps, app, record.executionId)
    if (!again) return refused({ reason: 'handle-invalid', message: 'The execution is no longer stored' }, audience)
    version = again.version
    record = again.record
  }
  return E.left(conflict('The execution kept changing while cancelling; resolve it by its coordinates'))
}

const UNKNOWN = 'unknown: no execution is staged under these coordinates for this application and person; stage the plan'

async function lookup<Id extends 'getExecution' | 'getExecutionByIdempotency'>(
  deps: CoreDeps, operationId: Id, request: OperationRequest, applicationId: string, find: (stager: string) => Promise<ExecutionRecord | undefined>,
): Promise<Either<DomainError, ReplyOf<Id>>> {
  const caller = runtimeCaller(request.principal)
  if (E.isLeft(caller)) return caller
  // A person sees only the executions they staged through this application: another application's
  // or another person's finds nothing (its existence is not disclosed).
  if (caller.right.applicationId !== applicationId) return E.left(notFound(UNKNOWN))
  const record = await find(caller.right.subject)
  if (!record || record.stagerSubjectId !== caller.right.subject) return E.left(notFound(UNKNOWN))
  return E.right(await answer(deps, operationId, request, applicationId, applicationId, currentOutcome(record, deps.clock.now())))
}

/** @example await getExecution({ params: { applicationId, executionId }, principal: bearer, … }, deps) */
export const getExecution: UseCaseFor<'getExecution'> = (request, deps) =>
  lookup(deps, 'getExecution', request, request.params.applicationId, async () => (await loadExecution(deps, request.params.applicationId, request.params.executionId))?.record)

/** @example await getExecutionByIdempotency({ params: { applicationId, domainId, operationKind, semanticIdempotencyKey }, principal: bearer, … }, deps) */
export const getExecutionByIdempotency: UseCaseFor<'getExecutionByIdempotency'> = (request, deps) =>
  lookup(deps, 'getExecutionByIdempotency', request, request.params.applicationId, async (stager) => {
    const pointer = await executionCoordinates.get(deps.store, coordinatesKey(request.params, stager))
    if (!pointer) return undefined
    return (await loadExecution(deps, request.params.applicationId, pointer.value.executionId))?.record
  })

/** The execution use cases, spread into `runtimeUseCases`. */
export const executionUseCases = { stageExecution, executeExecution, cancelExecution, getExecution, getExecutionByIdempotency } as const
