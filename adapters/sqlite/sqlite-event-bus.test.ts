/**
 * SqliteEventBus's own promises (the EventBus contract, across processes, is proven by
 * conformance/matrix.test.ts): old messages are pruned and sequences never restart, a subscription
 * never receives what was published before it began, and a bus without subscribers does not poll.
 */
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { eventually } from '../../conformance/support/eventually.js'
import { eachTempDir } from '../../conformance/support/temp-dir.js'
import type { Json } from '../../ports/store.js'
import { SqliteEventBus } from './sqlite-event-bus.js'
import { SqliteStore } from './sqlite-store.js'

describe('SqliteEventBus', () => {
  const dir = eachTempDir('cairn-sqlite-bus-')
  const opened: { close(): unknown }[] = []
  const track = <T extends { close(): unknown }>(closable: T): T => (opened.push(closable), closable)
  afterEach(async () => {
    for (const closable of opened.splice(0)) await closable.close()
  })

  it('shares the store file, prunes messages past their retention, and keeps counting after', async () => {
    const file = join(dir().path, 'cairn.sqlite')
    const store = track(new SqliteStore(file))
    await store.commit([{ kind: 'put', collection: 'c', key: 'k', value: 1, expect: { kind: 'absent' } }])
    const bus = track(new SqliteEventBus({ file, retentionMs: 1000 }))
    await bus.publish('t', 'old')
    await bus.publish('t', 'also old')
    const raw = track(new Database(file))
    raw.prepare('UPDATE events SET at = at - 5000').run()
    await bus.publish('t', 'young')
    expect(await bus.prune()).toBe(2)
    expect(raw.prepare('SELECT message FROM events ORDER BY sequence').all()).toEqual([{ message: '"young"' }])
    expect(await bus.prune(Date.now() + 10_000)).toBe(1)
    await bus.publish('t', 'after')
    expect(raw.prepare('SELECT sequence FROM events').all()).toEqual([{ sequence: 4 }])
    expect(await store.get('c', 'k')).toMatchObject({ value: 1 })
  })

  it('gives a new subscription only what was published after it began, while another lags behind', async () => {
    const file = join(dir().path, 'cairn.sqlite')
    const bus = track(new SqliteEventBus({ file, pollIntervalMs: 60_000 }))
    const other = track(new SqliteEventBus({ file }))
    const first: Json[] = []
    await bus.subscribe('t', (message) => first.push(message))
    await other.publish('t', 'before') // another process's message, not yet read here (no poll for a minute)
    const second: Json[] = []
    await bus.subscribe('t', (message) => second.push(message))
    await bus.publish('t', 'after') // our own publish reads at once
    await eventually(() => expect(first).toEqual(['before', 'after']), 2000)
    expect(second).toEqual(['after'])
  })

  it('reads another process\'s messages within a poll, and stops polling with no subscriber', async () => {
    const file = join(dir().path, 'cairn.sqlite')
    const statements: string[] = []
    const database = track(new Database(file, { verbose: (sql) => statements.push(String(sql)) }))
    const bus = track(new SqliteEventBus({ database, pollIntervalMs: 10 }))
    const publisher = track(new SqliteEventBus({ file }))
    const received: Json[] = []
    const stop = await bus.subscribe('t', (message) => received.push(message))
    await publisher.publish('t', { n: 1 })
    await eventually(() => expect(received).toEqual([{ n: 1 }]), 2000)
    await stop()
    statements.length = 0
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(statements).toEqual([])
  })
})
