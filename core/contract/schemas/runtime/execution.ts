/**
 * Staged execution: stage one canonical plan (byte-identical retries return the same handle),
 * execute it as one compare-and-swap over every participant head or write nothing, cancel it while
 * uncommitted, and resolve its outcome by id or idempotency coordinates before any retry.
 */
import * as t from 'io-ts'
import { alias, describe, struct } from '../../define.js'
import { Base64Url, KaiUPulse } from '../../primitives.js'
import { RuntimeAuthority } from './authority.js'
import { V124AuthoritySession } from './authority-sessions.js'
import { V124Digest } from './digests.js'
import { V124ApplicationId } from './identifiers.js'
import { V124PortableExecutionTransitionSet } from './portable.js'
import { ParticipantHeads, RuntimeId, ZeroWrites } from './values.js'

/**
 * Why an execution wrote nothing. A closed set of outcome reasons carried inside 200 wires (the
 * spec's `reasonCode`); they are not HTTP error codes, which Cairn never publishes.
 */
export const V124ExecutionFailureReason = describe(
  alias(
    'V124ExecutionFailureReason',
    t.keyof({
      'head-mismatch': null, // a participant head moved: the compare-and-swap failed
      'plan-mismatch': null, // the transition set does not realise the staged plan's exact digest
      'plan-expired': null, // the staged plan outlived the staging window
      'handle-invalid': null, // the handle is unknown or its digest does not match
      'authority-invalid': null, // the authority session is closed, expired, revoked or bound elsewhere
      'capability-invalid': null, // a member's signed capability failed verification or does not cover it
      'proof-invalid': null, // an identity proof or sealed artifact failed verification
      'registry-mismatch': null, // registry or reducer digest differs from the pinned one
      'already-terminal': null, // the execution already committed, failed or was cancelled
      cancelled: null, // the caller cancelled the staged plan
      'dependency-unavailable': null, // a store or dependency was unavailable; nothing was written
    }),
  ),
  'Reason an execution wrote nothing (closed set, see docs/decisions.md).',
)

/** The fields every execution wire shares (its identity and idempotency coordinates). */
const executionCoordinates = {
  executionId: RuntimeId,
  applicationId: V124ApplicationId,
  domainId: RuntimeId,
  operationKind: RuntimeId,
  exactPlanDigest: V124Digest,
  semanticIdempotencyKey: RuntimeId,
  attemptId: RuntimeId,
}

/** One canonical plan: exact bytes, their digest, and the participant heads it expects. */
export const V124OperationPlan = struct(
  'V124OperationPlan',
  {
    schema: t.literal('cairn.v124.operation_plan'),
    applicationId: V124ApplicationId,
    domainId: RuntimeId,
    operationKind: RuntimeId,
    registryDigest: V124Digest,
    reducerDigest: V124Digest,
    exactPlanBytesB64u: Base64Url,
    exactPlanDigest: V124Digest,
    expectedParticipantHeads: ParticipantHeads,
    semanticIdempotencyKey: RuntimeId,
    attemptId: RuntimeId,
    writesOnFailure: ZeroWrites,
  },
  {},
  'Canonical plan: exact plan bytes and digest, participant id → expected head, idempotency coordinates; `writesOnFailure` is always 0.',
)

/** Stage one plan. */
export const V124ExecutionStageRequest = struct(
  'V124ExecutionStageRequest',
  { applicationId: V124ApplicationId, plan: V124OperationPlan },
  {},
  'Stage one canonical plan; a byte-identical retry returns the same handle.',
)

/** The durable handle of a staged plan. */
export const V124DurableExecutionHandle = struct(
  'V124DurableExecutionHandle',
  {
    schema: t.literal('cairn.v124.durable_execution_handle'),
    ...executionCoordinates,
    stagedAtKaiUPulse: KaiUPulse,
    handleDigest: V124Digest,
    authority: RuntimeAuthority,
    receiptDigest: V124Digest,
  },
  {},
  'Durable handle of a staged plan; the same plan bytes always yield the same handle.',
)

/** Execute a staged plan with its transition set under an active authority session. */
export const V124ExecutionExecuteRequest = struct(
  'V124ExecutionExecuteRequest',
  {
    applicationId: V124ApplicationId,
    handle: V124DurableExecutionHandle,
    authoritySession: V124AuthoritySession,
    transitionSet: V124PortableExecutionTransitionSet,
  },
  {},
  'Execute a staged plan: atomic compare-and-swap over every participant head, or zero writes.',
)

/** Cancel a staged, uncommitted plan. */
export const V124ExecutionCancelRequest = struct(
  'V124ExecutionCancelRequest',
  { applicationId: V124ApplicationId, handle: V124DurableExecutionHandle, authoritySession: V124AuthoritySession },
  {},
  'Cancel a staged plan that has not committed; zero domain writes.',
)

/** Committed: every participant head moved to `committedHeads`. */
export const V124CommittedExecutionOutcome = struct(
  'V124CommittedExecutionOutcome',
  {
    schema: t.literal('cairn.v124.committed_execution_outcome'),
    status: t.literal('committed'),
    ...executionCoordinates,
    terminalAtKaiUPulse: KaiUPulse,
    committedHeads: ParticipantHeads,
    outcomeDigest: V124Digest,
    authority: RuntimeAuthority,
    receiptDigest: V124Digest,
  },
  {},
  'Terminal: committed atomically; `committedHeads` maps each participant id to its new head.',
)

/** Terminal without commit: `zero-write` (failed) or `cancelled`; nothing was written. */
export const V124NoncommittedExecutionOutcome = struct(
  'V124NoncommittedExecutionOutcome',
  {
    schema: t.literal('cairn.v124.noncommitted_execution_outcome'),
    status: t.keyof({ 'zero-write': null, cancelled: null }),
    ...executionCoordinates,
    terminalAtKaiUPulse: KaiUPulse,
    reasonCode: V124ExecutionFailureReason,
    writes: ZeroWrites,
    outcomeDigest: V124Digest,
    authority: RuntimeAuthority,
    receiptDigest: V124Digest,
  },
  {},
  'Terminal without commit: `zero-write` or `cancelled`, with the reason; `writes` is always 0.',
)

/** Not terminal: `staged` (never executed) or `unknown` (no terminal record can be read yet). */
export const V124UnknownExecutionOutcome = struct(
  'V124UnknownExecutionOutcome',
  {
    schema: t.literal('cairn.v124.unknown_execution_outcome'),
    status: t.keyof({ staged: null, unknown: null }),
    ...executionCoordinates,
    stagedAtKaiUPulse: KaiUPulse,
    plan: V124OperationPlan,
    authority: RuntimeAuthority,
    receiptDigest: V124Digest,
  },
  {},
  'Not terminal: `staged` (staged, not executed) or `unknown` (resolve again before any retry). Carries the staged plan so no replanning is needed.',
)

/** A call refused before the execution changed state (its prior state still stands); nothing written. */
export const V124ExecutionZeroWriteFailure = struct(
  'V124ExecutionZeroWriteFailure',
  {
    schema: t.literal('cairn.v124.execution_zero_write_failure'),
    ...executionCoordinates,
    reasonCode: V124ExecutionFailureReason,
    writes: ZeroWrites,
    failureDigest: V124Digest,
    authority: RuntimeAuthority,
    receiptDigest: V124Digest,
  },
  {},
  'The call was refused and wrote nothing; the execution keeps its prior state. `writes` is always 0.',
)

/** Every recorded outcome of an execution: committed, noncommitted or not yet terminal. */
export const V124ExecutionOutcome = describe(
  alias('V124ExecutionOutcome', t.union([V124CommittedExecutionOutcome, V124NoncommittedExecutionOutcome, V124UnknownExecutionOutcome])),
  'Execution outcome: committed, zero-write or cancelled, or staged or unknown (told apart by `status`).',
)

/** What staging answers: the durable handle. */
export const V124ExecutionStageWire = describe(
  alias('V124ExecutionStageWire', V124DurableExecutionHandle),
  'Wire of a staging call: the durable execution handle.',
)

/** What execute and the lookups answer: the outcome, or a zero-write refusal of the call. */
export const V124ExecutionResolutionWire = describe(
  alias('V124ExecutionResolutionWire', t.union([V124ExecutionOutcome, V124ExecutionZeroWriteFailure])),
  'Wire of execute and of execution lookups: an execution outcome, or a zero-write refusal of the call.',
)

/** What cancel answers: the cancelled outcome, or a zero-write refusal (e.g. `already-terminal`). */
export const V124ExecutionCancelWire = describe(
  alias('V124ExecutionCancelWire', t.union([V124NoncommittedExecutionOutcome, V124ExecutionZeroWriteFailure])),
  'Wire of cancel: the noncommitted outcome with status `cancelled`, or a zero-write refusal (e.g. `already-terminal`).',
)

/** An outcome with the one safe next step for the client. */
export const V124ExecutionTransitionRecoveryResponse = struct(
  'V124ExecutionTransitionRecoveryResponse',
  {
    schema: t.literal('cairn.v124.execution_transition_recovery_response'),
    outcome: V124ExecutionOutcome,
    recovery: t.keyof({ none: null, 'execute-staged': null, restage: null, 'resolve-later': null }),
  },
  {},
  'Outcome plus the safe next step: `none` (committed), `execute-staged` (staged), `restage` with a new attempt (zero-write, cancelled), `resolve-later` (unknown).',
)

/** This file's components by name, spread into `runtimeComponents`. */
export const executionComponents = {
  V124ExecutionFailureReason,
  V124OperationPlan,
  V124ExecutionStageRequest,
  V124DurableExecutionHandle,
  V124ExecutionExecuteRequest,
  V124ExecutionCancelRequest,
  V124CommittedExecutionOutcome,
  V124NoncommittedExecutionOutcome,
  V124UnknownExecutionOutcome,
  V124ExecutionZeroWriteFailure,
  V124ExecutionOutcome,
  V124ExecutionStageWire,
  V124ExecutionResolutionWire,
  V124ExecutionCancelWire,
  V124ExecutionTransitionRecoveryResponse,
} as const
