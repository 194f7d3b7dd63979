/**
 * What the WebSocket topics reveal (issue 22 §6): a stranger subscribed to `twin:<user>` — live or
 * resuming with `after` — sees that messages were answered, never their reply text or thread; a
 * stranger cannot open `thread:<id>` without the thread's secret; the visitor holding it receives
 * the thread's replies, replayed and live.
 */
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { signInOverHttp } from '../cli/serve-process-test-support.js'
import { startHttpServer } from '../http/start-http-server.js'
import { createCairn, type Cairn } from '../library/create-cairn.js'

const BASE_URL = 'http://cairn.thread-privacy.test'
const opened: { cairn: Cairn; close: () => Promise<void> }[] = []
const sockets: WebSocket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close()
  for (const { cairn, close } of opened.splice(0)) {
    await cairn.close()
    await close()
  }
})

async function host() {
  const cairn = createCairn({ baseUrl: BASE_URL, logIntegration: false, webhooks: { enabled: false } })
  const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
  cairn.attachWebSocket(server.server)
  opened.push({ cairn, close: () => server.close() })
  await signInOverHttp(server.url, BASE_URL, 'ada')
  return { url: server.url, ws: `${server.url.replace('http', 'ws')}/api/world/live` }
}

interface Frame { type: string; topic?: string; cursor?: string; error?: string; data?: Record<string, unknown> }

async function connect(url: string) {
  const socket = new WebSocket(url)
  const frames: Frame[] = []
  socket.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as Frame))
  await new Promise<void>((resolve, reject) => (socket.once('open', () => resolve()), socket.once('error', reject)))
  sockets.push(socket)
  return { frames, send: (frame: unknown) => socket.send(JSON.stringify(frame)), updates: () => frames.filter((f) => f.type === 'update') }
}

type Answer = { thread: { threadId: string; threadSecret?: string; messageId: string }; reply: { text: string } }
const post = async (url: string, body: Record<string, unknown>) =>
  (await (await fetch(`${url}/api/world/profile/ada`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ visitorId: 'visitor-private', ...body }) })).json()) as Answer

describe('thread privacy over WebSocket', () => {
  it('a stranger on twin:<user> sees metadata only, live and replayed', async () => {
    const { url, ws } = await host()
    const stranger = await connect(ws)
    stranger.send({ type: 'subscribe', topic: 'twin:ada' })
    await expect.poll(() => stranger.frames.map((f) => f.type)).toContain('subscribed')
    const first = await post(url, { text: 'My private question' })
    const second = await post(url, { text: 'And a follow-up', threadId: first.thread.threadId, threadSecret: first.thread.threadSecret })
    await expect.poll(() => stranger.updates()).toHaveLength(2)
    const resumed = await connect(ws)
    resumed.send({ type: 'subscribe', topic: 'twin:ada', after: '0' })
    await expect.poll(() => resumed.updates()).toHaveLength(2)
    for (const seen of [stranger.updates(), resumed.updates()]) {
      expect(seen.map((f) => f.data!['messageId']).sort()).toEqual([first.thread.messageId, second.thread.messageId].sort())
      for (const { data } of seen) expect(Object.keys(data!).sort()).toEqual(['at', 'cursor', 'kind', 'messageId', 'type', 'username'])
      const text = JSON.stringify(seen)
      for (const secret of [first.reply.text, second.reply.text, first.thread.threadId, first.thread.threadSecret!, 'My private question']) expect(text).not.toContain(secret)
    }
  })

  it('a stranger cannot open a thread without its secret; its visitor receives the replies, replayed then live', async () => {
    const { url, ws } = await host()
    const first = await post(url, { text: 'Hello Twin' })
    const { threadId, threadSecret } = first.thread
    const stranger = await connect(ws)
    // One attempt at a time: a second subscribe to a topic still being opened is refused as a duplicate.
    for (const [tried, secret] of [undefined, 'A'.repeat(43), threadSecret!.slice(0, -1)].entries()) {
      stranger.send({ type: 'subscribe', topic: `thread:${threadId}`, after: '0', ...(secret === undefined ? {} : { secret }) })
      await expect.poll(() => stranger.frames.filter((f) => f.type === 'error')).toHaveLength(tried + 1)
    }
    expect(stranger.frames.every((f) => f.type === 'error' && /No thread/.test(f.error ?? ''))).toBe(true)

    const visitor = await connect(ws)
    visitor.send({ type: 'subscribe', topic: `thread:${threadId}`, secret: threadSecret, after: '0' })
    await expect.poll(() => visitor.updates()).toHaveLength(1)
    expect(visitor.updates()[0]).toMatchObject({ topic: `thread:${threadId}`, data: { type: 'twin.reply', threadId, reply: first.reply.text } })
    const next = await post(url, { text: 'More', threadId, threadSecret })
    await expect.poll(() => visitor.updates()).toHaveLength(2)
    expect(visitor.updates()[1]).toMatchObject({ data: { reply: next.reply.text, messageId: next.thread.messageId } })
    // Whatever the stranger tried, nothing of the thread reached them.
    expect(stranger.updates()).toEqual([])
    expect(JSON.stringify(stranger.frames)).not.toContain(first.reply.text)
  })
})
