/**
 * The delivery worker against a real HTTP receiver on 127.0.0.1 that verifies every delivery with
 * the official standardwebhooks library, as a consumer would: delivered once, retried on the
 * published schedule while the receiver is down, signed with the new secret only after rotation,
 * never started twice by two workers, endpoints disabled as documented, and one trickling receiver
 * holding back no other outcome (nor letting a second host re-send it).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { HttpWebhookSender } from '../../adapters/system/http-webhook-sender.js'
import { bodyOf, testDeployment, type SignedIn } from '../../hosts/http/oidc-test-support.js'
import { createRuntimeTestWorld, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { deliverDueWebhooks } from './delivery-worker.js'
import { webhookDeliveryWrites } from './outbox.js'
import { webhookCollections, webhookDeliveries, webhookEndpoints } from './records.js'
import { startReceiver } from '../../hosts/http/webhook-receiver-test-support.js'
import { startTricklingReceiver, type TricklingReceiver } from '../../adapters/system/trickling-receiver-test-support.js'
import { DISABLE_AFTER_FAILING_MS, MAX_ATTEMPTS, RECORDING_MARGIN_MS, RETRY_DELAYS_MS } from './retry-schedule.js'

let runtime: RuntimeTestWorld
let boss: SignedIn
let clock: FixedClock
const servers: Server[] = []
const tricklers: TricklingReceiver[] = []
const DEADLINE_MS = 1500
const sender = new HttpWebhookSender({ allowHttpLoopback: true, allowPrivateNetworks: true })

beforeEach(async () => {
  clock = new FixedClock(Date.now())
  runtime = await createRuntimeTestWorld({ clock, deployment: { ...testDeployment(), businessAccounts: ['boss'], webhooks: { allowHttpLoopback: true, allowPrivateNetworks: true } } })
  await runtime.deps.store.declare(webhookCollections)
  boss = await runtime.world.signIn('boss')
})
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
  for (const trickler of tricklers.splice(0)) await trickler.close()
})

async function endpointFor(url: string): Promise<{ id: string; secret: string }> {
  const created = bodyOf<{ endpoint: { id: string }; secret: string }>(await runtime.call('createWebhookEndpoint', { body: { url }, credentials: { sessionCookie: boss.cookie } }))
  return { id: created.endpoint.id, secret: created.secret }
}
async function emit(data: Record<string, unknown> = { runId: 'run_1' }) {
  const { writes, deliveries } = await webhookDeliveryWrites(runtime.deps, boss.userId, 'creator.run.completed', data)
  expect((await runtime.deps.store.commit(writes)).ok).toBe(true)
  return deliveries
}
const delivery = async (id: string) => (await webhookDeliveries.get(runtime.deps.store, id))!.value
const endpoint = async (id: string) => (await webhookEndpoints.get(runtime.deps.store, id))!.value

describe('webhook delivery worker', () => {
  it('delivers an enqueued event once, verified by standardwebhooks with the endpoint\'s secret', async () => {
    let secret = ''
    const receiver = await startReceiver(() => [secret])
    servers.push(receiver.server)
    ;({ secret } = await endpointFor(receiver.url))
    const [queued] = await emit()
    expect(await deliverDueWebhooks(runtime.deps, { sender })).toMatchObject({ attempted: 1, delivered: 1 })
    expect(receiver.received).toEqual([{ id: queued!.id, event: expect.objectContaining({ type: 'creator.run.completed', data: { runId: 'run_1' } }), verifiedWith: secret }])
    expect(await delivery(queued!.id)).toMatchObject({ state: 'delivered', attempts: 1, lastError: null })
    expect(await deliverDueWebhooks(runtime.deps, { sender })).toMatchObject({ attempted: 0, delivered: 0 })
  })

  it('retries on the published schedule while the receiver is down, with the same webhook-id', async () => {
    let secret = ''
    let up = false
    const receiver = await startReceiver(() => [secret], () => (up ? 200 : 503))
    servers.push(receiver.server)
    ;({ secret } = await endpointFor(receiver.url))
    const [queued] = await emit()
    await deliverDueWebhooks(runtime.deps, { sender })
    expect(await delivery(queued!.id)).toMatchObject({ state: 'pending', attempts: 1, lastError: 'the receiver answered HTTP 503', nextAttemptAtMs: clock.now() + RETRY_DELAYS_MS[0]! })
    clock.advance(RETRY_DELAYS_MS[0]! - 1)
    expect(await deliverDueWebhooks(runtime.deps, { sender })).toMatchObject({ attempted: 0, delivered: 0 })
    clock.advance(1)
    up = true
    expect(await deliverDueWebhooks(runtime.deps, { sender })).toMatchObject({ attempted: 1, delivered: 1 })
    expect(receiver.received.map((r) => r.id)).toEqual([queued!.id, queued!.id])
    expect((await endpoint((await delivery(queued!.id)).endpointId)).failingSinceMs).toBeNull()
  })

  it('signs deliveries after a rotation with the new secret only', async () => {
    const secrets: string[] = []
    const receiver = await startReceiver(() => secrets)
    servers.push(receiver.server)
    const created = await endpointFor(receiver.url)
    const rotated = bodyOf<{ secret: string }>(await runtime.call('rotateWebhookSecret', { params: { endpointId: created.id }, credentials: { sessionCookie: boss.cookie } }))
    secrets.push(created.secret, rotated.secret)
    await emit()
    await deliverDueWebhooks(runtime.deps, { sender })
    expect(receiver.received.map((r) => r.verifiedWith)).toEqual([rotated.secret])
  })

  it('never starts one attempt twice when two workers race over one store', async () => {
    let secret = ''
    const receiver = await startReceiver(() => [secret])
    servers.push(receiver.server)
    ;({ secret } = await endpointFor(receiver.url))
    const queued = await Promise.all(Array.from({ length: 10 }, (_, i) => emit({ runId: `run_${i}` })))
    const [a, b] = await Promise.all([deliverDueWebhooks(runtime.deps, { sender }), deliverDueWebhooks(runtime.deps, { sender })])
    expect(a.attempted + b.attempted).toBe(10)
    expect(receiver.received.map((r) => r.id).sort()).toEqual(queued.flat().map((d) => d.id).sort())
  })

  it('gives up after the last scheduled attempt, and disables an endpoint that failed for 5 days', async () => {
    const receiver = await startReceiver(() => [], () => 500)
    servers.push(receiver.server)
    const { id } = await endpointFor(receiver.url)
    const [first] = await emit()
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await deliverDueWebhooks(runtime.deps, { sender })
      if (attempt < MAX_ATTEMPTS) clock.advance(RETRY_DELAYS_MS[attempt - 1]!)
    }
    expect(await delivery(first!.id)).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS })
    expect(await endpoint(id)).toMatchObject({ enabled: true })
    clock.advance(DISABLE_AFTER_FAILING_MS)
    const [second] = await emit()
    await deliverDueWebhooks(runtime.deps, { sender })
    expect(await delivery(second!.id)).toMatchObject({ state: 'abandoned' })
    expect(await endpoint(id)).toMatchObject({ enabled: false, disabledReason: 'every delivery failed for 5 days' })
    expect(await emit()).toEqual([]) // a disabled endpoint gets nothing new
  })

  it('disables an endpoint that answers 410 Gone at once', async () => {
    const receiver = await startReceiver(() => [], () => 410)
    servers.push(receiver.server)
    const { id } = await endpointFor(receiver.url)
    await emit()
    await deliverDueWebhooks(runtime.deps, { sender })
    expect(await endpoint(id)).toMatchObject({ enabled: false, disabledReason: 'the receiver answered 410 Gone' })
  })
})

describe('a round with one trickling receiver, and a second host', () => {
  it('records the prompt outcome at once, cuts the trickler at the deadline, and nothing is sent twice', { timeout: 20_000 }, async () => {
    let secret = ''
    const prompt = await startReceiver(() => [secret])
    servers.push(prompt.server)
    const trickler = await startTricklingReceiver({ everyMs: 50 })
    tricklers.push(trickler)
    ;({ secret } = await endpointFor(prompt.url))
    const slowEndpoint = await endpointFor(trickler.url)
    const { writes, deliveries } = await webhookDeliveryWrites(runtime.deps, boss.userId, 'creator.run.completed', { runId: 'run_1' })
    expect((await runtime.deps.store.commit(writes)).ok).toBe(true)
    const fast = deliveries.find((queued) => queued.endpointId !== slowEndpoint.id)!
    const slow = deliveries.find((queued) => queued.endpointId === slowEndpoint.id)!

    const hostA = deliverDueWebhooks(runtime.deps, { sender, timeoutMs: DEADLINE_MS })
    // Recorded while the trickler still holds its own attempt open.
    await expect.poll(() => delivery(fast.id), { timeout: DEADLINE_MS - 300, interval: 20 }).toMatchObject({ state: 'delivered', attempts: 1 })
    expect(trickler.requests()).toBe(1)
    const hostB = { ...runtime.deps }
    expect(await deliverDueWebhooks(hostB, { sender, timeoutMs: DEADLINE_MS })).toMatchObject({ attempted: 0 })

    expect(await hostA).toEqual({ attempted: 2, delivered: 1, full: false })
    expect(await delivery(slow.id)).toMatchObject({ state: 'pending', attempts: 1, lastError: 'the receiver did not answer in time', nextAttemptAtMs: clock.now() + RETRY_DELAYS_MS[0]! })

    // Past the lease and the retry delay, host B makes the slow delivery's second attempt, and only that.
    clock.advance(DEADLINE_MS + RECORDING_MARGIN_MS + RETRY_DELAYS_MS[0]!)
    expect(await deliverDueWebhooks(hostB, { sender, timeoutMs: 200 })).toMatchObject({ attempted: 1, delivered: 0 })
    expect(await delivery(slow.id)).toMatchObject({ attempts: 2 })
    expect(prompt.received.map((received) => received.id)).toEqual([fast.id])
  })
})

describe('HttpWebhookSender network policy', () => {
  const strict = new HttpWebhookSender({})
  const request = (url: string) => strict.send({ url, headers: {}, body: '{}', timeoutMs: 2000 })

  it('refuses names that resolve to private addresses (resolve-then-connect) and private literals', async () => {
    const receiver = await startReceiver(() => [])
    servers.push(receiver.server)
    const port = new URL(receiver.url).port
    expect(await request(`http://localhost:${port}/hook`)).toEqual({ kind: 'failed', reason: expect.stringMatching(/private address/) })
    expect(await request(`http://127.0.0.1:${port}/hook`)).toEqual({ kind: 'failed', reason: expect.stringMatching(/private address/) })
    expect(receiver.received).toEqual([])
  })

  it('refuses at send time every IPv6 literal embedding an IPv4 address, whatever was registered', async () => {
    const receiver = await startReceiver(() => [])
    servers.push(receiver.server)
    const port = new URL(receiver.url).port
    for (const host of ['[::127.0.0.1]', '[::ffff:127.0.0.1]', '[::ffff:0:127.0.0.1]', '[64:ff9b::127.0.0.1]', '[2002:7f00:1::1]', '[2001:0:4136:e378:8000:63bf:80ff:fffe]']) {
      expect(await request(`http://${host}:${port}/hook`), host).toEqual({ kind: 'failed', reason: expect.stringMatching(/private address/) })
    }
    expect(receiver.received).toEqual([])
  })

  it('reports a receiver that does not answer in time', async () => {
    const silent = createServer(() => undefined)
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    servers.push(silent)
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`
    const result = await sender.send({ url, headers: {}, body: '{}', timeoutMs: 200 })
    expect(result).toEqual({ kind: 'failed', reason: 'the receiver did not answer in time' })
    silent.closeAllConnections()
  })
})
