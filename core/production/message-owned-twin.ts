/** `POST /api/developers/twin/{username}/message`: a metered message to the caller's own Twin (docs/production.md). */
import * as E from 'fp-ts/lib/Either.js'
import { businessAccountOf } from '../auth/business-account.js'
import { forbidden, notFound } from '../errors/domain-error.js'
import { quoteInput } from '../errors/quote-input.js'
import { getIdentityByUsername } from '../identity/identities.js'
import type { UseCaseFor } from '../usecases/use-case.js'
import { runMetered } from './metered-run.js'

/** The Twin speaks for its owner, in their name. */
export const twinSystemPrompt = (username: string, displayName: string) =>
  `You are the Live Twin of ${displayName} (@${username}). Answer as their Twin would: helpful, brief, and never claiming to be them in person.`

/** @example await messageOwnedTwin({ params: { username: 'boss' }, body: { requestId: 'm-1', quoteExpiresAt, message: 'Hello' }, principal, … }, deps) */
export const messageOwnedTwin: UseCaseFor<'messageOwnedTwin'> = async (request, deps) => {
  const owner = businessAccountOf(request.principal)
  if (E.isLeft(owner)) return owner
  const twin = await getIdentityByUsername(deps, request.params.username.toLowerCase())
  if (!twin) return E.left(notFound(`No Twin is named ${quoteInput(request.params.username)}`))
  if (twin.record.userId !== owner.right) return E.left(forbidden('A Production Twin message goes only to the caller\'s own Twin'))
  const { body } = request
  return runMetered(deps, {
    kind: 'twin', ownerId: owner.right, body, input: body.message, system: twinSystemPrompt(twin.record.username, twin.record.displayName),
    username: twin.record.username, threadId: body.threadId ?? null, eventType: 'twin.message.completed',
  })
}
