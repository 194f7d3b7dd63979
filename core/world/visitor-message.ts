/**
 * `POST /api/world/profile/{username}`: a visitor's message or booking request to a Live Twin.
 * Rate limits come first (per visitor and per Twin, across hosts; 429 with Retry-After), then the
 * Twin's reply from the TextGenerator, then one commit of the message with its reply; the update
 * is then published on the Twin's EventBus topic for live subscribers. A failed generation stores
 * nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { VisitorMessageRequest } from '../contract/accepted-bodies.js'
import { formatDecodeErrors } from '../errors/decode-errors.js'
import { conflict, invalidInput, unavailable, type DomainError } from '../errors/domain-error.js'
import { toBase64Url } from '../encoding/base64url.js'
import { consumeRateLimit } from '../rate-limit/fixed-window.js'
import { PortUnavailableError } from '../../ports/errors.js'
import type { Json } from '../../ports/store.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import type { IdentityRecord } from '../identity/identities.js'
import type { TextGenerationRequest, TextGenerator } from '../../ports/text-generator.js'
import { twinNamed } from './profile.js'
import { messageWrite, twinTopic, twinUpdateOf, WORLD_PUBLIC_TOPIC, type VisitorMessage } from './world-records.js'

/** @default 10 messages a minute per visitor, 60 a minute per Twin (deployment `world`). */
export const DEFAULT_WORLD_LIMITS = { visitorPerMinute: 10, twinPerMinute: 60 }
const REPLY_TOKENS = 256

/** A visit decoded, rate-limited and addressed: what the Twin is asked and who asks. */
export interface PreparedVisit {
  readonly twin: IdentityRecord
  readonly body: t.TypeOf<typeof VisitorMessageRequest>
  readonly kind: 'message' | 'booking'
  readonly generation: TextGenerationRequest
  readonly generator: TextGenerator
}

/** Decode, find the Twin, count both rate limits; nothing else is written before the reply exists. */
export async function prepareVisit(deps: CoreDeps, username: string, rawBody: unknown): Promise<Either<DomainError, PreparedVisit>> {
  const decoded = VisitorMessageRequest.decode(rawBody)
  if (E.isLeft(decoded)) return E.left(invalidInput(`${formatDecodeErrors(decoded.left, 'body')} (visitorId and threadId: 8–64 letters, digits, - or _; text: 1–2000 characters)`))
  const body = decoded.right
  const kind = body.kind ?? 'message'
  if (kind === 'booking' && (body.slotStart === undefined || Date.parse(body.slotStart) <= deps.clock.now())) return E.left(invalidInput('A booking request needs slotStart, a time in the future'))
  const twin = await twinNamed(deps, username)
  if (E.isLeft(twin)) return twin
  const limits = { ...DEFAULT_WORLD_LIMITS, ...deps.config.deployment.world }
  const visitor = await consumeRateLimit(deps, `world:visitor:${body.visitorId}`, { limit: limits.visitorPerMinute, windowMs: 60_000 }, 'messages from this visitor')
  if (E.isLeft(visitor)) return visitor
  const perTwin = await consumeRateLimit(deps, `world:twin:${twin.right.userId}`, { limit: limits.twinPerMinute, windowMs: 60_000 }, `messages to ${twin.right.username}'s Twin`)
  if (E.isLeft(perTwin)) return perTwin
  if (!deps.text) return E.left(unavailable('No text generator is configured to answer for the Twin'))
  const system = `You are the Live Twin of ${twin.right.displayName} (@${twin.right.username}), answering a visitor on their public profile. Be brief and kind; never promise anything on their behalf.`
  const prompt = kind === 'booking' ? `A visitor asks to book ${body.slotStart}. Their note: ${body.text}` : body.text
  return E.right({ twin: twin.right, body, kind, generator: deps.text, generation: { system, prompt, maxTokens: REPLY_TOKENS, user: body.visitorId } })
}

/** Stores the visit with the Twin's reply in one commit, then tells live subscribers. */
export async function storeVisit(deps: CoreDeps, visit: PreparedVisit, reply: { readonly text: string; readonly model: string }): Promise<Either<DomainError, { thread: Record<string, string>; reply: Record<string, unknown> }>> {
  const now = deps.clock.now()
  const message: VisitorMessage = {
    id: `wm_${toBase64Url(deps.entropy.bytes(12))}`, twinUserId: visit.twin.userId, twinUsername: visit.twin.username,
    threadId: visit.body.threadId ?? `th_${toBase64Url(deps.entropy.bytes(12))}`, visitorId: visit.body.visitorId, kind: visit.kind, text: visit.body.text,
    slotStart: visit.kind === 'booking' ? visit.body.slotStart! : null, reply: reply.text, model: reply.model, createdAtMs: now,
  }
  const outcome = await deps.store.commit([messageWrite(message)])
  if (!outcome.ok) return E.left(conflict('The message could not be stored at this moment; send it again'))
  const update = twinUpdateOf(message)
  const at = update.at
  // Live subscribers are told after the commit; a bus failure loses a notification, never the message.
  await Promise.all([deps.events.publish(twinTopic(message.twinUsername), update as Json), deps.events.publish(WORLD_PUBLIC_TOPIC, { type: 'twin.active', username: message.twinUsername, at })]).catch(() => undefined)
  return E.right({
    thread: { threadId: message.threadId, visitorId: message.visitorId, messageId: message.id },
    reply: { text: message.reply, model: message.model, at, ...(message.kind === 'booking' ? { booking: { slotStart: message.slotStart, status: 'requested' } } : {}) },
  })
}

/** @example await messageWorldProfile({ params: { username: 'ada' }, body: { visitorId: 'v-12345678', text: 'Hello!' }, … }, deps) */
export const messageWorldProfile: UseCaseFor<'messageWorldProfile'> = async (request, deps) => {
  const visit = await prepareVisit(deps, request.params.username, request.body)
  if (E.isLeft(visit)) return visit
  let generated
  try {
    generated = await visit.right.generator.generate(visit.right.generation)
  } catch (error) {
    if (error instanceof PortUnavailableError) return E.left(unavailable('The Twin cannot answer right now; nothing was stored, try again'))
    throw error
  }
  const stored = await storeVisit(deps, visit.right, generated)
  return E.isLeft(stored) ? stored : E.right(json({ ok: true, ...stored.right }, { 'cache-control': 'no-store' }))
}
