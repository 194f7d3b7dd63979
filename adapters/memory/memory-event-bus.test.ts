import { describe, expect, it } from 'vitest'
import { MemoryEventBus } from './memory-event-bus.js'

// Delivery order and unsubscription are proven by conformance/matrix.test.ts.
describe('MemoryEventBus', () => {
  it('keeps delivering to the others when one subscriber throws, and reports the failure', async () => {
    const failures: string[] = []
    const bus = new MemoryEventBus({ onSubscriberError: (error, topic) => failures.push(`${topic}: ${(error as Error).message}`) })
    const received: unknown[] = []
    await bus.subscribe('t', () => {
      throw new Error('broken subscriber')
    })
    await bus.subscribe('t', (message) => received.push(message))
    await bus.publish('t', 1)
    expect(received).toEqual([1])
    expect(failures).toEqual(['t: broken subscriber'])
  })

  it('gives subscribers a frozen copy, so one cannot change what the next sees', async () => {
    const bus = new MemoryEventBus()
    const seen: unknown[] = []
    await bus.subscribe('t', (message) => seen.push(Object.isFrozen(message)))
    const message = { n: 1 }
    await bus.publish('t', message)
    expect(seen).toEqual([true])
    expect(Object.isFrozen(message)).toBe(false)
  })

  it('delivers the same function subscribed twice twice, and ends each subscription alone', async () => {
    const bus = new MemoryEventBus()
    const received: unknown[] = []
    const listener = (message: unknown) => received.push(message)
    const stopFirst = await bus.subscribe('t', listener)
    await bus.subscribe('t', listener)
    await bus.publish('t', 'a')
    await stopFirst()
    await bus.publish('t', 'b')
    expect(received).toEqual(['a', 'a', 'b'])
  })
})
