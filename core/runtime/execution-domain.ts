/**
 * What a committed plan appends to its domain. A plan names its domain (`plan.domainId` of its
 * application); the commit that moves the plan's participant heads also appends one addition per
 * member to that domain, in participant order, so `verified-replay` answers exactly the events of
 * committed plans, in their serial order, and nothing of a plan that did not commit. The addition's
 * event bytes are the RFC 8785 bytes of the member's `planning.event`, so its `eventDigest` is the
 * transition's `eventDigest`; its namespace is `planning.namespace.value`; its appendId is
 * `<executionId>.<index>`. The first plan that commits in a domain creates it, with the first
 * member's candidate (a sealed proof object the execute verified) as the domain's source artifact.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { AT_CURRENT_HEAD, planDomainAppend, type DomainAppendPlan, type NewDomainAddition } from './domains/append-additions.js'
import { DOMAIN_REGISTRY } from './domains/domain-records.js'
import type { OperationPlan, TransitionMember } from './execution-plan.js'
import type { ExecutionRefusal } from './verify-transition-set.js'

const NAMESPACE = new RegExp(DOMAIN_REGISTRY.namespaces)

const inParticipantOrder = (members: readonly TransitionMember[]): TransitionMember[] =>
  [...members].sort((a, b) => (a.participantId < b.participantId ? -1 : a.participantId > b.participantId ? 1 : 0))

/** Pure: the additions a plan's verified members make, in participant order; or why they cannot be appended. */
export function executionAdditions(executionId: string, members: readonly TransitionMember[]): Either<ExecutionRefusal, NewDomainAddition[]> {
  const ordered = inParticipantOrder(members)
  const additions: NewDomainAddition[] = []
  for (const [index, member] of ordered.entries()) {
    const namespace = member.planning.namespace.value
    if (!NAMESPACE.test(namespace)) {
      return E.left({ reason: 'plan-mismatch', message: `member ${member.participantId}: planning.namespace.value must be a domain namespace (${DOMAIN_REGISTRY.namespaces})` })
    }
    const eventBytes = canonicalJsonBytes(member.planning.event)
    if (eventBytes.length > DOMAIN_REGISTRY.maxEventBytes) {
      return E.left({ reason: 'plan-mismatch', message: `member ${member.participantId}: planning.event is over ${DOMAIN_REGISTRY.maxEventBytes} bytes in RFC 8785 form` })
    }
    additions.push({ appendId: `${executionId}.${index}`, namespace, eventBytes })
  }
  return E.right(additions)
}

/**
 * The writes that append a committing plan's events to its domain at the domain's current head
 * (creating the domain on its first commit). They expect that head, so a plan that commits
 * meanwhile in the same domain makes this commit fail whole; the caller reads again and decides again.
 *
 * @example const append = await executionDomainAppend(deps, plan, executionId, transitionSet.members)
 */
export async function executionDomainAppend(
  deps: Pick<CoreDeps, 'store' | 'clock'>, plan: OperationPlan, executionId: string, members: readonly TransitionMember[],
): Promise<Either<ExecutionRefusal, DomainAppendPlan>> {
  const additions = executionAdditions(executionId, members)
  if (E.isLeft(additions)) return additions
  const domain = { applicationId: plan.applicationId, domainId: plan.domainId }
  const planned = await planDomainAppend(deps, domain, AT_CURRENT_HEAD, additions.right, { createWith: inParticipantOrder(members)[0]!.candidate, nowMs: deps.clock.now() })
  if (E.isLeft(planned)) {
    // Past the checks above only the domain's own limits (its namespace count, appendIds already taken) refuse.
    return E.left({ reason: 'plan-mismatch', message: `the plan's events cannot be appended to domain ${plan.domainId}: ${planned.left.message}` })
  }
  return planned
}
