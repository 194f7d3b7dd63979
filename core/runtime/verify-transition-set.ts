/**
 * Verifies a portable transition set in full against its staged plan before anything is written:
 * the set realises the plan (same application, plan digest, expected heads, one member per
 * participant, each member's append plan the one the plan bytes name, proposed heads chained as
 * docs/runtime.md says), registries, the predecessor and candidate sealed artifacts (exact bytes,
 * digests, proofs this deployment verifies, the same owner), the member's identity artifact and
 * identity proof (an ID key bound to its owner signing the member consent bytes), and the signed
 * capability with its parent chain (capability-chain.ts: from the owner's root, each link signed
 * by its parent's actor, valid now in Kai time, a narrowing of its parent), whose last link is
 * for the actor, audience and operation, with operation constraints bound to the append plan
 * digest and commit domain. Each refusal names its `V124ExecutionFailureReason`.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { ComponentType } from '../contract/components.js'
import { canonicalJson } from '../digest/canonical-json.js'
import { sha256Hex, sha256OfJson } from '../digest/sha256.js'
import { fromBase64Url, toBase64Url } from '../encoding/base64url.js'
import { getIdentity } from '../identity/identities.js'
import { publicKeyFromRaw, type IdProofPublicKey } from '../identity/public-key.js'
import { verifyKeySignature } from '../identity/verify-key-signature.js'
import { serviceTrust } from '../proof/service-trust.js'
import { kaiMomentAt } from '../time/kai.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { verifyCapabilityChain, type SignedCapability } from './capability-chain.js'
import {
  appendPlanDigestOf, capabilitySigningBytes, memberConsentBytes, proposedHeadOf,
  type OperationPlan, type PlanBody, type TransitionMember, type TransitionSet,
} from './execution-plan.js'
import type { ParticipantMove } from './participant-heads.js'
import { verifyOwnedArtifact, type VerifiedIdentityArtifact } from './proof-consent.js'

export type FailureReason = ComponentType<'V124ExecutionFailureReason'>

/** Why a call wrote nothing: the closed reason and a sentence for people. */
export interface ExecutionRefusal {
  readonly reason: FailureReason
  readonly message: string
}

/** A verified member's move, the predecessor it requires the participant to stand for now, and who stands behind it. */
export interface VerifiedMove extends ParticipantMove {
  readonly predecessorArtifactSha256: string
  /** The artifacts' owner: the root of the member's capability chain. */
  readonly ownerUserId: string
  /** The verified actor: the identity artifact's owner, who signed the member consent. */
  readonly actorId: string
  /** Every actor the chain names, root's first (the leaf's is `actorId`). */
  readonly chainActorIds: readonly string[]
}

const refuse = (reason: FailureReason, message: string): Either<ExecutionRefusal, never> => E.left({ reason, message })
const sameJson = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b)

/**
 * @example await verifyTransitionSet(deps, { plan, planBody, transitionSet, audience: session.audience })
 */
export async function verifyTransitionSet(
  deps: CoreDeps,
  input: { readonly plan: OperationPlan; readonly planBody: PlanBody; readonly transitionSet: TransitionSet; readonly audience: string },
): Promise<Either<ExecutionRefusal, VerifiedMove[]>> {
  const { plan, planBody, transitionSet: set } = input
  if (set.applicationId !== plan.applicationId) return refuse('plan-mismatch', 'transitionSet.applicationId is not the plan\'s application')
  if (set.exactPlanDigest !== plan.exactPlanDigest) return refuse('plan-mismatch', 'transitionSet.exactPlanDigest is not the staged plan\'s digest')
  if (!sameJson(set.expectedParticipantHeads, plan.expectedParticipantHeads)) return refuse('plan-mismatch', 'transitionSet.expectedParticipantHeads are not the staged plan\'s')
  const participants = Object.keys(plan.expectedParticipantHeads).sort()
  if (!sameJson(Object.keys(set.proposedParticipantHeads).sort(), participants)) return refuse('plan-mismatch', 'transitionSet.proposedParticipantHeads must name exactly the plan\'s participants')
  const memberIds = set.members.map((member) => member.participantId)
  if (new Set(memberIds).size !== memberIds.length || !sameJson([...memberIds].sort(), participants)) {
    return refuse('plan-mismatch', 'transitionSet.members must hold exactly one member per participant of the plan')
  }
  const trustDigest = sha256OfJson(await serviceTrust(deps))
  const verifyArtifactOnce = (bytes: Uint8Array, what: string) => verifiedOnce(deps, trustDigest, bytes, what)
  const moves: VerifiedMove[] = []
  for (const member of set.members) {
    const move = await verifyMember(deps, { ...input, member, verifyArtifactOnce })
    if (E.isLeft(move)) return move
    moves.push(move.right)
  }
  return E.right(moves)
}

/**
 * Verdicts of sealed artifacts, by SHA-256 of the exact bytes and of the trust material they were
 * verified against: `verifyArtifact` is a pure function of both, so a verdict can be reused until
 * the trust changes (a new key gives a new trust digest). Plans re-present the same predecessors,
 * candidates and identities again and again; bounded, oldest out first.
 */
const VERDICTS_KEPT = 4096
const verdicts = new Map<string, Promise<Either<unknown, VerifiedIdentityArtifact>>>()

function verifiedOnce(deps: CoreDeps, trustDigest: string, bytes: Uint8Array, what: string): Promise<Either<unknown, VerifiedIdentityArtifact>> {
  const key = `${trustDigest}:${sha256Hex(bytes)}`
  let verdict = verdicts.get(key)
  if (!verdict) {
    verdict = verifyOwnedArtifact(deps, bytes, what)
    verdicts.set(key, verdict)
    verdict.catch(() => verdicts.delete(key))
    if (verdicts.size > VERDICTS_KEPT) verdicts.delete(verdicts.keys().next().value!)
  }
  return verdict
}

type ArtifactVerifier = (bytes: Uint8Array, what: string) => Promise<Either<unknown, VerifiedIdentityArtifact>>

async function verifyMember(
  deps: CoreDeps,
  input: { readonly plan: OperationPlan; readonly planBody: PlanBody; readonly transitionSet: TransitionSet; readonly audience: string; readonly member: TransitionMember; readonly verifyArtifactOnce: ArtifactVerifier },
): Promise<Either<ExecutionRefusal, VerifiedMove>> {
  const { plan, member, transitionSet: set } = input
  const id = member.participantId
  const name = `member ${id}`
  const op = member.operationPlan
  const basis = op.transition
  const expectedHead = plan.expectedParticipantHeads[id]!
  const proposedHead = set.proposedParticipantHeads[id]!

  // The member realises the plan.
  const appendPlanDigest = appendPlanDigestOf(op)
  if (op.planDigest.value !== appendPlanDigest) return refuse('plan-mismatch', `${name}: operationPlan.planDigest is not the digest of its append plan`)
  if (input.planBody.participants[id] !== appendPlanDigest) return refuse('plan-mismatch', `${name}: its append plan is not the one the plan bytes name`)
  if (op.transitionDigest.value !== sha256OfJson(basis)) return refuse('plan-mismatch', `${name}: operationPlan.transitionDigest is not the digest of its transition`)
  if (basis.expectedHead.value !== expectedHead || member.planning.expectedHead !== expectedHead) return refuse('plan-mismatch', `${name}: the expected head is not the plan's`)
  if (!sameJson(member.planning.commitDomain, op.commitDomain)) return refuse('plan-mismatch', `${name}: planning.commitDomain is not the append plan's`)
  if (!sameJson(member.planning.namespace, basis.namespace)) return refuse('plan-mismatch', `${name}: planning.namespace is not the transition's`)
  if (basis.eventDigest.value !== sha256OfJson(member.planning.event)) return refuse('plan-mismatch', `${name}: transition.eventDigest is not the digest of planning.event`)
  if (basis.priorArtifactDigest.value !== member.predecessor.artifactSha256) return refuse('plan-mismatch', `${name}: transition.priorArtifactDigest is not the predecessor's digest`)
  if (basis.basePayloadDigest.value !== member.predecessor.payloadSha256) return refuse('plan-mismatch', `${name}: transition.basePayloadDigest is not the predecessor's payload digest`)
  const nextHead = proposedHeadOf(expectedHead, {
    applicationId: plan.applicationId, participantId: id, eventDigest: basis.eventDigest.value, candidateArtifactSha256: member.candidate.artifactSha256,
  })
  if (proposedHead !== nextHead || basis.proposedHistoryHead.value !== nextHead) return refuse('plan-mismatch', `${name}: the proposed head is not the head the transition chains`)

  // Registries. The capability chain runs root first down to the member's own capability.
  const chain = [...(member.parentCapabilities ?? []), member.signedCapability]
  for (const digest of [op.registryDigest, basis.registryDigest, basis.actor.registryDigest, op.actor.registryDigest, ...chain.map((link) => link.payload.registryDigest)]) {
    if (digest.value !== plan.registryDigest) return refuse('registry-mismatch', `${name}: a registry digest differs from the plan's registryDigest`)
  }

  // Predecessor, candidate and identity: exact bytes, digests, proofs, owners.
  const predecessor = await sealed(input.verifyArtifactOnce, member.predecessor, `${name}: the predecessor`)
  if (E.isLeft(predecessor)) return predecessor
  const candidate = await sealed(input.verifyArtifactOnce, member.candidate, `${name}: the candidate`)
  if (E.isLeft(candidate)) return candidate
  if (candidate.right.ownerUserId !== predecessor.right.ownerUserId) return refuse('proof-invalid', `${name}: the candidate belongs to another owner than the predecessor`)
  const owner = predecessor.right.ownerUserId
  const identityBytes = fromBase64Url(member.identityArtifact.exactBytesB64u)
  if (!identityBytes || sha256Hex(identityBytes) !== member.identityArtifact.digest) return refuse('proof-invalid', `${name}: identityArtifact.digest is not the SHA-256 of its bytes`)
  const identity = await input.verifyArtifactOnce(identityBytes, `${name}: the identity artifact`)
  if (E.isLeft(identity)) return refuse('proof-invalid', `${name}: the identity artifact is not a proof object naming its owner that this deployment verifies`)
  const actor = identity.right.ownerUserId
  if (op.actor.actorId !== actor || basis.actor.actorId !== actor) return refuse('proof-invalid', `${name}: the actor is not the identity artifact's owner`)
  if (op.actorConstraint === 'owner' && actor !== owner) return refuse('proof-invalid', `${name}: an owner transition must be made by the artifact's owner`)
  const consentBytes = memberConsentBytes({ applicationId: plan.applicationId, exactPlanDigest: plan.exactPlanDigest, participantId: id, appendPlanDigest })
  if (member.identityProof.challengeB64Url !== toBase64Url(consentBytes)) return refuse('proof-invalid', `${name}: identityProof.challengeB64Url must be the member consent bytes`)
  if (!(await signedByBoundKey(deps, actor, member.identityProof.keyId, member.identityProof.alg, consentBytes, member.identityProof.signatureB64Url))) {
    return refuse('proof-invalid', `${name}: the identity proof is not signed by an ID key bound to the actor`)
  }

  // The capability chain: from the owner's root to the member's capability, each link a narrowing of its parent.
  const nowKai = kaiMomentAt(deps.clock.now()).uPulse
  const signedByLinkIssuer = (userId: string, link: SignedCapability) =>
    signedByBoundKey(deps, userId, link.payload.issuerKeyId, link.alg, capabilitySigningBytes(link.payload), link.signatureB64u)
  const verifiedChain = await verifyCapabilityChain(chain, { ownerUserId: owner, nowKai }, signedByLinkIssuer)
  if (E.isLeft(verifiedChain)) return refuse('capability-invalid', `${name}: ${verifiedChain.left}`)
  // The member's capability: for this actor, audience and operation, one-shot for this append plan.
  const grant = verifiedChain.right
  if (grant.actorId !== actor) return refuse('capability-invalid', `${name}: the capability grants another actor`)
  if (grant.audience !== input.audience && grant.audience !== plan.applicationId) return refuse('capability-invalid', `${name}: the capability is for another audience`)
  if (!grant.operations.includes(op.operation)) return refuse('capability-invalid', `${name}: the capability does not grant ${op.operation}`)
  if (grant.maximumEffects < 1) return refuse('capability-invalid', `${name}: the capability allows no effect`)
  const constraints = grant.operationConstraints
  if (!constraints || constraints.planDigest.value !== appendPlanDigest || !sameJson(constraints.commitDomain, op.commitDomain)) {
    return refuse('capability-invalid', `${name}: the capability's operation constraints are not bound to this append plan and commit domain`)
  }
  return E.right({
    participantId: id, expectedHead, nextHead, artifactSha256: member.candidate.artifactSha256, predecessorArtifactSha256: member.predecessor.artifactSha256,
    ownerUserId: owner, actorId: actor, chainActorIds: chain.map((link) => link.payload.actorId),
  })
}

async function sealed(verify: ArtifactVerifier, artifact: ComponentType<'V124PortableSealedArtifact'>, what: string): Promise<Either<ExecutionRefusal, VerifiedIdentityArtifact>> {
  const bytes = fromBase64Url(artifact.exactBytesB64u)
  if (!bytes || sha256Hex(bytes) !== artifact.artifactSha256) return refuse('proof-invalid', `${what}'s artifactSha256 is not the SHA-256 of its bytes`)
  const verified = await verify(bytes, what)
  if (E.isLeft(verified)) return refuse('proof-invalid', `${what} is not a proof object naming its owner that this deployment verifies`)
  if (verified.right.payloadSha256 !== artifact.payloadSha256) return refuse('proof-invalid', `${what}'s payloadSha256 is not the payload its proof covers`)
  return verified
}

/** True when `keyId` is an ID key bound to `userId` now, of `alg`, and signed exactly `message`. */
async function signedByBoundKey(deps: CoreDeps, userId: string, keyId: string, alg: 'EdDSA' | 'ES256', message: Uint8Array, signatureB64u: string): Promise<boolean> {
  const identity = await getIdentity(deps, userId)
  const key = identity?.record.keys.find((bound) => bound.keyId === keyId)
  if (!key || key.alg !== alg) return false
  const publicKey = parsedKey(key.alg, key.publicKeyRawB64u)
  const signature = fromBase64Url(signatureB64u)
  return publicKey !== undefined && !!signature && verifyKeySignature(publicKey, message, signature)
}

/**
 * Bound ID keys parsed once: the strict point checks (`isPrimeOrderPoint`, JavaScript curve
 * arithmetic) cost more than the signature itself, and a plan of 16 members checks 32 signatures
 * by the same one or two keys. A raw key parses the same way every time; bounded, oldest out first.
 */
const KEYS_KEPT = 1024
const parsedKeys = new Map<string, IdProofPublicKey | undefined>()

function parsedKey(alg: 'EdDSA' | 'ES256', rawB64u: string): IdProofPublicKey | undefined {
  const cacheKey = `${alg}:${rawB64u}`
  if (!parsedKeys.has(cacheKey)) {
    const parsed = publicKeyFromRaw(alg, fromBase64Url(rawB64u) ?? new Uint8Array())
    parsedKeys.set(cacheKey, E.isRight(parsed) ? parsed.right : undefined)
    if (parsedKeys.size > KEYS_KEPT) parsedKeys.delete(parsedKeys.keys().next().value!)
  }
  return parsedKeys.get(cacheKey)
}
