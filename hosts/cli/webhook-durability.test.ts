/**
 * The webhook outbox on the durable single-machine default: `cairn serve --data-dir` enqueues a
 * delivery while its receiver is down, is SIGKILLed before the delivery could arrive, and is
 * started again: the delivery still arrives, once the receiver is up, verified by the official
 * standardwebhooks library as a consumer would.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startReceiver } from '../http/webhook-receiver-test-support.js'
import { freePort, signInOverHttp, startServeProcess } from './serve-process-test-support.js'

const BASE_URL = 'http://cairn.webhook-durability.test'
const dataDir = mkdtempSync(join(tmpdir(), 'cairn-webhook-data-'))
const configFile = join(dataDir, 'deployment.json')
writeFileSync(configFile, JSON.stringify({ businessAccounts: ['boss'], webhooks: { allowHttpLoopback: true, allowPrivateNetworks: true } }))
const servers: Server[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  rmSync(dataDir, { recursive: true, force: true })
})

describe('the webhook outbox across a SIGKILL', () => {
  it('delivers an event enqueued before the kill once the host is back and the receiver is up', { timeout: 90_000 }, async () => {
    const port = await freePort()
    const first = await startServeProcess(dataDir, BASE_URL, { CAIRN_CONFIG: configFile })
    const cookie = await signInOverHttp(first.url, BASE_URL, 'boss')
    const post = (path: string, body: unknown) =>
      fetch(`${first.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) })
    const created = (await (await post('/api/developers/webhooks', { url: `http://127.0.0.1:${port}/hook` })).json()) as { endpoint: { id: string }; secret: string }
    const enqueued = (await (await post(`/api/developers/webhooks/${created.endpoint.id}/test-event`, { eventType: 'creator.run.completed' })).json()) as {
      enqueued: boolean; delivery: { headers: Record<string, string> }
    }
    expect(enqueued.enqueued).toBe(true)
    first.child.kill('SIGKILL')
    await first.exit

    const receiver = await startReceiver(() => [created.secret], () => 204, port)
    servers.push(receiver.server)
    const second = await startServeProcess(dataDir, BASE_URL, { CAIRN_CONFIG: configFile })
    try {
      // A first attempt may have failed before the kill (the next is due 5 s after it), or the kill
      // may have caught it in flight: then its lease (attempt timeout + 15 s = 30 s) runs out first.
      await expect.poll(() => receiver.received.length, { timeout: 45_000, interval: 100 }).toBeGreaterThan(0)
      const webhookId = enqueued.delivery.headers['webhook-id']
      expect(receiver.received.every((delivery) => delivery.id === webhookId && delivery.verifiedWith === created.secret)).toBe(true)
      expect(receiver.received[0]!.event).toMatchObject({ type: 'creator.run.completed', test: true })
    } finally {
      second.child.kill('SIGTERM')
      await second.exit
    }
  })
})
