/**
 * EventBus inside one process: a message reaches the topic's subscribers synchronously, in publish
 * order, as a frozen copy (one subscriber cannot change what the next one sees).
 */
import { PortUnavailableError } from '../../ports/errors.js'
import type { EventBus } from '../../ports/event-bus.js'
import type { Json } from '../../ports/store.js'
import { toStoredJson } from '../shared/stored-json.js'

/** The adapter's name, as configuration and logs spell it. */
export const MEMORY_EVENT_BUS_NAME = 'memory'

export interface MemoryEventBusOptions {
  /**
   * Told when a subscriber throws; delivery to the others goes on.
   * @default logs with console.error
   */
  readonly onSubscriberError?: (error: unknown, topic: string) => void
}

type Subscriber = (message: Json) => void

/**
 * @example
 * const bus = new MemoryEventBus()
 * const stop = await bus.subscribe('ledger', (message) => console.log(message))
 * await bus.publish('ledger', { kind: 'transfer' })
 * await stop()
 */
export class MemoryEventBus implements EventBus {
  private readonly topics = new Map<string, Set<Subscriber>>()
  private readonly onSubscriberError: (error: unknown, topic: string) => void
  private closed = false

  constructor(options: MemoryEventBusOptions = {}) {
    this.onSubscriberError = options.onSubscriberError ?? ((error, topic) => console.error(`EventBus subscriber of ${topic} failed`, error))
  }

  async publish(topic: string, message: Json): Promise<void> {
    this.assertOpen()
    const frozen = toStoredJson(message)
    // A copy of the set: a subscriber that unsubscribes or subscribes while called changes later messages only.
    for (const subscriber of [...(this.topics.get(topic) ?? [])]) {
      try {
        subscriber(frozen)
      } catch (error) {
        this.onSubscriberError(error, topic)
      }
    }
  }

  async subscribe(topic: string, onMessage: (message: Json) => void): Promise<() => Promise<void>> {
    this.assertOpen()
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const subscriber: Subscriber = (message) => onMessage(message)
    const subscribers = this.topics.get(topic) ?? new Set()
    subscribers.add(subscriber)
    this.topics.set(topic, subscribers)
    return async () => {
      subscribers.delete(subscriber)
      if (subscribers.size === 0 && this.topics.get(topic) === subscribers) this.topics.delete(topic)
    }
  }

  async close(): Promise<void> {
    this.closed = true
    this.topics.clear()
  }

  private assertOpen(): void {
    if (this.closed) throw new PortUnavailableError('EventBus', 'The memory event bus is closed')
  }
}
