/**
 * The live-updates client against a real Cairn over WebSocket: updates arrive; when the server
 * drops the connection, the client reconnects with backoff and resumes after its last cursor —
 * the updates posted while it was away arrive once, none twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createCairn, type Cairn } from '../hosts/library/create-cairn.js'
import { startHttpServer, type RunningServer } from '../hosts/http/start-http-server.js'
import { signInOverHttp } from '../hosts/cli/serve-process-test-support.js'
import { connectLiveUpdates, type LiveUpdate, type WebSocketLike } from './index.js'

describe('cairn/client live updates', () => {
  let cairn: Cairn
  let server: RunningServer
  beforeAll(async () => {
    let handler: Cairn['nodeHandler'] | undefined
    server = await startHttpServer((req, res) => handler!(req, res), { host: '127.0.0.1', port: 0 })
    cairn = createCairn({ baseUrl: server.url, logIntegration: false, webhooks: { enabled: false } })
    handler = cairn.nodeHandler
    cairn.attachWebSocket(server.server)
    await signInOverHttp(server.url, server.url, 'ada')
  })
  afterAll(async () => {
    await server.close()
    await cairn.close()
  })

  const post = (text: string) =>
    fetch(`${server.url}/api/world/profile/ada`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ visitorId: 'visitor-client-1', text }) }).then(async (r) => (await r.json()) as { thread: { messageId: string } })

  it('receives updates, reconnects after a drop and resumes without loss or duplicates', async () => {
    const sockets: WebSocket[] = []
    // The ws package's WebSocket, remembered so the test can drop a connection as a network would.
    const Tracked = class extends WebSocket {
      constructor(url: string) {
        super(url)
        sockets.push(this)
      }
    } as unknown as new (url: string) => WebSocketLike
    const updates: LiveUpdate[] = []
    const statuses: string[] = []
    const live = connectLiveUpdates(server.url, { topics: ['twin:ada'], WebSocket: Tracked, onUpdate: (u) => updates.push(u), onStatus: (s) => statuses.push(s), backoff: { baseDelayMs: 50 } })
    await expect.poll(() => statuses).toContain('open')
    const first = await post('one')
    await expect.poll(() => updates.length).toBe(1)

    sockets[0]!.terminate()
    await expect.poll(() => statuses).toContain('reconnecting')
    const missed = [await post('two'), await post('three')]
    await expect.poll(() => sockets.length, { timeout: 5000 }).toBe(2)
    await expect.poll(() => updates.length, { timeout: 5000 }).toBe(3)
    const ids = updates.map((u) => u.data['messageId'])
    expect(ids).toEqual([first.thread.messageId, ...missed.map((m) => m.thread.messageId)])
    expect(live.cursors()['twin:ada']).toBe(updates[2]!.cursor)
    live.close()
    await expect.poll(() => statuses.at(-1)).toBe('closed')
  })
})
