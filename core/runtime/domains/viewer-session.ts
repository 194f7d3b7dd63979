/**
 * Who is viewing private additions: the person an open authority session acts for, and the head
 * of the viewer subject. Authority sessions and subject heads are built by "Universal Runtime I"
 * (core/runtime/authority-sessions.ts and subject-namespaces.ts on their branch); until they land
 * here this file reads their stored form directly — sessions keyed by SHA-256 of
 * `cairn.v124.authority_session_handle:<handle>`, subjects as the Store stream
 * `runtime.subjects.<subjectId>` with a genesis digest before the first publication. When they land,
 * this file becomes two re-exports (`activeSession`, the subject's head) and nothing else changes.
 */
import type { Json } from '../../../ports/store.js'
import { sha256Hex, sha256OfJson } from '../../digest/sha256.js'
import type { CoreDeps } from '../../usecases/use-case.js'
import type { RuntimeCaller } from '../runtime-caller.js'

/** Authority sessions, as "Universal Runtime I" stores them. */
export const AUTHORITY_SESSIONS = 'runtime_authority_sessions'
export const sessionKeyOf = (handle: string): string => sha256Hex(`cairn.v124.authority_session_handle:${handle}`)

/** The fields of a stored session this module reads. */
export interface SessionFacts {
  readonly status: string
  readonly applicationId: string
  readonly ownerUserId: string
  readonly actorSubjectId: string
  readonly expiresAtMs: number
}

/**
 * The subject an open session of this application and person acts as; undefined for a closed,
 * refreshed, expired, unknown or foreign handle (all alike).
 */
export async function viewerOfSession(deps: Pick<CoreDeps, 'store' | 'clock'>, caller: RuntimeCaller, handle: string): Promise<string | undefined> {
  const stored = await deps.store.get<Json>(AUTHORITY_SESSIONS, sessionKeyOf(handle))
  const session = stored?.value as unknown as SessionFacts | undefined
  if (!session || session.status !== 'active' || session.applicationId !== caller.applicationId || session.ownerUserId !== caller.subject || session.expiresAtMs <= deps.clock.now()) return undefined
  return session.actorSubjectId
}

/** A subject's current head: its publication stream's head, or its genesis digest. */
export async function subjectHeadOf(deps: Pick<CoreDeps, 'store'>, subjectId: string): Promise<string> {
  const head = await deps.store.streamHead(`runtime.subjects.${subjectId}`)
  return head?.head ?? sha256OfJson({ schema: 'cairn.v124.subject_genesis', subjectId })
}
