/**
 * The EventBus conformance suite: messages on a topic reach every subscriber in publish order, topics
 * stay apart, and ending a subscription stops delivery. A message published after `subscribe`
 * resolved must arrive; delivery may be asynchronous, so the suite waits for it.
 */
import { describe, expect, it } from 'vitest'
import type { EventBus } from '../ports/event-bus.js'
import type { Json } from '../ports/store.js'
import { closeQuietly, eachTest } from './support/each-test.js'
import { eventually, settle } from './support/eventually.js'
import type { EventBusConformanceOptions, EventBusFixture } from './targets.js'

const MESSAGES = 100

/**
 * @example
 * describeEventBusConformance({ name: 'events=memory', create: async () => new MemoryEventBus() })
 */
export function describeEventBusConformance(options: EventBusConformanceOptions): void {
  const timeout = options.deliveryTimeoutMs ?? 5000
  describe(`${options.name} EventBus`, () => {
    const fixture = eachTest(
      async () => {
        const made = await options.create()
        const opened: EventBusFixture = 'publish' in made ? { bus: made } : made
        return { ...opened, others: [] as EventBus[] }
      },
      async (opened) => {
        for (const bus of [...opened.others, opened.bus]) await closeQuietly(bus)
        await opened.destroy?.()
      },
    )

    /** Messages received on `topic` of `bus`, and the subscription's end. */
    const listen = async (bus: EventBus, topic: string) => {
      const received: Json[] = []
      const stop = await bus.subscribe(topic, (message) => received.push(message))
      return { received, stop }
    }

    it(`delivers ${MESSAGES} messages of a topic in publish order to every subscriber`, async () => {
      const { bus } = fixture()
      const first = await listen(bus, 'orders')
      const second = await listen(bus, 'orders')
      const sent = Array.from({ length: MESSAGES }, (_, i) => ({ i, text: `message ${i}` }))
      for (const message of sent) await bus.publish('orders', message)
      await eventually(() => expect(first.received).toEqual(sent), timeout)
      await eventually(() => expect(second.received).toEqual(sent), timeout)
    })

    it('keeps topics apart', async () => {
      const { bus } = fixture()
      const a = await listen(bus, 'topic-a')
      const b = await listen(bus, 'topic-b')
      await bus.publish('topic-a', 'for a')
      await bus.publish('topic-b', 'for b')
      await eventually(() => expect([a.received, b.received]).toEqual([['for a'], ['for b']]), timeout)
    })

    it('stops delivering to a subscription that ended, and only to that one', async () => {
      const { bus } = fixture()
      const ended = await listen(bus, 'news')
      const staying = await listen(bus, 'news')
      await bus.publish('news', 1)
      await eventually(() => expect(ended.received).toEqual([1]), timeout)
      await ended.stop()
      await bus.publish('news', 2)
      await eventually(() => expect(staying.received).toEqual([1, 2]), timeout)
      await settle()
      expect(ended.received).toEqual([1])
      await ended.stop() // ending twice is harmless
    })

    it('delivers JSON values exactly', async () => {
      const { bus } = fixture()
      const listener = await listen(bus, 'values')
      const values: Json[] = [{ nested: { list: [1, 'two', null, true] } }, 'text with é and 𝄞', 0, null, []]
      for (const value of values) await bus.publish('values', value)
      await eventually(() => expect(listener.received).toEqual(values), timeout)
    })

    it('carries messages between two connections to the same backend', async (context) => {
      const opened = fixture()
      if (opened.connectAgain === undefined) return context.skip('the fixture has a single connection (no connectAgain)')
      const other = await opened.connectAgain()
      opened.others.push(other)
      const listener = await listen(opened.bus, 'shared')
      for (let i = 0; i < 10; i += 1) await other.publish('shared', i)
      await eventually(() => expect(listener.received).toEqual(Array.from({ length: 10 }, (_, i) => i)), timeout)
    })
  })
}
