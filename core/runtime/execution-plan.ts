/**
 * The exact bytes and digests of staged execution, in one place so that clients (and the test
 * support) compute exactly what the service checks (docs/runtime.md, Execution):
 *
 * - the plan bytes are the RFC 8785 canonical JSON of an object whose `participants` member maps
 *   each participant id to the `planDigest` value of that participant's append plan;
 * - an append plan's digest is SHA-256 of its canonical JSON without `planDigest` and `authority`;
 *   its transition digest is SHA-256 of its `transition`;
 * - each participant's next head chains its expected head with the participant transition entry;
 * - a member's identity proof signs the member consent bytes; a capability is signed over its
 *   payload's canonical JSON, and a delegated capability names its parent by SHA-256 of those
 *   same parent bytes.
 */
import type { ComponentType } from '../contract/components.js'
import { canonicalJson, canonicalJsonBytes } from '../digest/canonical-json.js'
import { sha256Hex, sha256OfJson } from '../digest/sha256.js'
import { fromBase64Url } from '../encoding/base64url.js'
import { nextParticipantHead } from './participant-heads.js'

export type OperationPlan = ComponentType<'V124OperationPlan'>
export type AppendPlan = ComponentType<'V124ArtifactAppendPlan'>
export type TransitionSet = ComponentType<'V124PortableExecutionTransitionSet'>
export type TransitionMember = ComponentType<'V124PortableExecutionTransitionMember'>

/** At most this many participants in one plan (one commit carries all their heads). */
export const MAX_PARTICIPANTS = 64

/** What the plan bytes must say: participant id → the append plan digest (hex) it commits to. */
export interface PlanBody {
  readonly participants: Readonly<Record<string, string>>
}

/** The plan bytes parsed, or a sentence saying why they are not a plan body. */
export function parsePlanBytes(plan: OperationPlan): PlanBody | string {
  const bytes = fromBase64Url(plan.exactPlanBytesB64u)
  if (!bytes || bytes.length === 0) return 'plan.exactPlanBytesB64u must be the plan bytes as unpadded base64url'
  if (sha256Hex(bytes) !== plan.exactPlanDigest) return 'plan.exactPlanDigest must be the SHA-256 of the plan bytes'
  let parsed: unknown
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    return 'plan.exactPlanBytesB64u must be UTF-8 JSON'
  }
  let canonical: string
  try {
    canonical = canonicalJson(parsed)
  } catch {
    return 'plan.exactPlanBytesB64u must have an RFC 8785 canonical form'
  }
  if (canonical !== new TextDecoder().decode(bytes)) return 'plan.exactPlanBytesB64u must be RFC 8785 canonical JSON'
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'the plan bytes must be a JSON object'
  const participants = (parsed as { participants?: unknown }).participants
  if (typeof participants !== 'object' || participants === null || Array.isArray(participants)) return 'the plan bytes must have a participants object'
  const expected = Object.keys(plan.expectedParticipantHeads).sort()
  const named = Object.keys(participants).sort()
  if (expected.length === 0) return 'plan.expectedParticipantHeads must name at least one participant'
  if (expected.length > MAX_PARTICIPANTS) return `plan.expectedParticipantHeads must name at most ${MAX_PARTICIPANTS} participants`
  if (canonicalJson(expected) !== canonicalJson(named)) return 'the plan bytes must name exactly the participants of plan.expectedParticipantHeads'
  for (const value of Object.values(participants)) {
    if (typeof value !== 'string' || !/^[0-9a-f]{64}$/.test(value)) return 'each participant of the plan bytes must map to an append plan digest (64 lowercase hex)'
  }
  return { participants: participants as Record<string, string> }
}

/** The plan bytes for `participants` (participant id → append plan digest) and any extra members. */
export function planBytes(participants: Readonly<Record<string, string>>, extra: Readonly<Record<string, unknown>> = {}): Uint8Array {
  return canonicalJsonBytes({ ...extra, participants })
}

/** SHA-256 of an append plan without `planDigest` and `authority`. */
export function appendPlanDigestOf(plan: Omit<AppendPlan, 'planDigest' | 'authority'> & Partial<Pick<AppendPlan, 'planDigest' | 'authority'>>): string {
  const { planDigest: _digest, authority: _authority, ...rest } = plan
  return sha256OfJson(rest)
}

/**
 * What a participant's head chains when a plan moves it: the planned event and the candidate
 * artifact (not the plan digests, which themselves commit to the proposed heads).
 */
export function participantTransitionEntry(input: { applicationId: string; participantId: string; eventDigest: string; candidateArtifactSha256: string }) {
  return {
    schema: 'cairn.v124.participant_transition', applicationId: input.applicationId, participantId: input.participantId,
    eventDigest: input.eventDigest, candidateArtifactSha256: input.candidateArtifactSha256,
  }
}

/** The head a participant moves to. @example proposedHeadOf(expected, { applicationId, participantId, eventDigest, candidateArtifactSha256 }) */
export function proposedHeadOf(expectedHead: string, input: Parameters<typeof participantTransitionEntry>[0]): string {
  return nextParticipantHead(expectedHead, participantTransitionEntry(input))
}

/** The bytes a member's identity proof signs (`identityProof.challengeB64Url`). */
export function memberConsentBytes(input: { applicationId: string; exactPlanDigest: string; participantId: string; appendPlanDigest: string }): Uint8Array {
  return canonicalJsonBytes({
    schema: 'cairn.v124.execution_member_consent', applicationId: input.applicationId, exactPlanDigest: input.exactPlanDigest,
    participantId: input.participantId, appendPlanDigest: input.appendPlanDigest,
  })
}

export { capabilityDigestOf, capabilitySigningBytes } from './capability-bytes.js'

/** The idempotency coordinates of a plan, as the lookup route names them. */
export interface ExecutionCoordinates {
  readonly applicationId: string
  readonly domainId: string
  readonly operationKind: string
  readonly semanticIdempotencyKey: string
}

/**
 * The document key of idempotency coordinates: per application AND stager, so one user of an
 * application can neither read nor occupy another's coordinates.
 */
export function coordinatesKey(c: ExecutionCoordinates, stagerSubjectId: string): string {
  return sha256OfJson({
    schema: 'cairn.v124.execution_coordinates', applicationId: c.applicationId, stagerSubjectId, domainId: c.domainId, operationKind: c.operationKind, semanticIdempotencyKey: c.semanticIdempotencyKey,
  })
}

/**
 * The execution id of one stager's attempt under coordinates: deterministic, so a retried stage
 * names the same execution, and distinct per stager, so two users' plans never share a record.
 */
export function executionIdOf(c: ExecutionCoordinates & { readonly attemptId: string }, stagerSubjectId: string): string {
  return `exe_${sha256OfJson({
    schema: 'cairn.v124.execution_id', applicationId: c.applicationId, stagerSubjectId, domainId: c.domainId, operationKind: c.operationKind,
    semanticIdempotencyKey: c.semanticIdempotencyKey, attemptId: c.attemptId,
  })}`
}
