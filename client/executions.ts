/**
 * Stage and execute a plan, recovering from a lost answer by the plan's idempotency coordinates
 * (docs/runtime.md, Lookups and recovery): an execute whose answer never arrived is resolved with
 * `getExecutionByIdempotency` before anything is sent again, so a committed plan answers its
 * recorded outcome and is never executed twice; only a plan still `staged` is executed again.
 */
import type { ComponentType } from '../core/contract/components.js'
import type { OperationPlan, TransitionSet } from '../core/runtime/execution-plan.js'
import type { AuthoritySession } from './authority-sessions.js'
import type { CairnClient } from './cairn-client.js'
import { failure, wireOf, type ClientError, type Result } from './result.js'

export type ExecutionHandle = ComponentType<'V124DurableExecutionHandle'>
/** An execution's outcome (committed, zero-write, cancelled, staged) or a zero-write refusal of the call (`reasonCode`). */
export type ExecutionResolution = ComponentType<'V124ExecutionResolutionWire'>

/** A lost answer: nothing arrived, or the server failed on the way (5XX); the work may or may not have been done. */
const lostAnswer = (error: ClientError): boolean => error._tag === 'Network' || (error.status !== undefined && error.status >= 500)

/**
 * Stages `plan`; a lost answer is retried (the same plan bytes answer the same handle and write nothing).
 *
 * @example const handle = unwrap(await stagePlan(cairn, plan))
 */
export async function stagePlan(client: CairnClient, plan: OperationPlan): Promise<Result<ExecutionHandle>> {
  // The Idempotency-Key makes the client retry a lost answer as it retries a GET; the plan's digest names the request.
  return wireOf<ExecutionHandle>(await client.call('stageExecution', { body: { applicationId: plan.applicationId, plan }, idempotencyKey: plan.exactPlanDigest }))
}

/** The latest attempt under the plan's idempotency coordinates (404 `NotFound`: nothing staged there). */
export async function resolveExecution(client: CairnClient, coordinates: Pick<OperationPlan, 'applicationId' | 'domainId' | 'operationKind' | 'semanticIdempotencyKey'>): Promise<Result<ExecutionResolution>> {
  const { applicationId, domainId, operationKind, semanticIdempotencyKey } = coordinates
  return wireOf<ExecutionResolution>(await client.call('getExecutionByIdempotency', { params: { applicationId, domainId, operationKind, semanticIdempotencyKey } }))
}

export interface ExecutedPlan {
  readonly handle: ExecutionHandle
  /** The outcome, or the zero-write refusal of the call (e.g. `reasonCode: 'handle-invalid'` for a plan that is not yours). */
  readonly outcome: ExecutionResolution
  /** True when an answer was lost and the outcome came from the recovery. */
  readonly recovered: boolean
}

/**
 * Stages `plan` and executes it with `transitionSet` under `session`. A lost execute answer is
 * resolved by the plan's coordinates: a terminal outcome of this plan is answered as it stands
 * (never executed again); a plan still staged is executed again, at most `attempts` times in all.
 *
 * @example const { outcome } = unwrap(await executePlan(cairn, { plan, transitionSet, session }))
 */
export async function executePlan(
  client: CairnClient,
  input: { readonly plan: OperationPlan; readonly transitionSet: TransitionSet; readonly session: AuthoritySession },
  options: { readonly attempts?: number } = {},
): Promise<Result<ExecutedPlan>> {
  const { plan, transitionSet, session } = input
  const staged = await stagePlan(client, plan)
  if (!staged.ok) return staged
  const handle = staged.value
  const attempts = Math.max(1, options.attempts ?? 3)
  let recovered = false
  for (let attempt = 1; ; attempt++) {
    const executed = wireOf<ExecutionResolution>(await client.call('executeExecution', {
      body: { applicationId: plan.applicationId, handle, authoritySession: session, transitionSet },
      // Bound to the session's audience; a refusal made before the session is read, to the application.
      expectAudience: [session.audience, plan.applicationId],
    }))
    if (executed.ok) return { ...executed, value: { handle, outcome: executed.value, recovered } }
    if (!lostAnswer(executed.error)) return executed
    recovered = true
    const resolved = await resolveExecution(client, plan)
    if (resolved.ok) {
      const outcome = resolved.value
      if (outcome.exactPlanDigest !== plan.exactPlanDigest || outcome.attemptId !== plan.attemptId) {
        return failure({ _tag: 'Conflict', message: `The coordinates now name another plan (attempt ${outcome.attemptId}); this one was not executed by this call` })
      }
      const status = 'status' in outcome ? outcome.status : undefined
      if (status !== 'staged' && status !== 'unknown') return { ...resolved, value: { handle, outcome, recovered } }
    }
    // Still staged (the execute never landed), not yet known, or the lookup's answer lost too: execute
    // again, which answers the recorded outcome should the first one have landed after all.
    if (attempt >= attempts) return resolved.ok ? executed : resolved
  }
}
