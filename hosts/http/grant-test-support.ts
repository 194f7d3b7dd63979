/**
 * Test support for private payloads and access grants written by staged execution, with several
 * people of one application: each has an identity, sealed artifacts, a token and an authority
 * session of their own, stages and executes their own plans, publishes a sealed source and reads
 * private additions as a viewer.
 */
import { randomBytes } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import type { ComponentType } from '../../core/contract/components.js'
import { canonicalJsonBytes } from '../../core/digest/canonical-json.js'
import { sha256Hex } from '../../core/digest/sha256.js'
import { toBase64Url } from '../../core/encoding/base64url.js'
import { grantKeyOf } from '../../core/runtime/domains/access-grants.js'
import { DOMAIN_REDUCER_DIGEST, DOMAIN_REGISTRY_DIGEST } from '../../core/runtime/domains/domain-records.js'
import { ACCESS_GRANTS_NAMESPACE } from '../../core/runtime/domains/grant-events.js'
import { subjectHeadOf } from '../../core/runtime/domains/viewer-session.js'
import { privatePayloadCommitmentOf } from '../../core/runtime/execution-domain.js'
import { draftExecution, EXECUTION_SCOPES, membersAtCurrentHeads, openExecutionSession, type MemberDraft } from './execution-test-support.js'
import { bodyOf } from './oidc-test-support.js'
import { APP, type IdentityHolder, type PortableArtifact, type RuntimeTestWorld } from './runtime-test-support.js'

export const GRANT_SCOPES = [...EXECUTION_SCOPES, 'cairn:runtime.publish']
export type ExecutionWire = Record<string, unknown> & { status?: string; reasonCode?: string; writes?: number }
export type PrivateWire = ComponentType<'V124PrivateDomainAdditionsWire'>
/** One member of a plan: its participant and what differs from a plain member at its current head. */
export type Spec = Pick<MemberDraft, 'participantId'> & Partial<MemberDraft>

/** A person of the application with their own sealed artifacts, token and execution session. */
export interface Person {
  readonly holder: IdentityHolder
  readonly artifacts: readonly PortableArtifact[]
  readonly token: string
  readonly session: ComponentType<'V124AuthoritySession'>
}

/** @example const ada = await personOf(runtime, 'ada') */
export async function personOf(runtime: RuntimeTestWorld, username: string): Promise<Person> {
  const holder = await runtime.identityHolder(username)
  const artifacts = []
  for (let i = 0; i < 2; i++) artifacts.push(await holder.seal(`${username}-${i}.json`, 'application/json', new TextEncoder().encode(JSON.stringify({ username, doc: i }))))
  return { holder, artifacts, token: await runtime.tokenFor(GRANT_SCOPES, APP, username), session: await openExecutionSession(runtime.deps, APP, holder, GRANT_SCOPES) }
}

export const wireOf = <W>(reply: Awaited<ReturnType<RuntimeTestWorld['call']>>): W => bodyOf<{ wire: W }>(reply).wire

/** The person publishes their first artifact as their sealed source (a viewer needs one to be granted). */
export async function publishSource(runtime: RuntimeTestWorld, person: Person): Promise<void> {
  const published = await runtime.call('publishSealedSource', { body: { applicationId: APP, authoritySessionHandle: person.session.authoritySessionHandle, sourceArtifact: person.artifacts[0] }, token: person.token })
  if (E.isLeft(published)) throw new Error(`publish refused: ${published.left.message}`)
}

/** A plan of `specs` over the person's artifacts at the participants' current heads, staged by them; answers the execute request body. */
export async function planned(runtime: RuntimeTestWorld, person: Person, key: string, specs: readonly Spec[]) {
  const atHeads = await membersAtCurrentHeads({ deps: runtime.deps, owner: person.holder, pool: person.artifacts }, specs.map((spec) => spec.participantId))
  const draft = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: key, members: atHeads.map((member, i) => ({ ...member, ...specs[i] })) })
  const handle = wireOf<ExecutionWire>(await runtime.call('stageExecution', { body: { applicationId: APP, plan: draft.plan }, token: person.token }))
  return { applicationId: APP, handle, authoritySession: person.session, transitionSet: draft.transitionSet }
}

/** Executes a staged plan body as `person`. */
export const execute = async (runtime: RuntimeTestWorld, person: Person, body: unknown) =>
  wireOf<ExecutionWire>(await runtime.call('executeExecution', { body, token: person.token }))

/** A member event in namespace `secret` committing to a private payload whose owner is `ownerSubjectId`. */
export function privateNote(participantId: string, text: string, ownerSubjectId: string, visibility: 'private' | 'grant' = 'grant'): Spec {
  const privatePayload = { visibility, ownerSubjectId, saltB64u: toBase64Url(randomBytes(32)), payloadB64u: toBase64Url(new TextEncoder().encode(text)) }
  return { participantId, namespace: { scheme: 'domain', value: 'secret' }, event: { note: 'sealed', privatePayloadCommitment: privatePayloadCommitmentOf(privatePayload) }, privatePayload }
}

/** A member whose event is an access-grants event. */
export const grantEvent = (participantId: string, event: Record<string, unknown>): Spec => ({ participantId, namespace: { scheme: 'domain', value: ACCESS_GRANTS_NAMESPACE }, event })

/** A grant event for a fresh handle; answers the event and the handle the viewer is given. */
export function grantFor(viewerSubjectId: string, accessKeyJwk: JsonWebKey, namespaces: readonly string[] = ['secret']) {
  const handle = toBase64Url(randomBytes(32))
  const accessGrantKey = grantKeyOf(handle)
  return { handle, accessGrantKey, event: { grant: { accessGrantKey, viewerSubjectId, namespaces: [...namespaces], accessKeyJwk } } }
}

/** The domain head `event` reached, read from the public replay (where a viewer learns its grant head). */
export async function headOfEvent(runtime: RuntimeTestWorld, token: string, event: Record<string, unknown>): Promise<string> {
  const replay = wireOf<{ additions: { eventDigest: string; newHead: string }[] }>(await runtime.call('replayDomain', {
    body: { applicationId: APP, domainId: 'notes', afterHead: null, expectedRegistryDigest: DOMAIN_REGISTRY_DIGEST, expectedReducerDigest: DOMAIN_REDUCER_DIGEST }, token,
  }))
  return replay.additions.find((a) => a.eventDigest === sha256Hex(canonicalJsonBytes(event)))!.newHead
}

/** The request body with which `viewer` reads the domain's private additions under a grant handle. */
export async function privateReadBody(runtime: RuntimeTestWorld, viewer: Person, accessGrantHandle: string, expectedGrantHead: string) {
  return {
    applicationId: APP, domainId: 'notes', afterHead: null, authoritySessionHandle: viewer.session.authoritySessionHandle, accessGrantHandle,
    expectedViewerSubjectId: viewer.holder.userId, expectedViewerSubjectHead: await subjectHeadOf(runtime.deps, viewer.holder.userId), expectedGrantHead,
  }
}

/** `viewer` reads the domain's private additions under a grant handle. */
export async function readPrivate(runtime: RuntimeTestWorld, viewer: Person, accessGrantHandle: string, expectedGrantHead: string): Promise<PrivateWire> {
  const body = await privateReadBody(runtime, viewer, accessGrantHandle, expectedGrantHead)
  return wireOf<PrivateWire>(await runtime.call('listPrivateDomainAdditions', { body, token: viewer.token }))
}
