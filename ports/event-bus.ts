import type { Json } from './store.js'

/** Live updates across hosts: messages on one topic reach subscribers in publish order. */
export interface EventBus {
  publish(topic: string, message: Json): Promise<void>
  /** Returns a function that ends the subscription. */
  subscribe(topic: string, onMessage: (message: Json) => void): Promise<() => Promise<void>>
  close(): Promise<void>
  /**
   * Delete messages kept past their retention, for buses that keep them (PostgreSQL's durable
   * table); answers how many. The expiry sweeper calls it on every host that runs one.
   */
  prune?(): Promise<number>
}
