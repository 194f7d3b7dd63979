/** Visitor messages to Live Twins as stored: one record a message, with the Twin's reply. */
import type { CollectionSpec, Json, Write } from '../../ports/store.js'

export const WORLD_MESSAGES = 'world.messages'
export const worldMessagesCollection: CollectionSpec = {
  name: WORLD_MESSAGES,
  indexes: [{ name: 'by_twin', fields: ['twinUserId', 'createdAtMs'] }, { name: 'by_time', fields: ['createdAtMs'] }],
}

export interface VisitorMessage {
  readonly id: string
  readonly twinUserId: string
  readonly twinUsername: string
  readonly threadId: string
  readonly visitorId: string
  readonly kind: 'message' | 'booking'
  readonly text: string
  /** Bookings: the slot the visitor asks for. */
  readonly slotStart: string | null
  readonly reply: string
  readonly model: string
  readonly createdAtMs: number
}

export const messageWrite = (message: VisitorMessage): Write => ({ kind: 'put', collection: WORLD_MESSAGES, key: message.id, value: message as unknown as Json, expect: { kind: 'absent' } })

/** The EventBus topic of a Twin's live updates (hosts stream it to subscribers). */
export const twinTopic = (username: string) => `world.twin.${username}`
export const WORLD_PUBLIC_TOPIC = 'world.public'

/** A message's place in its Twin's update order: comparable as text, resumable after a reconnect. */
export const updateCursorOf = (message: Pick<VisitorMessage, 'createdAtMs' | 'id'>) => `${String(message.createdAtMs).padStart(15, '0')}.${message.id}`

/** The live update a stored visitor message becomes (EventBus payload, WebSocket `data`). */
export const twinUpdateOf = (message: VisitorMessage) => ({
  type: 'twin.reply', username: message.twinUsername, threadId: message.threadId, messageId: message.id, cursor: updateCursorOf(message),
  kind: message.kind, reply: message.reply, at: new Date(message.createdAtMs).toISOString(),
})
