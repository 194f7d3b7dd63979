/**
 * Visitor messages to Live Twins as stored (one record a message, with the Twin's reply), and the
 * live updates a stored message becomes: metadata on the Twin's public topic, the reply itself
 * only on its thread's topic (docs/world.md).
 */
import * as t from 'io-ts'
import type { CollectionSpec, Write } from '../../ports/store.js'
import { nullableString, typedCollection } from '../usecases/typed-collection.js'

export const WORLD_MESSAGES = 'world.messages'

/** One visitor message and the Twin's reply. `slotStart`: for bookings, the slot the visitor asks for. */
const VisitorMessageCodec = t.readonly(t.type({
  id: t.string, twinUserId: t.string, twinUsername: t.string, threadId: t.string, visitorId: t.string, kind: t.keyof({ message: null, booking: null }),
  text: t.string, slotStart: nullableString, reply: t.string, model: t.string, createdAtMs: t.number,
}))
export type VisitorMessage = t.TypeOf<typeof VisitorMessageCodec>

export const worldMessages = typedCollection({
  name: WORLD_MESSAGES,
  indexes: [{ name: 'by_twin', fields: ['twinUserId', 'createdAtMs'] }, { name: 'by_time', fields: ['createdAtMs'] }, { name: 'by_thread', fields: ['threadId', 'createdAtMs'] }],
}, VisitorMessageCodec)
export const worldMessagesCollection: CollectionSpec = worldMessages.spec

export const messageWrite = (message: VisitorMessage): Write => worldMessages.put(message.id, message, { kind: 'absent' })

/** The EventBus topic of a Twin's public live updates (metadata only; hosts stream it to anyone). */
export const twinTopic = (username: string) => `world.twin.${username}`
/** The EventBus topic of one thread's replies (hosts stream it only to a holder of the thread's secret). */
export const threadTopic = (threadId: string) => `world.thread.${threadId}`
export const WORLD_PUBLIC_TOPIC = 'world.public'

/** A message's place in its Twin's update order: comparable as text, resumable after a reconnect. */
export const updateCursorOf = (message: Pick<VisitorMessage, 'createdAtMs' | 'id'>) => `${String(message.createdAtMs).padStart(15, '0')}.${message.id}`

/** What anyone watching a Twin learns of a message: that one was answered, of which kind, when. Never its thread or text. */
export const twinActivityOf = (message: VisitorMessage) => ({
  type: 'twin.activity', username: message.twinUsername, messageId: message.id, cursor: updateCursorOf(message), kind: message.kind, at: new Date(message.createdAtMs).toISOString(),
})

/** The reply as its own thread's visitor receives it live (thread topic, WebSocket `data`). */
export const threadReplyOf = (message: VisitorMessage) => ({
  type: 'twin.reply', username: message.twinUsername, threadId: message.threadId, messageId: message.id, cursor: updateCursorOf(message),
  kind: message.kind, reply: message.reply, at: new Date(message.createdAtMs).toISOString(),
})
