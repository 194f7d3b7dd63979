/**
 * What live updates hold on a host, and what a resuming client is told: a bus topic is subscribed
 * only while a socket watches it, a socket watches a bounded number of topics, live updates arriving
 * during a replay follow the replayed ones, and a gap the replay cannot fill is announced.
 */
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { MemoryEventBus, MemoryStore } from '../../adapters/memory/index.js'
import type { Json, Page, QueryOptions, StoredDocument } from '../../ports/store.js'
import { signInOverHttp } from '../cli/serve-process-test-support.js'
import { startHttpServer } from '../http/start-http-server.js'
import { createCairn, type Cairn } from '../library/create-cairn.js'
import type { LiveUpdateOptions } from './live-updates.js'

const BASE_URL = 'http://cairn.live-resources.test'
const opened: { cairn: Cairn; close: () => Promise<void> }[] = []
afterEach(async () => {
  for (const { cairn, close } of opened.splice(0)) {
    await cairn.close()
    await close()
  }
})

/** A memory bus that counts the subscriptions open on it. */
class CountingBus extends MemoryEventBus {
  open = 0
  override async subscribe(topic: string, onMessage: (message: Json) => void): Promise<() => Promise<void>> {
    const stop = await super.subscribe(topic, onMessage)
    this.open += 1
    let stopped = false
    return async () => {
      if (!stopped) (stopped = true), (this.open -= 1)
      await stop()
    }
  }
}

/** A memory store whose index queries can be held back, to let live updates arrive during a replay. */
class SlowQueryStore extends MemoryStore {
  delayMs = 0
  override async query<T extends Json = Json>(collection: string, options: QueryOptions): Promise<Page<StoredDocument<T>>> {
    const page = await super.query<T>(collection, options)
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs))
    return page
  }
}

async function host(options: LiveUpdateOptions = {}) {
  const events = new CountingBus()
  const store = new SlowQueryStore()
  const cairn = createCairn({ baseUrl: BASE_URL, store, events, logIntegration: false, webhooks: { enabled: false } })
  const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
  const live = cairn.attachWebSocket(server.server, options)
  opened.push({ cairn, close: () => server.close() })
  await signInOverHttp(server.url, BASE_URL, 'ada')
  return { url: server.url, ws: `${server.url.replace('http', 'ws')}/api/world/live`, events, store, live }
}

interface Frame { type: string; topic?: string; cursor?: string; error?: string; reason?: string; data?: Record<string, unknown> }

async function connect(url: string) {
  const socket = new WebSocket(url)
  const frames: Frame[] = []
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
  socket.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as Frame))
  await new Promise<void>((resolve, reject) => (socket.once('open', () => resolve()), socket.once('error', reject)))
  return { socket, frames, closed, send: (frame: unknown) => socket.send(JSON.stringify(frame)) }
}

const post = (url: string, text: string, visitorId = 'visitor-resources') =>
  fetch(`${url}/api/world/profile/ada`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ visitorId, text }) })
    .then(async (response) => (await response.json()) as { thread: { messageId: string } })

/** Watch ada's Twin, post once, and answer the cursor of that update (the client then goes away). */
async function cursorOfOneUpdate(url: string, ws: string): Promise<string> {
  const client = await connect(ws)
  client.send({ type: 'subscribe', topic: 'twin:ada' })
  await expect.poll(() => types(client.frames)).toContain('subscribed')
  const first = await post(url, 'one')
  await expect.poll(() => updateIds(client.frames)).toEqual([first.thread.messageId])
  client.socket.close()
  return client.frames.find((frame) => frame.type === 'update')!.cursor!
}

const types = (frames: Frame[]) => frames.map((frame) => frame.type)
const updateIds = (frames: Frame[]) => frames.filter((frame) => frame.type === 'update').map((frame) => frame.data?.['messageId'])

describe('live-update resources', () => {
  it('subscribe a bus topic once however many sockets watch it, and end it when the last one leaves', async () => {
    const { ws, events, live } = await host()
    const [first, second] = [await connect(ws), await connect(ws)]
    for (const client of [first, second]) client.send({ type: 'subscribe', topic: 'twin:ada' })
    await expect.poll(() => [types(first.frames), types(second.frames)]).toEqual([['subscribed'], ['subscribed']])
    expect(events.open).toBe(1)
    expect(live.topics()).toBe(1)
    first.send({ type: 'unsubscribe', topic: 'twin:ada' })
    await expect.poll(() => types(first.frames)).toContain('unsubscribed')
    expect(events.open).toBe(1)
    second.socket.close()
    await second.closed
    await expect.poll(() => events.open).toBe(0)
    expect(live.topics()).toBe(0)
  })

  it('honour an unsubscribe sent while the subscription is still being set up', async () => {
    const { ws, events } = await host()
    const client = await connect(ws)
    client.send({ type: 'subscribe', topic: 'twin:ada' })
    client.send({ type: 'unsubscribe', topic: 'twin:ada' })
    client.send({ type: 'subscribe', topic: 'public' })
    await expect.poll(() => types(client.frames)).toContain('subscribed')
    expect(client.frames).toEqual([{ type: 'unsubscribed', topic: 'twin:ada' }, { type: 'subscribed', topic: 'public' }])
    expect(events.open).toBe(1)
    client.socket.close()
  })

  it('refuse a topic past the per-socket cap, and take it again once one is given up', async () => {
    const { ws } = await host({ maxTopicsPerSocket: 2 })
    const client = await connect(ws)
    client.send({ type: 'subscribe', topic: 'public' })
    client.send({ type: 'subscribe', topic: 'twin:ada' })
    client.send({ type: 'subscribe', topic: 'twin:someone-else' })
    await expect.poll(() => client.frames.filter((frame) => frame.type !== 'subscribed')).toEqual([
      { type: 'error', topic: 'twin:someone-else', error: 'A connection watches at most 2 topics: unsubscribe from one first' },
    ])
    client.send({ type: 'unsubscribe', topic: 'public' })
    client.send({ type: 'subscribe', topic: 'public' })
    await expect.poll(() => types(client.frames).filter((type) => type === 'subscribed')).toHaveLength(3)
    client.socket.close()
  })
})

describe('resuming from a cursor', () => {
  it('send live updates that arrive during the replay after the replayed ones, each once', async () => {
    const { url, ws, events, store } = await host()
    const cursor = await cursorOfOneUpdate(url, ws)
    const missed = [await post(url, 'two'), await post(url, 'three')].map((answer) => answer.thread.messageId)

    store.delayMs = 300
    const again = await connect(ws)
    again.send({ type: 'subscribe', topic: 'twin:ada', after: cursor })
    await expect.poll(() => types(again.frames)).toContain('subscribed')
    // During the replay's read: a live update, and one the replay also carries.
    const liveOnly = { type: 'twin.reply', username: 'ada', messageId: 'live-during-replay', cursor: '999999999999999.live' }
    await events.publish('world.twin.ada', liveOnly)
    await events.publish('world.twin.ada', { type: 'twin.reply', username: 'ada', messageId: missed[1]!, cursor: '999999999999999.dup' })
    const replayed = again.frames.length
    store.delayMs = 0
    await expect.poll(() => updateIds(again.frames)).toEqual([...missed, 'live-during-replay'])
    expect(replayed).toBe(1) // nothing but `subscribed` before the replay was sent
  })

  it('announce the updates a replay cannot carry, before the ones it does', async () => {
    const { url, ws } = await host({ resumeWindow: 2 })
    const cursor = await cursorOfOneUpdate(url, ws)
    const later = []
    for (const text of ['two', 'three', 'four']) later.push((await post(url, text)).thread.messageId)

    const again = await connect(ws)
    again.send({ type: 'subscribe', topic: 'twin:ada', after: cursor })
    await expect.poll(() => updateIds(again.frames)).toEqual(later.slice(1))
    expect(types(again.frames)).toEqual(['subscribed', 'missed', 'update', 'update'])
    expect(again.frames[1]).toMatchObject({ topic: 'twin:ada', reason: expect.stringMatching(/More than 2 updates since that cursor/) })
  })
})
