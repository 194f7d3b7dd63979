/**
 * `POST /api/auth/cairn-id/continue`: publish an ID proof and sign in. Verify the proof (no state),
 * load who holds the username and the key, decide (decide-continue.ts), then commit everything in
 * one atomic write — the used challenge, the identity, the key's owner, the new session, the end of
 * the caller's previous session and the ledger events — or nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { conflict, unauthenticated, type DomainError } from '../errors/domain-error.js'
import type { Expectation, Write } from '../../ports/store.js'
import type { Principal } from '../auth/principal.js'
import { basePathOf } from '../config/base-path.js'
import { commitWithActions, type ActionInput } from '../ledger/action-ledger.js'
import type { CoreDeps, ReplyOf, RequestOf, UseCaseFor } from '../usecases/use-case.js'
import { LINK_CODE_REFUSED, usableLinkCode } from './link-codes.js'
import { CHALLENGE_USED, decideContinue, KEY_BOUND_ELSEWHERE, USERNAME_TAKEN, type ContinueDecision } from './decide-continue.js'
import { getIdentityByUsername, identities, type IdentityRecord } from './identities.js'
import { claimChallengeWrite, isChallengeUsed } from './id-proof-challenges.js'
import { bindKeyOwnerWrite, keyOwnerOf } from './identity-keys.js'
import { sessionCookie } from './session-cookie.js'
import { endSessionWrite, getSession, isSessionActive, newSession, type StoredSession } from './sessions.js'
import { newUserId } from './user-id.js'
import { verifyIdProof, type VerifiedIdProof } from './verify-id-proof.js'

/** A write and what it means when its expectation fails (a lost race). */
interface PlannedWrite {
  readonly write: Write
  readonly onConflict: DomainError
}

/**
 * @example await continueCairnId({ params: {}, query: {}, body: signedRequest, principal: ANONYMOUS }, deps)
 */
export const continueCairnId: UseCaseFor<'continueCairnId'> = (request, deps) => continueWithLinkCode(request, deps, undefined)

/**
 * ID continue from a browser holding none of the account's keys, with a link code a signed-in
 * device made (link-codes.ts): the key is bound and the code used up in one commit.
 */
export const continueWithLinkCode = async (request: RequestOf<'continueCairnId'>, deps: CoreDeps, linkCode: string | undefined): Promise<Either<DomainError, ReplyOf<'continueCairnId'>>> => {
  const now = deps.clock.now()
  const proof = verifyIdProof(request.body, { now, audience: deps.config.baseUrl })
  if (E.isLeft(proof)) return proof
  const link = linkCode === undefined ? undefined : await usableLinkCode(deps, linkCode)
  if (link && E.isLeft(link)) return link
  const [identity, keyOwner, challengeUsed, previousSession] = await Promise.all([
    getIdentityByUsername(deps, proof.right.username),
    keyOwnerOf(deps, proof.right.keyId),
    isChallengeUsed(deps, proof.right.challengeSha256),
    callerSession(deps, request.principal),
  ])
  const nowIso = new Date(now).toISOString()
  const linkedUserId = link && E.isRight(link) ? link.right.userId : undefined
  const decision = decideContinue({ identity, keyOwner, challengeUsed, caller: request.principal, now, ...(linkedUserId ? { linkedUserId } : {}) }, proof.right, nowIso, newUserId(deps))
  if (E.isLeft(decision)) return decision

  const session = newSession(deps, decision.right.identity.userId)
  const active = previousSession && isSessionActive(previousSession.record, now) ? previousSession : undefined
  const planned = plannedWrites(decision.right, proof.right, nowIso, session.write, active && endSessionWrite(active, now))
  if (decision.right.kind === 'bind' && decision.right.byLinkCode && link && E.isRight(link)) planned.push({ write: link.right.consume(now), onConflict: unauthenticated(LINK_CODE_REFUSED) })
  const outcome = await commitWithActions(deps, planned.map((p) => p.write), actionsOf(decision.right, active))
  if (!outcome.ok) return E.left(planned[outcome.conflict.writeIndex]?.onConflict ?? conflict('Cairn was busy recording this sign-in; try again'))

  return E.right({
    kind: 'json',
    body: continueResponse(decision.right, basePathOf(deps.config.baseUrl)),
    headers: { 'cache-control': 'no-store' },
    cookies: [sessionCookie(deps.config, session.cookieValue)],
  })
}

async function callerSession(deps: CoreDeps, caller: Principal): Promise<StoredSession | undefined> {
  return caller.kind === 'session' ? getSession(deps, caller.sessionId) : undefined
}

function plannedWrites(decision: ContinueDecision, proof: VerifiedIdProof, now: string, sessionWrite: Write, endPrevious: Write | undefined): PlannedWrite[] {
  const { identity } = decision
  const planned: PlannedWrite[] = [
    { write: claimChallengeWrite(proof.challengeSha256, { usedAt: now, keyId: proof.keyId }), onConflict: unauthenticated(CHALLENGE_USED) },
  ]
  if (decision.kind === 'create') {
    planned.push({ write: putIdentity(identity, { kind: 'absent' }), onConflict: conflict(USERNAME_TAKEN) })
  }
  if (decision.kind === 'bind') {
    planned.push({ write: putIdentity(identity, { kind: 'version', version: decision.priorVersion }), onConflict: conflict('The identity changed while the key was being bound; try again') })
  }
  if (decision.kind !== 'sign_in') {
    planned.push({ write: bindKeyOwnerWrite({ keyId: proof.keyId, userId: identity.userId, boundAt: now }), onConflict: conflict(KEY_BOUND_ELSEWHERE) })
  }
  planned.push({ write: sessionWrite, onConflict: conflict('The session could not be started; try again') })
  if (endPrevious) planned.push({ write: endPrevious, onConflict: conflict('The previous session changed during sign-in; try again') })
  return planned
}

function putIdentity(identity: IdentityRecord, expect: Expectation): Write {
  return identities.put(identity.userId, identity, expect)
}

function actionsOf(decision: ContinueDecision, endedPrevious: StoredSession | undefined): ActionInput[] {
  const actor = decision.identity.userId
  const actions: ActionInput[] = []
  // The implicit end of the caller's previous session is not published: next to this sign-in's
  // events in one commit, it would link the old account's pseudonym to the new one's.
  void endedPrevious
  if (decision.kind === 'create') actions.push({ kind: 'identity_key', action: 'identity_created', actorUserId: actor })
  if (decision.kind !== 'sign_in') actions.push({ kind: 'identity_key', action: 'key_bound', actorUserId: actor })
  actions.push({ kind: 'auth', action: 'session_started', actorUserId: actor })
  return actions
}

/** CairnIdContinueResponse; `next` is the login bootstrap of the account (the OIDC launch configuration). */
function continueResponse(decision: ContinueDecision, basePath: string) {
  const { identity } = decision
  return {
    ok: true as const,
    created: decision.kind === 'create',
    bound: decision.kind !== 'sign_in',
    next: `${basePath}/api/connect/login/bootstrap/${encodeURIComponent(identity.username)}`,
    session: { uid: identity.userId, email: identity.email, username: identity.username, displayName: identity.displayName },
    accountBindings: identity.keys.map((key) => ({ keyId: key.keyId, uid: identity.userId, boundAt: key.boundAt })),
  }
}
