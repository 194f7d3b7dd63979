/**
 * Who is viewing private additions: the subject an open authority session of the calling
 * application and person acts as (core/runtime/authority-sessions.ts), and that subject's current
 * head (its publication stream, core/runtime/subject-namespaces.ts).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { CoreDeps } from '../../usecases/use-case.js'
import { activeSession } from '../authority-sessions.js'
import type { RuntimeCaller } from '../runtime-caller.js'
import { genesisSubjectHead, subjectStreamOf } from '../subject-namespaces.js'

/** The viewer's subject; undefined for a closed, refreshed, expired, unknown or foreign handle (all alike). */
export async function viewerOfSession(deps: Pick<CoreDeps, 'store' | 'clock'>, caller: RuntimeCaller, handle: string): Promise<string | undefined> {
  const session = await activeSession(deps, caller, handle)
  return E.isRight(session) ? session.right.record.actorSubjectId : undefined
}

/** A subject's current head: its publication stream's head, or its genesis digest. */
export async function subjectHeadOf(deps: Pick<CoreDeps, 'store'>, subjectId: string): Promise<string> {
  const head = await deps.store.streamHead(subjectStreamOf(subjectId))
  return head?.head ?? genesisSubjectHead(subjectId)
}
