/**
 * The WebSocket host with two Cairn hosts on one shared store and event bus: a visitor posts to one
 * host and a subscriber on the other receives the Twin's reply; a reconnect resumes from a cursor
 * without loss or duplicates; bad frames, floods, oversized frames and foreign origins are refused
 * with a reason, and the server keeps serving.
 */
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { MemoryEventBus, MemoryStore } from '../../adapters/memory/index.js'
import { signInOverHttp } from '../cli/serve-process-test-support.js'
import { startHttpServer } from '../http/start-http-server.js'
import { createCairn, type Cairn } from '../library/create-cairn.js'

const BASE_URL = 'http://cairn.live.test'
const opened: { cairn: Cairn; close: () => Promise<void> }[] = []
afterEach(async () => {
  for (const { cairn, close } of opened.splice(0)) {
    await cairn.close()
    await close()
  }
})

/** Two hosts sharing one store and one bus, as two processes share MongoDB. */
async function twoHosts() {
  const store = new MemoryStore()
  const events = new MemoryEventBus()
  const hosts = []
  for (let i = 0; i < 2; i++) {
    const cairn = createCairn({ baseUrl: BASE_URL, store, events, logIntegration: false, webhooks: { enabled: false } })
    const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
    cairn.attachWebSocket(server.server, { maxFramesPerSecond: 10 })
    opened.push({ cairn, close: () => server.close() })
    hosts.push({ cairn, url: server.url, ws: `${server.url.replace('http', 'ws')}/api/world/live` })
  }
  await signInOverHttp(hosts[0]!.url, BASE_URL, 'ada')
  return hosts as [typeof hosts[0], typeof hosts[0]]
}

interface Frame { type: string; topic?: string; cursor?: string; error?: string; data?: Record<string, unknown> }

/** A client that collects every frame and how the socket closed. */
async function connect(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers })
  const frames: Frame[] = []
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })))
  socket.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as Frame))
  await new Promise<void>((resolve, reject) => (socket.once('open', () => resolve()), socket.once('error', reject)))
  return { socket, frames, closed, send: (frame: unknown) => socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame)) }
}

const postMessage = (url: string, text: string) =>
  fetch(`${url}/api/world/profile/ada`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ visitorId: 'visitor-live-1', text }) }).then(async (r) => (await r.json()) as { reply: { text: string }; thread: { messageId: string } })

describe('live updates over WebSocket', () => {
  it('fan a reply posted to one host out to a subscriber on the other', async () => {
    const [a, b] = await twoHosts()
    const client = await connect(b.ws)
    client.send({ type: 'subscribe', topic: 'twin:ada' })
    await expect.poll(() => client.frames.map((f) => f.type)).toContain('subscribed')
    const posted = await postMessage(a.url, 'Hello from host A')
    await expect.poll(() => client.frames.filter((f) => f.type === 'update')).toHaveLength(1)
    const update = client.frames.find((f) => f.type === 'update')!
    expect(update).toMatchObject({ topic: 'twin:ada', data: { type: 'twin.activity', username: 'ada', messageId: posted.thread.messageId } })
    expect(JSON.stringify(update)).not.toContain(posted.reply.text) // the public topic carries metadata only (thread-privacy.test.ts)
    client.socket.close()
  })

  it('resume from a cursor after a reconnect without loss or duplicates', async () => {
    const [a, b] = await twoHosts()
    const first = await connect(b.ws)
    first.send({ type: 'subscribe', topic: 'twin:ada' })
    await expect.poll(() => first.frames.map((f) => f.type)).toContain('subscribed')
    await postMessage(a.url, 'one')
    await expect.poll(() => first.frames.filter((f) => f.type === 'update')).toHaveLength(1)
    const cursor = first.frames.find((f) => f.type === 'update')!.cursor!
    first.socket.close()
    await first.closed
    const missed = [await postMessage(a.url, 'two'), await postMessage(a.url, 'three')]
    const again = await connect(a.ws)
    again.send({ type: 'subscribe', topic: 'twin:ada', after: cursor })
    await expect.poll(() => again.frames.filter((f) => f.type === 'update')).toHaveLength(2)
    expect(again.frames.filter((f) => f.type === 'update').map((f) => f.data!['messageId'])).toEqual(missed.map((m) => m.thread.messageId))
    await postMessage(b.url, 'four')
    await expect.poll(() => again.frames.filter((f) => f.type === 'update')).toHaveLength(3)
  })

  it('refuse bad frames, floods, oversized frames and foreign origins with a reason, and keep serving', async () => {
    const [, b] = await twoHosts()
    const malformed = await connect(b.ws)
    malformed.send('{not json')
    expect(await malformed.closed).toEqual({ code: 1007, reason: 'frames are JSON text' })

    const unknown = await connect(b.ws)
    unknown.send({ type: 'subscribe', topic: 'twin:nobody-here' })
    unknown.send({ type: 'dance', topic: 'public' })
    await expect.poll(() => unknown.frames.filter((f) => f.type === 'error')).toHaveLength(2)
    expect(unknown.frames.map((f) => f.error)).toEqual(expect.arrayContaining([expect.stringMatching(/type must be/), expect.stringMatching(/No Live Twin/)]))

    const oversized = await connect(b.ws)
    oversized.send({ type: 'subscribe', topic: `twin:${'x'.repeat(5000)}` })
    expect((await oversized.closed).code).toBe(1009)

    const flood = await connect(b.ws)
    for (let i = 0; i < 15; i++) flood.send({ type: 'unsubscribe', topic: 'public' })
    expect(await flood.closed).toEqual({ code: 1008, reason: 'more than 10 frames a second' })

    await expect(connect(b.ws, { origin: 'https://evil.example' })).rejects.toThrow(/403/)

    const healthy = await connect(b.ws, { origin: 'http://cairn.live.test' })
    healthy.send({ type: 'subscribe', topic: 'public' })
    await expect.poll(() => healthy.frames.map((f) => f.type)).toContain('subscribed')
    healthy.socket.close()
  })
})

describe('a client too slow to read', () => {
  it('is dropped with 1013 once its unsent updates pass the bound, instead of growing the server\'s memory', async () => {
    const cairn = createCairn({ baseUrl: BASE_URL, logIntegration: false, webhooks: { enabled: false } })
    const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
    opened.push({ cairn, close: () => server.close() })
    cairn.attachWebSocket(server.server, { maxBufferedBytes: 256 * 1024 })
    await signInOverHttp(server.url, BASE_URL, 'ada')
    const client = await connect(`${server.url.replace('http', 'ws')}/api/world/live`)
    client.send({ type: 'subscribe', topic: 'twin:ada' })
    await expect.poll(() => client.frames.map((f) => f.type)).toContain('subscribed')
    const tcp = (client.socket as unknown as { _socket: import('node:net').Socket })._socket
    tcp.pause() // the client stops reading; the kernel buffers fill, then the server's
    const events = cairn.container.get<import('../../ports/event-bus.js').EventBus>(Symbol.for('cairn.EventBus'))
    const big = 'x'.repeat(64 * 1024)
    for (let i = 0; i < 400; i++) await events.publish('world.twin.ada', { type: 'twin.reply', username: 'ada', messageId: `m${i}`, reply: big })
    tcp.resume()
    expect(await client.closed).toEqual({ code: 1013, reason: 'too slow: updates piled up unsent' })
    expect(client.frames.filter((f) => f.type === 'update').length).toBeLessThan(400)
  })
})

describe('heartbeats', () => {
  it('drop a connection that stops answering pings, and keep one that answers', async () => {
    const cairn = createCairn({ baseUrl: BASE_URL, logIntegration: false, webhooks: { enabled: false } })
    const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
    opened.push({ cairn, close: () => server.close() })
    const live = cairn.attachWebSocket(server.server, { heartbeatMs: 50 })
    const url = `${server.url.replace('http', 'ws')}/api/world/live`
    const silent = new WebSocket(url, { autoPong: false })
    const silentClosed = new Promise<number>((resolve) => silent.on('close', (code) => resolve(code)))
    const answering = await connect(url)
    expect(await silentClosed).toBe(1006) // terminated, no close frame
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(answering.socket.readyState).toBe(WebSocket.OPEN)
    expect(live.connections()).toBe(1)
    answering.socket.close()
  })
})
