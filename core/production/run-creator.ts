/** `POST /api/developers/creator/run`: a metered Creator production run (docs/production.md). */
import * as E from 'fp-ts/lib/Either.js'
import { businessAccountOf } from '../auth/business-account.js'
import type { UseCaseFor } from '../usecases/use-case.js'
import { runMetered } from './metered-run.js'

/** The Creator's standing instructions; the caller's prompt is the work. */
export const CREATOR_SYSTEM_PROMPT = 'You are Cairn Creator, a production writing assistant. Answer the request directly and completely.'

/** @example await runCreator({ body: { requestId: 'r-1', quoteExpiresAt: '2026-06-25T00:10:00Z', prompt: 'A haiku about cairns' }, principal, … }, deps) */
export const runCreator: UseCaseFor<'runCreator'> = async (request, deps) => {
  const owner = businessAccountOf(request.principal)
  if (E.isLeft(owner)) return owner
  const { body } = request
  return runMetered(deps, {
    kind: 'creator', ownerId: owner.right, body, input: body.prompt, system: CREATOR_SYSTEM_PROMPT, username: null, threadId: null, eventType: 'creator.run.completed',
  })
}
