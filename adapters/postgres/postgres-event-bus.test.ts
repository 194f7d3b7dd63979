/**
 * PostgresEventBus against a real server (the matrix runs the EventBus conformance suite across two
 * connections): what NOTIFY alone would get wrong. Messages larger than a NOTIFY payload, one
 * topic's order under racing publishers, a listener that reconnects after the database restarted
 * without a gap, and pruning that leaves the numbering (and so every subscription) intact.
 */
import { describe, expect, it } from 'vitest'
import pg from 'pg'
import { eventually } from '../../conformance/support/eventually.js'
import { createCairn } from '../../hosts/library/create-cairn.js'
import { MemoryStore } from '../memory/memory-store.js'
import type { Json } from '../../ports/store.js'
import { PostgresEventBus } from './postgres-event-bus.js'
import { clusterOfThisFile, describePostgres, freshSchema } from './testing/cluster-per-file.js'

async function twoHosts() {
  const { connectionString, schema, drop } = await freshSchema()
  const open = () => new PostgresEventBus({ connectionString, schema, poolSize: 3, reconnectDelayMs: 50, connectionTimeoutMs: 1000 })
  const buses = [open(), open()] as const
  return {
    buses,
    open,
    dispose: async () => {
      for (const bus of buses) await bus.close()
      await drop()
    },
  }
}

const listen = async (bus: PostgresEventBus, topic: string) => {
  const received: Json[] = []
  const stop = await bus.subscribe(topic, (message) => received.push(message))
  return { received, stop }
}

/** Publish, trying again while the restarted server still refuses connections. */
async function publishOnceUp(bus: PostgresEventBus, topic: string, message: Json): Promise<void> {
  const deadline = Date.now() + 10_000
  for (;;) {
    try {
      return await bus.publish(topic, message)
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}

describePostgres('PostgresEventBus', () => {
  it('carries a message far larger than a NOTIFY payload', async () => {
    const { buses, dispose } = await twoHosts()
    try {
      const listener = await listen(buses[0], 'big')
      const big = { text: 'x'.repeat(100_000) }
      await buses[1].publish('big', big)
      await eventually(() => expect(listener.received).toEqual([big]), 5000)
    } finally {
      await dispose()
    }
  })

  it('gives every subscriber one order of a topic whose publishers race, keeping each publisher in its own order', async () => {
    const { buses, dispose } = await twoHosts()
    try {
      const [a, b] = [await listen(buses[0], 'race'), await listen(buses[1], 'race')]
      const PER_PUBLISHER = 40
      await Promise.all(
        buses.map(async (bus, p) => {
          for (let i = 0; i < PER_PUBLISHER; i += 1) await bus.publish('race', { p, i })
        }),
      )
      await eventually(() => expect(a.received).toHaveLength(2 * PER_PUBLISHER), 5000)
      await eventually(() => expect(b.received).toEqual(a.received), 5000)
      for (const p of [0, 1]) {
        const own = (a.received as { p: number; i: number }[]).filter((message) => message.p === p).map((message) => message.i)
        expect(own).toEqual(Array.from({ length: PER_PUBLISHER }, (_, i) => i))
      }
    } finally {
      await dispose()
    }
  })

  it('resumes after the database restarted without losing or repeating a message', async () => {
    const cluster = await clusterOfThisFile()
    const { buses, dispose } = await twoHosts()
    try {
      const listener = await listen(buses[0], 'orders')
      for (let i = 0; i < 10; i += 1) await buses[1].publish('orders', i)
      await eventually(() => expect(listener.received).toHaveLength(10), 5000)
      await cluster.stop('immediate')
      await cluster.start()
      // Published while the listener may still be reconnecting: read back from the table, in order.
      for (let i = 10; i < 30; i += 1) await publishOnceUp(buses[1], 'orders', i)
      await eventually(() => expect(listener.received).toEqual(Array.from({ length: 30 }, (_, i) => i)), 10_000)
    } finally {
      await dispose()
    }
  })

  describe('prune', () => {
    it('deletes messages past the retention and keeps numbering, so subscriptions carry on', async () => {
      const { connectionString, schema, drop } = await freshSchema()
      const bus = new PostgresEventBus({ connectionString, schema, retentionSeconds: 0 })
      try {
        const listener = await listen(bus, 'news')
        await bus.publish('news', 1)
        await bus.publish('news', 2)
        await eventually(() => expect(listener.received).toEqual([1, 2]), 5000)
        expect(await bus.prune()).toBe(2)
        expect(await bus.prune()).toBe(0)
        await bus.publish('news', 3)
        await eventually(() => expect(listener.received).toEqual([1, 2, 3]), 5000)
        const late = await listen(bus, 'news')
        await bus.publish('news', 4)
        await eventually(() => expect(late.received).toEqual([4]), 5000)
      } finally {
        await bus.close()
        await drop()
      }
    })

    it("is run by the host's expiry sweeper", async () => {
      const { connectionString, schema, drop } = await freshSchema()
      const events = new PostgresEventBus({ connectionString, schema, retentionSeconds: 0 })
      const cairn = createCairn({ baseUrl: 'http://127.0.0.1', store: new MemoryStore(), events, sweep: false, logIntegration: false })
      const admin = new pg.Client({ connectionString })
      try {
        await events.publish('news', 1)
        await cairn.sweepExpired()
        await admin.connect()
        expect((await admin.query(`SELECT count(*)::int AS n FROM "${schema}".events`)).rows).toEqual([{ n: 0 }])
      } finally {
        await cairn.close()
        await admin.end()
        await drop()
      }
    })

    it('keeps messages inside the retention', async () => {
      const { connectionString, schema, drop } = await freshSchema()
      const bus = new PostgresEventBus({ connectionString, schema, retentionSeconds: 3600 })
      try {
        await bus.publish('news', 1)
        expect(await bus.prune()).toBe(0)
      } finally {
        await bus.close()
        await drop()
      }
    })
  })
})
