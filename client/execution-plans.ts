/**
 * Execution plans from plain inputs: participants (what each one stands for now and becomes, at
 * which head, by whose authority), the operation's idempotency coordinates, and delegations. The
 * result is the canonical `V124OperationPlan` to stage and the complete portable transition set to
 * execute, with every capability chain and member consent signed by the ID keys that own them,
 * over exactly the bytes the server checks (core/runtime/execution-plan.ts; docs/runtime.md,
 * "The exact bytes").
 *
 * Two steps, like a ProofConsent challenge: `draftExecutionPlan` (pure) computes every digest and
 * lists the bytes each key must sign; `signExecutionPlan` signs them with WebCrypto ID keys.
 */
import type { ComponentType } from '../core/contract/components.js'
import { RUNTIME_AUTHORITY } from '../core/contract/schemas/runtime/authority.js'
import { sha256Hex, sha256OfJson } from '../core/digest/sha256.js'
import { toBase64Url, utf8 } from '../core/proof/bytes.js'
import type { CapabilityPayload } from '../core/runtime/capability-bytes.js'
import {
  appendPlanDigestOf, capabilitySigningBytes, memberConsentBytes, planBytes, proposedHeadOf,
  type AppendPlan, type OperationPlan, type TransitionMember, type TransitionSet,
} from '../core/runtime/execution-plan.js'
import { genesisParticipantHead } from '../core/runtime/participant-heads.js'
import { RUNTIME_REDUCER_VERSION, RUNTIME_REGISTRY_VERSION } from '../core/runtime/runtime-versions.js'
import { kaiMomentAt } from '../core/time/kai.js'
import { chainPayloads, signedLink, type LinkPayload } from './capabilities.js'

export type { OperationPlan, TransitionSet }
export { genesisParticipantHead }

type PortableArtifact = ComponentType<'V124PortableSealedArtifact'>

/** The registry and reducer digests a plan pins unless it names its own (every digest of the set must agree). */
export const DEFAULT_REGISTRY_DIGEST = sha256OfJson({ schema: 'cairn.v124.registry', version: RUNTIME_REGISTRY_VERSION })
export const DEFAULT_REDUCER_DIGEST = sha256OfJson({ schema: 'cairn.v124.reducer', version: RUNTIME_REDUCER_VERSION })

/** A person who owns, acts in or delegates a plan: their user id, the ID key that signs for them and their sealed identity proof object. */
export interface PlanKey {
  readonly userId: string
  readonly keyId: string
  readonly alg: 'ES256' | 'EdDSA'
  readonly identityArtifact: PortableArtifact
}

/** A `PlanKey` that signs (an `IdKey` of `loadOrCreateIdKey` spread with the user id and identity artifact). */
export interface SigningPlanKey extends PlanKey {
  /** JWS-form signature over `bytes`. */
  sign(bytes: Uint8Array): Promise<Uint8Array>
}

type Namespace = { readonly scheme: string; readonly value: string }

/** One participant's part of a plan. */
export interface PlanParticipant<K extends PlanKey = PlanKey> {
  readonly participantId: string
  /** Its head now: `genesisParticipantHead(applicationId, participantId)` before its first move, else the `committedHeads` entry of the last execution. */
  readonly expectedHead: string
  /** The sealed artifact the participant stands for now (any proof object of the owner at genesis). */
  readonly predecessor: PortableArtifact
  /** The sealed artifact it stands for after the plan. */
  readonly candidate: PortableArtifact
  /** The artifacts' owner: issues the root capability. */
  readonly owner: K
  /** Who acts (signs the member consent); the owner unless given, then a delegate under `delegation`. */
  readonly actor?: K
  /** The namespace event (default: `{ set: { participant, key } }`). */
  readonly event?: Record<string, unknown>
  /** This participant's event namespace (the plan's unless given). */
  readonly namespace?: Namespace
  /** A private payload the event commits to (docs/runtime.md, private payloads). */
  readonly privatePayload?: NonNullable<TransitionMember['planning']['privatePayload']>
  /** Members of the actor's capability to narrow or replace (e.g. a shorter `expiresAtKai`). */
  readonly capability?: Partial<CapabilityPayload>
  /** Delegations from the owner down to whoever issues the actor's capability, root first (none: the owner issues it). */
  readonly delegation?: readonly DelegationStep<K>[]
}

/** One delegation: whom it grants, members of its payload to narrow, and who signs it (its issuer unless given). */
export interface DelegationStep<K extends PlanKey = PlanKey> {
  readonly grantee: K
  readonly capability?: Partial<CapabilityPayload>
  readonly signer?: K
}

export interface ExecutionPlanInput<K extends PlanKey = PlanKey> {
  readonly applicationId: string
  /** Idempotency coordinates: the domain and operation kind this plan is, and the key that makes it one operation. */
  readonly domainId: string
  readonly operationKind: string
  readonly semanticIdempotencyKey: string
  /** A new attempt under the same coordinates after a `zero-write` or `cancelled` one (`restage`). @default 'a1' */
  readonly attemptId?: string
  /** The authority session's audience the capabilities are for. @default applicationId */
  readonly audience?: string
  readonly participants: readonly PlanParticipant<K>[]
  /** Members of the plan bytes beside `participants` (the application's own). */
  readonly extraPlan?: Record<string, unknown>
  /** Every member's event namespace unless it names its own. @default { scheme: 'subject', value: 'profile' } */
  readonly namespace?: Namespace
  readonly registryDigest?: string
  readonly reducerDigest?: string
}

/** A plan before its signatures: the plan to stage, the bytes each key signs, and the transition set once they are signed. */
export interface ExecutionPlanDraft<K extends PlanKey = PlanKey> {
  readonly plan: OperationPlan
  /** Every signature the transition set needs, in order: each capability link, then each member consent. */
  readonly toSign: readonly { readonly signer: K; readonly bytes: Uint8Array }[]
  /** The transition set with the JWS-form signatures of `toSign`, in its order. */
  transitionSet(signatures: readonly Uint8Array[]): TransitionSet
}

type Digest<B extends string> = { algorithm: 'sha-256'; binds: B; value: string }
const typed = <B extends string>(binds: B, value: string): Digest<B> => ({ algorithm: 'sha-256', binds, value })

/**
 * The plan and everything its transition set needs signed (pure).
 *
 * @example const draft = draftExecutionPlan({ applicationId, domainId: 'notes', operationKind: 'append', semanticIdempotencyKey: 'k1', participants: [{ participantId: 'doc-1', expectedHead, predecessor, candidate, owner: ada }] })
 */
export function draftExecutionPlan<K extends PlanKey>(input: ExecutionPlanInput<K>, now = Date.now()): ExecutionPlanDraft<K> {
  const registryDigest = input.registryDigest ?? DEFAULT_REGISTRY_DIGEST
  const registry = typed('registry', registryDigest)
  const members = input.participants.map((participant) => appendPlanOf(input, participant, registry))
  const bytes = planBytes(Object.fromEntries(members.map((m) => [m.participant.participantId, m.appendPlanDigest])), input.extraPlan)
  const exactPlanDigest = sha256Hex(bytes)
  const expectedParticipantHeads = Object.fromEntries(input.participants.map((p) => [p.participantId, p.expectedHead]))
  const plan: OperationPlan = {
    schema: 'cairn.v124.operation_plan', applicationId: input.applicationId, domainId: input.domainId, operationKind: input.operationKind,
    registryDigest, reducerDigest: input.reducerDigest ?? DEFAULT_REDUCER_DIGEST, exactPlanBytesB64u: toBase64Url(bytes), exactPlanDigest, expectedParticipantHeads,
    semanticIdempotencyKey: input.semanticIdempotencyKey, attemptId: input.attemptId ?? 'a1', writesOnFailure: 0,
  }
  const toSign: { signer: K; bytes: Uint8Array }[] = []
  const signed = members.map((member) => {
    const chain = capabilityChainOf(input, member, registryDigest, now)
    const linksAt = toSign.length
    for (const link of chain) toSign.push({ signer: link.signer, bytes: capabilitySigningBytes(link.payload) })
    const consentAt = toSign.length
    const consent = memberConsentBytes({ applicationId: input.applicationId, exactPlanDigest, participantId: member.participant.participantId, appendPlanDigest: member.appendPlanDigest })
    toSign.push({ signer: member.actor, bytes: consent })
    return { member, chain, linksAt, consentAt, consent }
  })
  return {
    plan,
    toSign,
    transitionSet(signatures) {
      if (signatures.length !== toSign.length) throw new RangeError(`The plan needs ${toSign.length} signatures; ${signatures.length} were given`)
      const transitionMembers = signed.map(({ member, chain, linksAt, consentAt, consent }): TransitionMember => {
        const links = chain.map((link, index) => signedLink(link.payload, link.signer.alg, signatures[linksAt + index]!))
        const { participant, actor } = member
        return {
          schema: 'cairn.v124.portable_execution_transition_member',
          profile: 'cairn.artifact',
          participantId: participant.participantId,
          operationPlan: member.operationPlan,
          planning: {
            commitDomain: member.commitDomain, namespace: member.namespace, event: member.event, expectedHead: participant.expectedHead, idempotencyKey: input.semanticIdempotencyKey,
            ...(participant.privatePayload ? { privatePayload: participant.privatePayload } : {}),
          },
          predecessor: participant.predecessor,
          candidate: participant.candidate,
          identityArtifact: { exactBytesB64u: actor.identityArtifact.exactBytesB64u, digest: actor.identityArtifact.artifactSha256 },
          signedCapability: links[links.length - 1]!,
          ...(links.length > 1 ? { parentCapabilities: links.slice(0, -1) } : {}),
          identityProof: { schema: 'cairn.v124.identity_login_proof', keyId: actor.keyId, alg: actor.alg, challengeB64Url: toBase64Url(consent), signatureB64Url: toBase64Url(signatures[consentAt]!) },
          authority: RUNTIME_AUTHORITY,
        } as TransitionMember
      })
      return {
        schema: 'cairn.v124.portable_execution_transition_set', applicationId: input.applicationId, exactPlanDigest, expectedParticipantHeads,
        proposedParticipantHeads: Object.fromEntries(members.map((m) => [m.participant.participantId, m.proposedHead])), members: transitionMembers, authority: RUNTIME_AUTHORITY,
      }
    },
  }
}

/**
 * The plan to stage and its transition set, signed by the participants' ID keys.
 *
 * @example const { plan, transitionSet } = await signExecutionPlan({ applicationId, domainId: 'notes', operationKind: 'append', semanticIdempotencyKey: 'k1', participants: [{ participantId: 'doc-1', expectedHead: genesisParticipantHead(applicationId, 'doc-1'), predecessor, candidate, owner: { ...idKey, userId, identityArtifact } }] })
 */
export async function signExecutionPlan(input: ExecutionPlanInput<SigningPlanKey>, now = Date.now()): Promise<{ plan: OperationPlan; transitionSet: TransitionSet }> {
  const draft = draftExecutionPlan(input, now)
  const signatures = await Promise.all(draft.toSign.map(({ signer, bytes }) => signer.sign(bytes)))
  return { plan: draft.plan, transitionSet: draft.transitionSet(signatures) }
}

/** One participant's append plan and what its member repeats (pure). */
function appendPlanOf<K extends PlanKey>(input: ExecutionPlanInput<K>, participant: PlanParticipant<K>, registry: Digest<'registry'>) {
  const actor = participant.actor ?? participant.owner
  const event = participant.event ?? { set: { participant: participant.participantId, key: input.semanticIdempotencyKey } }
  const commitDomain = { scheme: 'artifact', value: participant.participantId }
  const namespace = participant.namespace ?? input.namespace ?? { scheme: 'subject', value: 'profile' }
  const eventDigest = sha256OfJson(event)
  const proposedHead = proposedHeadOf(participant.expectedHead, {
    applicationId: input.applicationId, participantId: participant.participantId, eventDigest, candidateArtifactSha256: participant.candidate.artifactSha256,
  })
  const actorRef = {
    actorId: actor.userId, evidenceDigest: typed('verified-actor-evidence', sha256Hex(actor.identityArtifact.artifactSha256)), admissionProfile: 'cairn.identity', registryDigest: registry,
  }
  const transition = {
    artifactId: participant.participantId,
    priorArtifactDigest: typed('artifact', participant.predecessor.artifactSha256),
    basePayloadDigest: typed('payload', participant.predecessor.payloadSha256),
    expectedHead: typed('history', participant.expectedHead),
    proposedHistoryHead: typed('history', proposedHead),
    namespace,
    namespaceLawVersion: 'law.1',
    namespaceReducerVersion: RUNTIME_REDUCER_VERSION,
    priorNamespaceBodyDigest: null,
    eventDigest: typed('namespace-event', eventDigest),
    proposedNamespaceBodyDigest: typed('namespace-body', sha256OfJson({ body: event })),
    preservedNamespaces: [],
    registryDigest: registry,
    actor: actorRef,
    proofSuiteRequirements: { signatureVersion: 'cairn.proof.1', carrier: participant.candidate.mimeType },
  }
  const unsigned = {
    transitionDigest: typed('artifact-transition', sha256OfJson(transition)),
    actor: actorRef,
    resource: `artifact:${participant.participantId}`,
    operation: 'artifact.append',
    commitDomain,
    effectsDigest: typed('external-operation-effects', sha256OfJson([])),
    idempotencyKeyDigest: typed('idempotency-identity', sha256OfJson({ key: input.semanticIdempotencyKey, participant: participant.participantId })),
    registryDigest: registry,
    schema: 'cairn.v124.artifact_append_plan' as const,
    transition,
    actorConstraint: (actor === participant.owner ? 'owner' : 'delegate') as 'owner' | 'delegate',
  }
  const appendPlanDigest = appendPlanDigestOf(unsigned)
  const operationPlan = { ...unsigned, planDigest: typed('artifact-append-plan', appendPlanDigest), authority: RUNTIME_AUTHORITY } as AppendPlan
  return { participant, actor, event, commitDomain, namespace, proposedHead, appendPlanDigest, operationPlan }
}

/**
 * The member's capability chain, root first, with who signs each link: the owner the root, each
 * grantee the next, and the last issuer the actor's capability, bound to this append plan.
 */
function capabilityChainOf<K extends PlanKey>(input: ExecutionPlanInput<K>, member: ReturnType<typeof appendPlanOf<K>>, registryDigest: string, now: number) {
  const { participant, actor, appendPlanDigest, commitDomain } = member
  const delegation = participant.delegation ?? []
  const issuers = [participant.owner, ...delegation.map((step) => step.grantee)]
  const common = {
    schema: 'cairn.v124.capability_payload', capabilityId: `cap-${appendPlanDigest.slice(0, 16)}`,
    tenantId: input.applicationId, audience: input.audience ?? input.applicationId, authorityProfile: 'cairn.owner', operations: ['artifact.append'],
    resourceScopes: ['cairn:runtime.execute'], maximumEffects: 1, registryDigest: typed('registry', registryDigest),
    validFromKai: kaiMomentAt(now - 60_000).uPulse, expiresAtKai: kaiMomentAt(now + 60 * 60_000).uPulse,
    // Derived from the append plan (itself bound to heads that never repeat), so each plan's capabilities are its own.
    nonce: toBase64Url(utf8(`nonce-${appendPlanDigest.slice(0, 24)}`)),
    maximumDelegationDepth: delegation.length, offline: false,
  } as const
  const links: { signer: K; payload: LinkPayload }[] = [
    ...delegation.map((step, depth) => {
      const signer = step.signer ?? issuers[depth]!
      return {
        signer,
        payload: {
          ...common, capabilityId: `${common.capabilityId}-${depth}`, nonce: `${common.nonce}-${depth}`, issuerKeyId: signer.keyId, actorId: step.grantee.userId,
          operationConstraints: null, ...step.capability,
        } as LinkPayload,
      }
    }),
    {
      signer: issuers[delegation.length]!,
      payload: {
        ...common, issuerKeyId: issuers[delegation.length]!.keyId, actorId: actor.userId,
        operationConstraints: { planDigest: typed('artifact-append-plan', appendPlanDigest), commitDomain }, ...participant.capability,
      } as LinkPayload,
    },
  ]
  const payloads = chainPayloads(links.map((link) => link.payload))
  return payloads.map((payload, index) => ({ signer: links[index]!.signer, payload }))
}
