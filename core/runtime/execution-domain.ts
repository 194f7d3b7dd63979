/**
 * What a committed plan appends to its domain. A plan names its domain (`plan.domainId` of its
 * application); the commit that moves the plan's participant heads also appends one addition per
 * member to that domain, in participant order, so `verified-replay` answers exactly the events of
 * committed plans, in their serial order, and nothing of a plan that did not commit. The addition's
 * event bytes are the RFC 8785 bytes of the member's `planning.event`, so its `eventDigest` is the
 * transition's `eventDigest`; its namespace is `planning.namespace.value`; its appendId is
 * `<executionId>.<index>`. The first plan that commits in a domain creates it, with the first
 * member's candidate (a sealed proof object the execute verified) as the domain's source artifact.
 * A member may carry a private payload its event commits to (`privatePayloadCommitmentOf`): it is
 * stored beside the addition, out of the chain, for granted viewers only, and it belongs to the
 * member's verified actor (a payload naming another owner is refused). The domain belongs to the
 * owner of its source artifact; events of the `cairn.access-grants` namespace, accepted only from
 * that owner as verified actor, grant or revoke access to the domain's private additions in the
 * same commit (domains/grant-events.ts).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import { sha256Hex, sha256OfJson } from '../digest/sha256.js'
import { fromBase64Url } from '../encoding/base64url.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { AT_CURRENT_HEAD, planDomainAppend, type DomainAppendPlan, type NewDomainAddition } from './domains/append-additions.js'
import { DOMAIN_REGISTRY, NAMESPACE_NAME } from './domains/domain-records.js'
import { ACCESS_GRANTS_NAMESPACE, grantChangeWrites, parseGrantEvent } from './domains/grant-events.js'
import type { OperationPlan, TransitionMember } from './execution-plan.js'
import type { ExecutionRefusal, VerifiedMove } from './verify-transition-set.js'

/** Who stands behind a verified member: the artifacts' owner and the verified actor. */
export type MemberAuthority = Pick<VerifiedMove, 'participantId' | 'ownerUserId' | 'actorId'>

const inParticipantOrder = (members: readonly TransitionMember[]): TransitionMember[] =>
  [...members].sort((a, b) => (a.participantId < b.participantId ? -1 : a.participantId > b.participantId ? 1 : 0))

/**
 * Pure: the additions a plan's verified members make, in participant order; or why they cannot be
 * appended. `authorities` are the members' verified owners and actors (verify-transition-set.ts).
 */
export function executionAdditions(executionId: string, members: readonly TransitionMember[], authorities: readonly MemberAuthority[]): Either<ExecutionRefusal, NewDomainAddition[]> {
  const ordered = inParticipantOrder(members)
  const actorOf = new Map(authorities.map((authority) => [authority.participantId, authority.actorId]))
  const additions: NewDomainAddition[] = []
  for (const [index, member] of ordered.entries()) {
    const namespace = member.planning.namespace.value
    if (!NAMESPACE_NAME.test(namespace)) {
      return E.left({ reason: 'plan-mismatch', message: `member ${member.participantId}: planning.namespace.value must be a domain namespace (${DOMAIN_REGISTRY.namespaces})` })
    }
    const eventBytes = canonicalJsonBytes(member.planning.event)
    if (eventBytes.length > DOMAIN_REGISTRY.maxEventBytes) {
      return E.left({ reason: 'plan-mismatch', message: `member ${member.participantId}: planning.event is over ${DOMAIN_REGISTRY.maxEventBytes} bytes in RFC 8785 form` })
    }
    const secret = privatePayloadOf(member)
    if (typeof secret === 'string') return E.left({ reason: 'plan-mismatch', message: `member ${member.participantId}: ${secret}` })
    if (secret && secret.ownerSubjectId !== actorOf.get(member.participantId)) {
      return E.left({ reason: 'capability-invalid', message: `member ${member.participantId}: planning.privatePayload.ownerSubjectId must be the member's verified actor; a payload is owned by who writes it` })
    }
    additions.push({ appendId: `${executionId}.${index}`, namespace, eventBytes, ...(secret ? { private: secret } : {}) })
  }
  return E.right(additions)
}

type PrivatePayload = NonNullable<TransitionMember['planning']['privatePayload']>

/**
 * The commitment a member's event makes to its private payload (`event.privatePayloadCommitment`):
 * SHA-256 of RFC 8785 `{ schema: "cairn.v124.private_payload_commitment", visibility,
 * ownerSubjectId, saltB64u, payloadSha256 }`. The 32-byte random salt hides the payload from anyone
 * who reads the public event, even one who could guess it; the signed transition binds the event,
 * so the payload, its owner and visibility cannot be swapped.
 *
 * @example privatePayloadCommitmentOf({ visibility: 'grant', ownerSubjectId: 'sub_ada', saltB64u, payloadB64u })
 */
export function privatePayloadCommitmentOf(secret: PrivatePayload): string {
  const payload = fromBase64Url(secret.payloadB64u) ?? new Uint8Array()
  return sha256OfJson({ schema: 'cairn.v124.private_payload_commitment', visibility: secret.visibility, ownerSubjectId: secret.ownerSubjectId, saltB64u: secret.saltB64u, payloadSha256: sha256Hex(payload) })
}

/** The member's private payload when its event commits to it; a sentence when it does not. */
function privatePayloadOf(member: TransitionMember): NewDomainAddition['private'] | string | undefined {
  const secret = member.planning.privatePayload
  if (!secret) return undefined
  const payload = fromBase64Url(secret.payloadB64u)
  if (!payload || payload.length > DOMAIN_REGISTRY.maxPrivatePayloadBytes) return `planning.privatePayload.payloadB64u must be at most ${DOMAIN_REGISTRY.maxPrivatePayloadBytes} bytes`
  if (fromBase64Url(secret.saltB64u)?.length !== 32) return 'planning.privatePayload.saltB64u must be 32 random bytes'
  if (member.planning.event.privatePayloadCommitment !== privatePayloadCommitmentOf(secret)) return 'planning.event.privatePayloadCommitment is not the commitment to planning.privatePayload'
  return { visibility: secret.visibility, ownerSubjectId: secret.ownerSubjectId, payload }
}

/**
 * The writes that append a committing plan's events to its domain at the domain's current head
 * (creating the domain on its first commit). They expect that head, so a plan that commits
 * meanwhile in the same domain makes this commit fail whole; the caller reads again and decides again.
 *
 * @example const append = await executionDomainAppend(deps, plan, executionId, transitionSet.members)
 */
export async function executionDomainAppend(
  deps: Pick<CoreDeps, 'store' | 'clock' | 'blobs'>, plan: OperationPlan, executionId: string, members: readonly TransitionMember[], authorities: readonly MemberAuthority[],
): Promise<Either<ExecutionRefusal, DomainAppendPlan>> {
  const additions = executionAdditions(executionId, members, authorities)
  if (E.isLeft(additions)) return additions
  const ordered = inParticipantOrder(members)
  const authorityOf = new Map(authorities.map((authority) => [authority.participantId, authority]))
  const grantEvents = []
  for (const [index, member] of ordered.entries()) {
    if (member.planning.namespace.value !== ACCESS_GRANTS_NAMESPACE) continue
    const change = parseGrantEvent(member.planning.event)
    if (typeof change === 'string') return E.left({ reason: 'plan-mismatch', message: `member ${member.participantId}: ${change}` })
    grantEvents.push({ index, change, source: member.candidate, issuerSubjectId: authorityOf.get(member.participantId)!.actorId })
  }
  const domain = { applicationId: plan.applicationId, domainId: plan.domainId }
  const nowMs = deps.clock.now()
  // A plan that creates the domain makes the owner of its first member's candidate (the source artifact) the domain's owner.
  const createWith = { sourceArtifact: ordered[0]!.candidate, ownerSubjectId: authorityOf.get(ordered[0]!.participantId)!.ownerUserId }
  const planned = await planDomainAppend(deps, domain, AT_CURRENT_HEAD, additions.right, { createWith, nowMs })
  if (E.isLeft(planned)) {
    // Past the checks above only the domain's own limits (its namespace count, appendIds already taken) refuse.
    return E.left({ reason: 'plan-mismatch', message: `the plan's events cannot be appended to domain ${plan.domainId}: ${planned.left.message}` })
  }
  const changes = grantEvents.map(({ index, change, source, issuerSubjectId }) => ({ change, source, issuerSubjectId, eventHead: planned.right.result.additions[index]!.newHead }))
  const granted = await grantChangeWrites(deps, { ...domain, ownerSubjectId: planned.right.domainOwnerSubjectId }, changes, nowMs)
  if (E.isLeft(granted)) return E.left(granted.left)
  return E.right({ ...planned.right, writes: [...planned.right.writes, ...granted.right] })
}
