import { describe, expect, it } from 'vitest'
import { MongoNetworkError } from 'mongodb'
import { PortUnavailableError } from '../../ports/errors.js'
import type { Json } from '../../ports/store.js'
import { EVENTS_TTL_INDEX_NAME, MongoEventBus } from './mongo-event-bus.js'
import { FakeMongoServer, resumeTokenAt, type FakeChangeStream } from './testing/index.js'

/** Let change-stream deliveries (promise callbacks) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5))

function openBus(options: { reopenDelayMs?: number } = {}) {
  const server = new FakeMongoServer()
  return { server, bus: new MongoEventBus({ client: server.client(), ...options }) }
}

describe('MongoEventBus', () => {
  it('connects on first use only', async () => {
    const { server, bus } = openBus()
    expect(server.commands).toEqual([])
    await bus.publish('t', 1)
    expect(server.commands[0]?.name).toBe('connect')
    await bus.close()
  })

  it('publishes inserts of { topic, message, at } with a TTL index on at', async () => {
    const { server, bus } = openBus()
    await bus.publish('releases', { id: 'r1' })
    expect(server.commandsNamed('createIndex', 'cairn.events')[0]?.args).toEqual([{ at: 1 }, { name: EVENTS_TTL_INDEX_NAME, expireAfterSeconds: 3600 }])
    const [stored] = server.documents('cairn.events')
    expect(stored).toMatchObject({ topic: 'releases', message: { id: 'r1' } })
    expect(stored?.['at']).toBeInstanceOf(Date)
    await bus.close()
  })

  it('delivers one topic in publish order, and nothing of other topics', async () => {
    const { server, bus } = openBus()
    const received: Json[] = []
    const stop = await bus.subscribe('releases', (message) => received.push(message))
    expect(server.commandsNamed('watch', 'cairn.events')[0]?.args[0]).toEqual([{ $match: { operationType: 'insert' } }])
    expect(server.commandsNamed('watch', 'cairn.events')[0]?.args[1]).toHaveProperty('startAtOperationTime')
    for (let n = 0; n < 20; n += 1) await bus.publish(n % 2 === 0 ? 'releases' : 'other', { n })
    await settle()
    expect(received).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18].map((n) => ({ n })))
    await stop()
  })

  it('watches every topic of a host over one change stream, closed with the last subscription', async () => {
    const { server, bus } = openBus()
    const received = new Map<string, Json[]>()
    const stops = []
    for (const topic of ['a', 'b', 'c', 'a']) {
      stops.push(await bus.subscribe(topic, (message) => received.set(topic, [...(received.get(topic) ?? []), message])))
    }
    expect(server.changeStreams.size).toBe(1)
    for (const topic of ['a', 'b', 'c', 'nobody']) await bus.publish(topic, topic)
    await settle()
    expect(Object.fromEntries(received)).toEqual({ a: ['a', 'a'], b: ['b'], c: ['c'] })
    for (const stop of stops.slice(0, 3)) await stop()
    expect(server.changeStreams.size).toBe(1)
    await stops[3]!()
    expect(server.changeStreams.size).toBe(0)
    await bus.subscribe('d', () => undefined)
    expect(server.changeStreams.size).toBe(1)
    await bus.close()
    expect(server.changeStreams.size).toBe(0)
  })

  it('reaches every subscriber of a topic, across bus instances (hosts)', async () => {
    const server = new FakeMongoServer()
    const hostA = new MongoEventBus({ client: server.client() })
    const hostB = new MongoEventBus({ client: server.client() })
    const seenA: Json[] = []
    const seenB: Json[] = []
    await hostA.subscribe('t', (message) => seenA.push(message))
    await hostB.subscribe('t', (message) => seenB.push(message))
    await hostA.publish('t', 'from A')
    await hostB.publish('t', 'from B')
    await settle()
    expect(seenA).toEqual(['from A', 'from B'])
    expect(seenB).toEqual(['from A', 'from B'])
    await hostA.close()
    await hostB.close()
  })

  it('keeps messages BSON cannot hold as they are', async () => {
    const { bus } = openBus()
    const received: Json[] = []
    await bus.subscribe('t', (message) => received.push(message))
    const awkward = { $where: 'x', 'a\u0000b': '\udc00' }
    await bus.publish('t', awkward)
    await settle()
    expect(received).toEqual([awkward])
    expect(Object.isFrozen(received[0])).toBe(true)
    await bus.close()
  })

  it('closes the change stream on unsubscribe; later messages are not delivered', async () => {
    const { server, bus } = openBus()
    const received: Json[] = []
    const stop = await bus.subscribe('t', (message) => received.push(message))
    const [stream] = [...server.changeStreams]
    await stop()
    expect((stream as FakeChangeStream).closed).toBe(true)
    expect(server.changeStreams.size).toBe(0)
    await bus.publish('t', 'late')
    await settle()
    expect(received).toEqual([])
  })

  it('keeps delivering after a subscriber throws, and says so', async () => {
    const failures: unknown[] = []
    const server = new FakeMongoServer()
    const bus = new MongoEventBus({ client: server.client(), onSubscriberError: (error, topic) => failures.push([topic, (error as Error).message]) })
    const received: Json[] = []
    await bus.subscribe('t', (message) => {
      received.push(message)
      if (message === 1) throw new Error('subscriber bug')
    })
    await bus.publish('t', 1)
    await bus.publish('t', 2)
    await settle()
    expect(received).toEqual([1, 2])
    expect(failures).toEqual([['t', 'subscriber bug']])
    await bus.close()
  })

  it('reopens a failed change stream after the last message it delivered: nothing lost, nothing twice', async () => {
    const { server, bus } = openBus({ reopenDelayMs: 1 })
    const received: Json[] = []
    await bus.subscribe('t', (message) => received.push(message))
    await bus.publish('t', 1)
    await settle()
    const [broken] = [...server.changeStreams]
    await broken!.close() // the pending next() fails as a non-resumable error would
    await bus.publish('t', 2)
    await settle()
    await bus.publish('t', 3)
    await settle()
    expect(received).toEqual([1, 2, 3])
    const reopened = server.commandsNamed('watch', 'cairn.events').at(-1)
    expect(reopened?.args[1]).toHaveProperty('resumeAfter')
    await bus.close()
  })

  it('reports an unreachable database as PortUnavailableError', async () => {
    const { server, bus } = openBus()
    server.failNext('connect', new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:27017'))
    await expect(bus.publish('t', 1)).rejects.toBeInstanceOf(PortUnavailableError)
    server.failNext('insertOne', new MongoNetworkError('connection reset'))
    await expect(bus.publish('t', 1)).rejects.toBeInstanceOf(PortUnavailableError)
    await bus.close()
  })

  it('migrates the TTL index in place when retentionSeconds changes (no IndexOptionsConflict on every call)', async () => {
    const server = new FakeMongoServer()
    const before = new MongoEventBus({ client: server.client(), retentionSeconds: 3600 })
    await before.publish('t', 1)
    const after = new MongoEventBus({ client: server.client(), retentionSeconds: 60 })
    await after.publish('t', 2)
    const stop = await after.subscribe('t', () => undefined)
    await stop()
    expect(server.indexes('cairn.events').find((index) => index.name === EVENTS_TTL_INDEX_NAME)?.expireAfterSeconds).toBe(60)
    expect(server.commandsNamed('command').map((command) => command.args[0])).toContainEqual({
      collMod: 'events',
      index: { name: EVENTS_TTL_INDEX_NAME, expireAfterSeconds: 60 },
    })
    await before.close()
    await after.close()
  })

  it("reopens from the driver's post-batch resume token, past other topics' events", async () => {
    const { server, bus } = openBus({ reopenDelayMs: 1 })
    const received: Json[] = []
    await bus.subscribe('t', (message) => received.push(message))
    await bus.publish('t', 1)
    for (const noise of [1, 2, 3]) await bus.publish('noise', noise)
    await settle()
    const [stream] = [...server.changeStreams]
    await stream!.close()
    await bus.publish('t', 2)
    await settle()
    expect(received).toEqual([1, 2])
    expect(server.commandsNamed('watch', 'cairn.events').at(-1)?.args[1]).toEqual({ resumeAfter: resumeTokenAt(4) })
    await bus.close()
  })

  it('says so when the oplog lost its resume point, and goes on from now', async () => {
    const server = new FakeMongoServer()
    const errors: unknown[] = []
    const bus = new MongoEventBus({ client: server.client(), reopenDelayMs: 1, onSubscriberError: (error) => errors.push(error) })
    const received: Json[] = []
    await bus.subscribe('t', (message) => received.push(message))
    await bus.publish('t', 1)
    await settle()
    // The stream breaks; before it is reopened the oplog rolls past its position and 'lost' is published.
    await [...server.changeStreams][0]!.close()
    server.forgetChangesBefore(server.changeLog.length + 1)
    await bus.publish('t', 'lost')
    await settle()
    await settle()
    await bus.publish('t', 3)
    await settle()
    expect(received).toEqual([1, 3])
    expect(errors).toHaveLength(1)
    expect(errors[0]).toBeInstanceOf(PortUnavailableError)
    await bus.close()
  })

  it('leaves no live change stream when close() races subscribe()', async () => {
    const { server, bus } = openBus()
    const received: Json[] = []
    let closing: Promise<void> | undefined
    // close() runs while subscribe() waits for the server's operation time: the narrowest window.
    server.onCommand = (command) => {
      if (command.name === 'command') closing ??= bus.close()
    }
    const subscribing = bus.subscribe('t', (message) => received.push(message))
    await expect(subscribing).rejects.toBeInstanceOf(PortUnavailableError)
    await closing
    expect(server.changeStreams.size).toBe(0)
    await new MongoEventBus({ client: server.client() }).publish('t', 'after close')
    await settle()
    expect(received).toEqual([])
  })

  it('is at-most-once across restarts, unless durableSubscriber saves positions: then a restart resumes after the last delivery', async () => {
    let server = new FakeMongoServer()
    const run = async (options: { durableSubscriber?: string }, whileDown: Json) => {
      server = new FakeMongoServer()
      const publisher = new MongoEventBus({ client: server.client() })
      const received: Json[] = []
      const first = new MongoEventBus({ client: server.client(), ...options })
      await first.subscribe('ledger', (message) => received.push(message))
      await publisher.publish('ledger', 'before')
      await settle()
      await first.close() // the host stops…
      await publisher.publish('ledger', whileDown) // …something is published while it is down…
      await publisher.publish('elsewhere', 'later') // …and the cluster moves on before it restarts
      const restarted = new MongoEventBus({ client: server.client(), ...options })
      await restarted.subscribe('ledger', (message) => received.push(message))
      await publisher.publish('ledger', 'after')
      await settle()
      await restarted.close()
      await publisher.close()
      return received
    }
    expect(await run({}, 'missed')).toEqual(['before', 'after'])
    expect(await run({ durableSubscriber: 'host-a' }, 'while down')).toEqual(['before', 'while down', 'after'])
    expect(server.documents('cairn.event_positions')).toMatchObject([{ _id: 'host-a\u0000ledger' }])
  })
})
