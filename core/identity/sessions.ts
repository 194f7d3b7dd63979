/**
 * Browser sessions. The cookie value is 32 random bytes (base64url); the service stores only its
 * SHA-256, which is the session's document key and id, so a copy of the Store signs nobody in.
 * A session lasts 7 days from sign-in (absolute, not sliding) unless ended first.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { CollectionSpec, Write } from '../../ports/store.js'
import { sha256Hex } from '../digest/sha256.js'
import { toBase64Url } from '../encoding/base64url.js'
import { conflict, type DomainError } from '../errors/domain-error.js'
import { commitWithActions } from '../ledger/action-ledger.js'
import { nullableString, typedCollection, unchangedSince } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'

export const SESSIONS = 'sessions'
/** 7 days: docs/decisions.md, "Session lifetime". */
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/

/** `sessionId`: SHA-256 (hex) of the cookie value; also the document key. */
const SessionRecordCodec = t.readonly(t.type({ sessionId: t.string, userId: t.string, createdAt: t.string, expiresAt: t.string, endedAt: nullableString }))
export type SessionRecord = t.TypeOf<typeof SessionRecordCodec>

export const sessions = typedCollection({ name: SESSIONS, indexes: [{ name: 'byUserId', fields: ['userId', 'createdAt'] }] }, SessionRecordCodec)
export const sessionsCollection: CollectionSpec = sessions.spec

export interface StoredSession {
  readonly record: SessionRecord
  readonly version: number
}

/** A session about to be committed: the cookie value is shown to the browser once and never stored. */
export interface NewSession {
  readonly cookieValue: string
  readonly record: SessionRecord
  readonly write: Write
}

/** @example sessionIdOf(cookieValue) // 64 hex characters */
export function sessionIdOf(cookieValue: string): string {
  return sha256Hex(cookieValue)
}

/**
 * A new session for `userId`, starting now; commit `write` to make it real.
 *
 * @example const session = newSession(deps, userId); await deps.store.commit([session.write])
 */
export function newSession(deps: Pick<CoreDeps, 'clock' | 'entropy'>, userId: string): NewSession {
  const cookieValue = toBase64Url(deps.entropy.bytes(32))
  const now = deps.clock.now()
  const record: SessionRecord = {
    sessionId: sessionIdOf(cookieValue),
    userId,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + SESSION_LIFETIME_MS).toISOString(),
    endedAt: null,
  }
  return { cookieValue, record, write: sessions.put(record.sessionId, record, { kind: 'absent' }) }
}

/** Whether the session is neither ended nor expired at `now` (ms). */
export function isSessionActive(record: SessionRecord, now: number): boolean {
  return record.endedAt === null && now < Date.parse(record.expiresAt)
}

/**
 * The active session a cookie value names, or undefined (unknown, malformed, ended or expired).
 *
 * @example const session = await findActiveSession(deps, credentials.sessionCookie)
 */
export async function findActiveSession(deps: Pick<CoreDeps, 'store' | 'clock'>, cookieValue: string): Promise<StoredSession | undefined> {
  if (!COOKIE_VALUE.test(cookieValue)) return undefined
  const session = await getSession(deps, sessionIdOf(cookieValue))
  return session && isSessionActive(session.record, deps.clock.now()) ? session : undefined
}

/** A session by id (the hash), active or not. */
export async function getSession(deps: Pick<CoreDeps, 'store'>, sessionId: string): Promise<StoredSession | undefined> {
  const doc = await sessions.get(deps.store, sessionId)
  return doc && { record: doc.value, version: doc.version }
}

/** The write that ends `session` at `now` (ms), guarded by the version that was read. */
export function endSessionWrite(session: StoredSession, now: number): Write {
  const ended: SessionRecord = { ...session.record, endedAt: new Date(now).toISOString() }
  return sessions.put(ended.sessionId, ended, unchangedSince(session.version))
}

/**
 * Sign out: end the session a cookie value names, with an `auth`/`session_ended` ledger event in
 * the same commit. Ending an unknown, ended or expired session changes nothing (`ended: false`).
 *
 * @example const result = await endSession(deps, cookieValue) // right({ ended: true })
 */
export async function endSession(deps: Pick<CoreDeps, 'store' | 'clock' | 'entropy' | 'keys'>, cookieValue: string): Promise<Either<DomainError, { readonly ended: boolean }>> {
  const session = await findActiveSession(deps, cookieValue)
  if (session === undefined) return E.right({ ended: false })
  const outcome = await commitWithActions(deps, [endSessionWrite(session, deps.clock.now())], [
    { kind: 'auth', action: 'session_ended', actorUserId: session.record.userId },
  ])
  if (outcome.ok) return E.right({ ended: true })
  // Someone else ended it first; only a session still active means a real conflict.
  return (await findActiveSession(deps, cookieValue)) === undefined ? E.right({ ended: false }) : E.left(conflict('The session changed while ending it; try again'))
}
