/**
 * Authority sessions (`/api/sdk/v1/runtime/authority-sessions/open|refresh|close`): short-lived,
 * server-custodied, opened only after ProofConsent (identity artifact, a fresh challenge signed by
 * the owner's key), exact scope binding (the consent's scopes, all held by the token) and head
 * checks (every required namespace at the subject's current head). The handle is 256 random bits
 * handed out once; only its SHA-256 is stored. Refresh needs a fresh challenge and identical
 * bindings; close appends the revocation to the application's revocation stream and the handle is
 * refused from then on. Each write is one commit; every refusal writes nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { ComponentType } from '../contract/components.js'
import { RUNTIME_AUTHORITY } from '../contract/schemas/runtime/authority.js'
import { canonicalJson } from '../digest/canonical-json.js'
import { chainHead, entryDigestOf } from '../digest/chain.js'
import { sha256Hex, sha256OfJson } from '../digest/sha256.js'
import { fromBase64Url, toBase64Url } from '../encoding/base64url.js'
import { conflict, forbidden, invalidInput, notFound, unauthenticated, unprocessable, type DomainError } from '../errors/domain-error.js'
import { kaiMomentAt } from '../time/kai.js'
import type { Write } from '../../ports/store.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import { json, type CoreDeps, type OperationRequest, type UseCaseFor } from '../usecases/use-case.js'
import { CHALLENGE_USED, claimNonceWrite, verifyOwnedArtifact, verifyProofConsent, type VerifiedConsent } from './proof-consent.js'
import { revocationHeadOf, revocationStreamOf } from './revocation-head.js'
import { authoritySessions, type AuthoritySessionRecord } from './authority-session-record.js'
import { AUTHORITY_SESSIONS } from './runtime-collections.js'
import { runtimeCaller, type RuntimeCaller } from './runtime-caller.js'
import { requestDigestOf, calledPath, signEnvelope } from './signed-envelope.js'
import { subjectProjection } from './subject-namespaces.js'

/** How long a session lives: 15 minutes from open or refresh, never extended in place. */
export const AUTHORITY_SESSION_MS = 15 * 60 * 1000

type ActiveSession = ComponentType<'V124AuthoritySession'>
type NamespaceHead = ComponentType<'V124AuthorityNamespaceHead'>

export type { AuthoritySessionRecord }

interface StoredSession {
  readonly key: string
  readonly version: number
  readonly record: AuthoritySessionRecord
}

export const handleKey = (handle: string): string => sha256Hex(`cairn.v124.authority_session_handle:${handle}`)

async function loadSession(deps: Pick<CoreDeps, 'store'>, handle: string): Promise<StoredSession | undefined> {
  const key = handleKey(handle)
  const doc = await authoritySessions.get(deps.store, key)
  return doc && { key, version: doc.version, record: doc.value }
}

const NOT_OPEN = 'The authority session handle does not name an open session of this application and person'

/**
 * The open session a handle names, for the calling application and the person its token acts for;
 * a closed, refreshed, expired, unknown or foreign handle is refused alike.
 *
 * @example const session = await activeSession(deps, caller, body.authoritySessionHandle)
 */
export async function activeSession(deps: Pick<CoreDeps, 'store' | 'clock'>, caller: RuntimeCaller, handle: string): Promise<Either<DomainError, StoredSession>> {
  const session = await loadSession(deps, handle)
  if (!session || session.record.status !== 'active' || session.record.applicationId !== caller.applicationId || session.record.ownerUserId !== caller.subject || session.record.expiresAtMs <= deps.clock.now()) {
    return E.left(forbidden(NOT_OPEN))
  }
  return E.right(session)
}

/**
 * The open session a request names by its `sessionBindingDigest` (value execution's
 * `authorityDigest`): active, unexpired, of the calling application and person, and consented to
 * `scope`. Any other digest — unknown, closed, expired, foreign, all zeros — is refused alike (403).
 *
 * @example await sessionBoundBy(deps, caller, body.authorityDigest, 'cairn:value.execute')
 */
export async function sessionBoundBy(deps: Pick<CoreDeps, 'store' | 'clock'>, caller: RuntimeCaller, bindingDigest: string, scope: string): Promise<Either<DomainError, AuthoritySessionRecord>> {
  const now = deps.clock.now()
  const page = await deps.store.query(AUTHORITY_SESSIONS, { index: 'byBinding', equals: [bindingDigest], limit: 16 })
  const open = page.items
    .map(authoritySessions.decode)
    .find((record) => record.status === 'active' && record.applicationId === caller.applicationId && record.ownerUserId === caller.subject && record.expiresAtMs > now)
  if (!open) return E.left(forbidden('authorityDigest must be the sessionBindingDigest of an open authority session of this application and person'))
  if (!open.grantedScopes.includes(scope)) return E.left(forbidden(`The authority session authorityDigest names was not consented to ${scope}`))
  return E.right(open)
}

/**
 * The first check of every session-bound runtime call: the calling application (from the token)
 * and the open session the body's handle names for it.
 *
 * @example const bound = await callerSession(deps, request.principal, request.body)
 */
export async function callerSession(
  deps: Pick<CoreDeps, 'store' | 'clock'>,
  principal: OperationRequest['principal'],
  body: { readonly applicationId: string; readonly authoritySessionHandle: string },
): Promise<Either<DomainError, { readonly caller: RuntimeCaller; readonly session: StoredSession }>> {
  const caller = runtimeCaller(principal, body.applicationId)
  if (E.isLeft(caller)) return caller
  const session = await activeSession(deps, caller.right, body.authoritySessionHandle)
  return E.isLeft(session) ? session : E.right({ caller: caller.right, session: session.right })
}

/** The bindings a client holds and a refresh repeats (`V124ExpectedPriorAuthoritySession`). */
function bindingsOf(record: AuthoritySessionRecord): ComponentType<'V124ExpectedPriorAuthoritySession'> {
  return {
    actorSubjectId: record.actorSubjectId,
    subjectSourceArtifactSha256: record.subjectSourceArtifactSha256,
    identityArtifactSha256: record.identityArtifactSha256,
    identityKeyId: record.identityKeyId,
    grantedScopes: [...record.grantedScopes],
    grantedRails: [...record.grantedRails],
    namespaces: record.namespaces.map((ns) => ({ ...ns })),
    revocationHead: record.revocationHead,
    issuedAtKaiUPulse: record.issuedAtKaiUPulse,
    expiresAtKaiUPulse: record.expiresAtKaiUPulse,
    sessionBindingDigest: record.sessionBindingDigest,
  }
}

function wireOf(handle: string, record: AuthoritySessionRecord): ActiveSession {
  return {
    schema: 'cairn.v124.authority_session',
    status: 'active',
    authoritySessionHandle: handle,
    applicationId: record.applicationId,
    audience: record.audience,
    ...bindingsOf(record),
    runtimeReceiptDigest: record.runtimeReceiptDigest,
    authority: RUNTIME_AUTHORITY,
  }
}

const unique = (values: readonly string[]): string[] => [...new Set(values)]
const sameSet = (a: readonly string[], b: readonly string[]): boolean => canonicalJson([...new Set(a)].sort()) === canonicalJson([...new Set(b)].sort())

interface SessionTerms {
  readonly consent: VerifiedConsent
  readonly subjectSourceArtifactSha256: string
  readonly rails: readonly string[]
  readonly namespaces: readonly NamespaceHead[]
}

/** Builds a session record (pure) from verified terms and the moment. */
function newSessionRecord(
  caller: RuntimeCaller, audience: string, terms: SessionTerms, revocationHead: string, nowMs: number, requestDigest: string,
): AuthoritySessionRecord {
  const issuedAtKaiUPulse = kaiMomentAt(nowMs).uPulse
  const expiresAtMs = nowMs + AUTHORITY_SESSION_MS
  const bindings = {
    applicationId: caller.applicationId,
    audience,
    actorSubjectId: terms.consent.ownerUserId,
    subjectSourceArtifactSha256: terms.subjectSourceArtifactSha256,
    identityArtifactSha256: terms.consent.artifactSha256,
    identityKeyId: terms.consent.identityKeyId,
    grantedScopes: [...terms.consent.scopes],
    grantedRails: [...terms.rails],
    namespaces: terms.namespaces.map((ns) => ({ ...ns })),
    revocationHead,
    issuedAtKaiUPulse,
    expiresAtKaiUPulse: kaiMomentAt(expiresAtMs).uPulse,
  }
  const sessionBindingDigest = sha256OfJson({ schema: 'cairn.v124.authority_session_binding', ...bindings })
  const runtimeReceiptDigest = sha256OfJson({ schema: 'cairn.v124.authority_session_receipt', sessionBindingDigest, requestDigest, consentStatementSha256: sha256Hex(terms.consent.statement) })
  return {
    status: 'active', ...bindings, ownerUserId: terms.consent.ownerUserId, issuedAtMs: nowMs, expiresAtMs, sessionBindingDigest, runtimeReceiptDigest, closedAtMs: null, closedRevocationHead: null,
  }
}

/** The consent of an open or refresh: challenge for this audience, scopes all held by the token, and the token acting for the artifact's owner. */
async function sessionConsent(deps: CoreDeps, caller: RuntimeCaller, artifact: { exactBytesB64u: string; digest: string }, challenge: ComponentType<'V124ProofAuthorityChallenge'>, audience: string): Promise<Either<DomainError, VerifiedConsent>> {
  const bytes = fromBase64Url(artifact.exactBytesB64u)
  if (!bytes || sha256Hex(bytes) !== artifact.digest) return E.left(invalidInput('artifact.digest must be the SHA-256 of artifact.exactBytesB64u'))
  if (challenge.consent.scopes.length === 0) return E.left(invalidInput('signedChallenge.consent.scopes must name at least one scope'))
  const notHeld = challenge.consent.scopes.filter((scope) => !caller.scopes.includes(scope))
  if (notHeld.length > 0) return E.left(forbidden(`The consent names scopes this application's token does not hold: ${notHeld.join(', ')}`))
  const consent = await verifyProofConsent(deps, { artifactBytes: bytes, challenge, audience })
  if (E.isLeft(consent)) return consent
  if (consent.right.ownerUserId !== caller.subject) return E.left(forbidden('The identity artifact names another person than the one this access token acts for'))
  return consent
}

/** Every required namespace at the subject's current head, or a refusal naming the first missing one. */
async function namespaceHeads(deps: CoreDeps, subjectId: string, required: readonly string[]): Promise<Either<DomainError, NamespaceHead[]>> {
  const projection = await subjectProjection(deps, subjectId)
  const heads: NamespaceHead[] = []
  for (const name of unique(required)) {
    const ns = projection?.namespaces.get(name)
    if (!ns) return E.left(unprocessable(`The subject has no namespace ${name} at its current head`))
    heads.push({ name, head: ns.head, digest: ns.digest })
  }
  return E.right(heads)
}

function sessionEnvelope(deps: CoreDeps, request: OperationRequest, operationId: 'openAuthoritySession' | 'refreshAuthoritySession', wire: ActiveSession) {
  return signEnvelope(deps, 'cairn.v124.signed_active_authority_session_envelope', wire, {
    operationId, params: request.params, body: request.body, applicationId: wire.applicationId, audience: wire.audience, revocationHead: wire.revocationHead,
  })
}

function requestDigestFor(operationId: 'openAuthoritySession' | 'refreshAuthoritySession', request: OperationRequest): string {
  const { method, path } = calledPath(operationId, request.params)
  return requestDigestOf(method, path, request.body)
}

/** @example await openAuthoritySession({ body: { applicationId, actorSubjectId, artifact, subjectSourceArtifact, signedChallenge, requestedRails, requiredNamespaces, audience }, principal: bearer, … }, deps) */
export const openAuthoritySession: UseCaseFor<'openAuthoritySession'> = async (request, deps) => {
  const body = request.body
  const caller = runtimeCaller(request.principal, body.applicationId)
  if (E.isLeft(caller)) return caller
  if (body.signedChallenge.audience !== body.audience) return E.left(forbidden('The challenge was signed for another audience'))
  const consent = await sessionConsent(deps, caller.right, body.artifact, body.signedChallenge, body.audience)
  if (E.isLeft(consent)) return consent
  if (body.actorSubjectId !== consent.right.ownerUserId) return E.left(forbidden('actorSubjectId must be the subject the identity artifact names (its owner)'))
  const sourceBytes = fromBase64Url(body.subjectSourceArtifact.exactBytesB64u)
  if (!sourceBytes || sha256Hex(sourceBytes) !== body.subjectSourceArtifact.artifactSha256) {
    return E.left(invalidInput('subjectSourceArtifact.artifactSha256 must be the SHA-256 of subjectSourceArtifact.exactBytesB64u'))
  }
  const source = await verifyOwnedArtifact(deps, sourceBytes, 'The subject source artifact')
  if (E.isLeft(source)) return source
  if (source.right.ownerUserId !== consent.right.ownerUserId) return E.left(forbidden('The subject source artifact belongs to another person than the identity'))
  if (source.right.payloadSha256 !== body.subjectSourceArtifact.payloadSha256) return E.left(unprocessable('subjectSourceArtifact.payloadSha256 is not the SHA-256 of the payload the proof covers'))
  const namespaces = await namespaceHeads(deps, body.actorSubjectId, body.requiredNamespaces)
  if (E.isLeft(namespaces)) return namespaces

  const now = deps.clock.now()
  const handle = toBase64Url(deps.entropy.bytes(32))
  const revocationHead = await revocationHeadOf(deps, caller.right.applicationId)
  const terms: SessionTerms = { consent: consent.right, subjectSourceArtifactSha256: source.right.artifactSha256, rails: unique(body.requestedRails), namespaces: namespaces.right }
  const record = newSessionRecord(caller.right, body.audience, terms, revocationHead, now, requestDigestFor('openAuthoritySession', request))
  const wire = wireOf(handle, record)
  const envelope = await sessionEnvelope(deps, request, 'openAuthoritySession', wire)
  const outcome = await deps.store.commit([
    claimNonceWrite(consent.right, { applicationId: caller.right.applicationId, operation: 'openAuthoritySession', nowMs: now }),
    authoritySessions.put(handleKey(handle), record, { kind: 'absent' }),
  ])
  if (!outcome.ok) return E.left(outcome.conflict.writeIndex === 0 ? unauthenticated(CHALLENGE_USED) : conflict('The session could not be opened at this moment; sign a fresh challenge and try again'))
  return E.right(json(envelope, { 'cache-control': 'no-store' }))
}

/** @example await refreshAuthoritySession({ body: { …, authoritySessionHandle, expectedPriorSession }, principal: bearer, … }, deps) */
export const refreshAuthoritySession: UseCaseFor<'refreshAuthoritySession'> = async (request, deps) => {
  const body = request.body
  const bound = await callerSession(deps, request.principal, body)
  if (E.isLeft(bound)) return bound
  const { caller, session: prior } = bound.right
  const held = prior.record
  if (canonicalJson(body.expectedPriorSession) !== canonicalJson(bindingsOf(held))) return E.left(conflict('expectedPriorSession is not the session this handle names; nothing was refreshed'))
  if (body.audience !== held.audience || body.signedChallenge.audience !== held.audience) return E.left(forbidden('A refresh keeps the audience of the session it refreshes'))
  if (body.artifact.digest !== held.identityArtifactSha256) return E.left(forbidden('A refresh keeps the identity artifact of the session it refreshes'))
  if (!sameSet(body.signedChallenge.consent.scopes, held.grantedScopes)) return E.left(forbidden('A refresh keeps exactly the scopes of the session it refreshes'))
  if (!sameSet(body.requestedRails, held.grantedRails)) return E.left(forbidden('A refresh keeps exactly the rails of the session it refreshes'))
  if (!sameSet(body.requiredNamespaces, held.namespaces.map((ns) => ns.name))) return E.left(forbidden('A refresh keeps exactly the namespaces of the session it refreshes'))
  const consent = await sessionConsent(deps, caller, body.artifact, body.signedChallenge, held.audience)
  if (E.isLeft(consent)) return consent
  if (consent.right.ownerUserId !== held.ownerUserId) return E.left(forbidden('A refresh keeps the owner of the session it refreshes'))
  const revocationHead = await revocationHeadOf(deps, caller.applicationId)
  if (revocationHead !== held.revocationHead) return E.left(conflict('The application\'s revocation head moved since this session was bound; open a new session'))
  const namespaces = await namespaceHeads(deps, held.actorSubjectId, held.namespaces.map((ns) => ns.name))
  if (E.isLeft(namespaces)) return namespaces
  if (canonicalJson(namespaces.right) !== canonicalJson(held.namespaces)) return E.left(conflict('A namespace the session is bound to moved to another head; open a new session'))

  const now = deps.clock.now()
  const handle = toBase64Url(deps.entropy.bytes(32))
  const terms: SessionTerms = { consent: consent.right, subjectSourceArtifactSha256: held.subjectSourceArtifactSha256, rails: held.grantedRails, namespaces: held.namespaces }
  const record = newSessionRecord(caller, held.audience, { ...terms, consent: { ...consent.right, scopes: held.grantedScopes } }, revocationHead, now, requestDigestFor('refreshAuthoritySession', request))
  const wire = wireOf(handle, record)
  const envelope = await sessionEnvelope(deps, request, 'refreshAuthoritySession', wire)
  const outcome = await deps.store.commit([
    claimNonceWrite(consent.right, { applicationId: caller.applicationId, operation: 'refreshAuthoritySession', nowMs: now }),
    authoritySessions.put(prior.key, { ...held, status: 'refreshed' }, unchangedSince(prior.version)),
    authoritySessions.put(handleKey(handle), record, { kind: 'absent' }),
  ])
  if (!outcome.ok) return E.left(outcome.conflict.writeIndex === 0 ? unauthenticated(CHALLENGE_USED) : conflict('The session changed while it was being refreshed; nothing was refreshed'))
  return E.right(json(envelope, { 'cache-control': 'no-store' }))
}

/** @example await closeAuthoritySession({ body: { applicationId, authoritySessionHandle, expectedPriorRevocationHead, expectedPriorSessionBindingDigest }, principal: bearer, … }, deps) */
export const closeAuthoritySession: UseCaseFor<'closeAuthoritySession'> = async (request, deps) => {
  const body = request.body
  const caller = runtimeCaller(request.principal, body.applicationId)
  if (E.isLeft(caller)) return caller
  const session = await loadSession(deps, body.authoritySessionHandle)
  const record = session?.record
  if (!session || !record || record.applicationId !== caller.right.applicationId || record.ownerUserId !== caller.right.subject) return E.left(notFound(NOT_OPEN))
  if (record.status !== 'active') return E.left(conflict(`The authority session is ${record.status} already; nothing was written`))
  if (body.expectedPriorSessionBindingDigest !== record.sessionBindingDigest) return E.left(conflict('expectedPriorSessionBindingDigest is not the binding of this session; nothing was written'))
  const priorHead = (await deps.store.streamHead(revocationStreamOf(caller.right.applicationId)))?.head ?? null
  const currentHead = priorHead ?? (await revocationHeadOf(deps, caller.right.applicationId))
  if (body.expectedPriorRevocationHead !== currentHead) return E.left(conflict('expectedPriorRevocationHead is not the application\'s revocation head; nothing was written'))

  const now = deps.clock.now()
  const closedAtKaiUPulse = kaiMomentAt(now).uPulse
  const revocation = {
    schema: 'cairn.v124.authority_session_revocation', applicationId: record.applicationId, sessionBindingDigest: record.sessionBindingDigest,
    handleDigest: session.key, closedAtKaiUPulse,
  }
  const newHead = chainHead(priorHead, entryDigestOf(revocation))
  const closed: AuthoritySessionRecord = { ...record, status: 'closed', closedAtMs: now, closedRevocationHead: newHead }
  const wire: ComponentType<'V124AuthoritySessionClosed'> = {
    schema: 'cairn.v124.authority_session_closed',
    status: 'closed',
    authoritySessionHandle: body.authoritySessionHandle,
    applicationId: record.applicationId,
    audience: record.audience,
    revocationHead: newHead,
    closedAtKaiUPulse,
    sessionBindingDigest: record.sessionBindingDigest,
    runtimeReceiptDigest: record.runtimeReceiptDigest,
    authority: RUNTIME_AUTHORITY,
  }
  const envelope = await signEnvelope(deps, 'cairn.v124.signed_closed_authority_session_envelope', wire, {
    operationId: 'closeAuthoritySession', params: request.params, body: request.body, applicationId: record.applicationId, audience: record.audience,
    revocationHead: newHead, revokedAtKaiUPulse: closedAtKaiUPulse,
  })
  const writes: Write[] = [
    authoritySessions.put(session.key, closed, unchangedSince(session.version)),
    { kind: 'append', stream: revocationStreamOf(record.applicationId), value: revocation, expectHead: priorHead },
  ]
  const outcome = await deps.store.commit(writes)
  if (!outcome.ok) return E.left(conflict('The session or the revocation head changed at the same moment; nothing was written'))
  return E.right(json(envelope, { 'cache-control': 'no-store' }))
}
