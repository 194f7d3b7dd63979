/**
 * `POST /api/world/profile/{username}`: a visitor's message or booking request to a Live Twin.
 * Rate limits come first (per client address, per visitor and per Twin with a share kept for
 * existing threads: visit-limits.ts; 429 with Retry-After), a continued thread must be opened by
 * its secret, then the Twin's reply from the TextGenerator, then one commit of the message with
 * its reply (and a new thread with its secret's digest). The reply is then published on the
 * thread's topic, and only metadata on the Twin's public topic. A failed generation stores nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { VisitorMessageRequest } from '../contract/accepted-bodies.js'
import { formatDecodeErrors } from '../errors/decode-errors.js'
import { conflict, invalidInput, unavailable, type DomainError } from '../errors/domain-error.js'
import { toBase64Url } from '../encoding/base64url.js'
import { PortUnavailableError } from '../../ports/errors.js'
import type { Json, Write } from '../../ports/store.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import type { IdentityRecord } from '../identity/identities.js'
import type { TextGenerationRequest, TextGenerator } from '../../ports/text-generator.js'
import { twinNamed } from './profile.js'
import { newThread, openThread, threadWrite } from './threads.js'
import { countSender, countTwinInbox } from './visit-limits.js'
import { messageWrite, threadReplyOf, threadTopic, twinActivityOf, twinTopic, WORLD_PUBLIC_TOPIC, type VisitorMessage } from './world-records.js'

const REPLY_TOKENS = 256

/** A visit decoded, rate-limited and addressed: what the Twin is asked and who asks. */
export interface PreparedVisit {
  readonly twin: IdentityRecord
  readonly body: t.TypeOf<typeof VisitorMessageRequest>
  readonly kind: 'message' | 'booking'
  /** The thread the secret opened, or undefined: this message opens a new one. */
  readonly threadId: string | undefined
  readonly generation: TextGenerationRequest
  readonly generator: TextGenerator
}

/** Decode, find the Twin, open the thread, count the rate limits; nothing else is written before the reply exists. */
export async function prepareVisit(deps: CoreDeps, username: string, rawBody: unknown, clientAddress: string | undefined): Promise<Either<DomainError, PreparedVisit>> {
  const decoded = VisitorMessageRequest.decode(rawBody)
  if (E.isLeft(decoded)) return E.left(invalidInput(`${formatDecodeErrors(decoded.left, 'body')} (visitorId and threadId: 8–64 letters, digits, - or _; threadSecret: as the thread's first answer gave it; text: 1–2000 characters)`))
  const body = decoded.right
  const kind = body.kind ?? 'message'
  if (kind === 'booking' && (body.slotStart === undefined || Date.parse(body.slotStart) <= deps.clock.now())) return E.left(invalidInput('A booking request needs slotStart, a time in the future'))
  if ((body.threadId === undefined) !== (body.threadSecret === undefined)) return E.left(invalidInput('A thread is continued with both threadId and threadSecret (from its first answer); send neither to open a new one'))
  const twin = await twinNamed(deps, username)
  if (E.isLeft(twin)) return twin
  const sender = await countSender(deps, { clientAddress, visitorId: body.visitorId })
  if (E.isLeft(sender)) return sender
  if (body.threadId !== undefined) {
    const thread = await openThread(deps.store, body.threadId, body.threadSecret, twin.right.userId)
    if (E.isLeft(thread)) return thread
  }
  const inbox = await countTwinInbox(deps, twin.right, body.threadId === undefined)
  if (E.isLeft(inbox)) return inbox
  if (!deps.text) return E.left(unavailable('No text generator is configured to answer for the Twin'))
  const system = `You are the Live Twin of ${twin.right.displayName} (@${twin.right.username}), answering a visitor on their public profile. Be brief and kind; never promise anything on their behalf.`
  const prompt = kind === 'booking' ? `A visitor asks to book ${body.slotStart}. Their note: ${body.text}` : body.text
  return E.right({ twin: twin.right, body, kind, threadId: body.threadId, generator: deps.text, generation: { system, prompt, maxTokens: REPLY_TOKENS, user: body.visitorId } })
}

/**
 * Stores the visit with the Twin's reply in one commit (with its new thread), then tells live
 * subscribers: the reply on the thread's topic, metadata on the Twin's and the public topic. The
 * first answer of a thread carries its `threadSecret`, once.
 */
export async function storeVisit(deps: CoreDeps, visit: PreparedVisit, reply: { readonly text: string; readonly model: string }): Promise<Either<DomainError, { thread: Record<string, string>; reply: Record<string, unknown> }>> {
  const now = deps.clock.now()
  const opened = visit.threadId === undefined ? newThread(deps.entropy, visit.twin.userId, now) : undefined
  const message: VisitorMessage = {
    id: `wm_${toBase64Url(deps.entropy.bytes(12))}`, twinUserId: visit.twin.userId, twinUsername: visit.twin.username,
    threadId: opened?.thread.threadId ?? visit.threadId!, visitorId: visit.body.visitorId, kind: visit.kind, text: visit.body.text,
    slotStart: visit.kind === 'booking' ? visit.body.slotStart! : null, reply: reply.text, model: reply.model, createdAtMs: now,
  }
  const writes: Write[] = [messageWrite(message), ...(opened ? [threadWrite(opened.thread)] : [])]
  const outcome = await deps.store.commit(writes)
  if (!outcome.ok) return E.left(conflict('The message could not be stored at this moment; send it again'))
  const activity = twinActivityOf(message)
  // Live subscribers are told after the commit; a bus failure loses a notification, never the message.
  await Promise.all([
    deps.events.publish(threadTopic(message.threadId), threadReplyOf(message) as Json),
    deps.events.publish(twinTopic(message.twinUsername), activity as Json),
    deps.events.publish(WORLD_PUBLIC_TOPIC, { type: 'twin.active', username: message.twinUsername, at: activity.at }),
  ]).catch(() => undefined)
  return E.right({
    thread: { threadId: message.threadId, visitorId: message.visitorId, messageId: message.id, ...(opened ? { threadSecret: opened.secret } : {}) },
    reply: { text: message.reply, model: message.model, at: activity.at, ...(message.kind === 'booking' ? { booking: { slotStart: message.slotStart, status: 'requested' } } : {}) },
  })
}

/** @example await messageWorldProfile({ params: { username: 'ada' }, body: { visitorId: 'v-12345678', text: 'Hello!' }, … }, deps) */
export const messageWorldProfile: UseCaseFor<'messageWorldProfile'> = async (request, deps) => {
  const visit = await prepareVisit(deps, request.params.username, request.body, request.clientAddress)
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
