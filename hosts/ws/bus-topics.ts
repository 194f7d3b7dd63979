/**
 * The EventBus subscriptions of one host's live updates, counted by reference: a bus topic is
 * subscribed when its first watcher joins and unsubscribed when its last one leaves, so a topic
 * nobody watches holds nothing (with MongoDB, each subscription is a change stream on a pooled
 * connection).
 */
import type { EventBus } from '../../ports/event-bus.js'
import type { Json } from '../../ports/store.js'

/** One watcher of a bus topic: told every message, in bus order. */
export type Watcher = (message: Json, frames: Map<string, string>) => void

interface Topic {
  readonly watchers: Set<Watcher>
  /** The bus subscription's end, once it is made. */
  readonly subscribed: Promise<() => Promise<void>>
}

export interface BusTopics {
  /** Add `watcher` to `busTopic`; resolves once the bus delivers to it (rejects if the bus refused). */
  join(busTopic: string, watcher: Watcher): Promise<void>
  /** Remove `watcher`; the last one out ends the bus subscription. */
  leave(busTopic: string, watcher: Watcher): void
  /** Bus topics subscribed now. */
  size(): number
  close(): Promise<void>
}

/** @example const topics = busTopics(deps.events); await topics.join('world.public', watcher) */
export function busTopics(events: EventBus): BusTopics {
  const topics = new Map<string, Topic>()
  const ending = new Set<Promise<void>>()

  const end = (topic: Topic) => {
    const ended = topic.subscribed.then((stop) => stop()).catch(() => undefined)
    ending.add(ended)
    void ended.finally(() => ending.delete(ended))
  }

  return {
    async join(busTopic, watcher) {
      let topic = topics.get(busTopic)
      if (topic === undefined) {
        const watchers = new Set<Watcher>()
        const subscribed = events.subscribe(busTopic, (message) => {
          // `frames` caches each topic's frame text, so a fan-out serialises an update once, not once a socket.
          const frames = new Map<string, string>()
          for (const each of [...watchers]) each(message, frames)
        })
        topic = { watchers, subscribed }
        topics.set(busTopic, topic)
        const made = topic
        subscribed.catch(() => {
          if (topics.get(busTopic) === made) topics.delete(busTopic)
        })
      }
      topic.watchers.add(watcher)
      try {
        await topic.subscribed
      } catch (error) {
        topic.watchers.delete(watcher)
        throw error
      }
    },
    leave(busTopic, watcher) {
      const topic = topics.get(busTopic)
      if (topic === undefined || !topic.watchers.delete(watcher) || topic.watchers.size > 0) return
      topics.delete(busTopic)
      end(topic)
    },
    size: () => topics.size,
    async close() {
      for (const topic of topics.values()) end(topic)
      topics.clear()
      await Promise.all([...ending])
    },
  }
}
