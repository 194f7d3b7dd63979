/**
 * One slow receiver among others, with two workers (hosts) on one store: the prompt receiver's
 * outcome is recorded as soon as its send ends, the trickling one is cut off at the attempt's
 * deadline and recorded as a failure within its lease, and the other host never re-sends anything.
 */
import type { Server } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { HttpWebhookSender } from '../../adapters/system/http-webhook-sender.js'
import { startTricklingReceiver, type TricklingReceiver } from '../../adapters/system/trickling-receiver-test-support.js'
import { bodyOf, testDeployment, type SignedIn } from '../../hosts/http/oidc-test-support.js'
import { createRuntimeTestWorld, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { startReceiver } from '../../hosts/http/webhook-receiver-test-support.js'
import { deliverDueWebhooks } from './delivery-worker.js'
import { webhookDeliveryWrites } from './outbox.js'
import { WEBHOOK_DELIVERIES, webhookCollections, type DeliveryRecord } from './records.js'
import { RECORDING_MARGIN_MS, RETRY_DELAYS_MS } from './retry-schedule.js'

const DEADLINE_MS = 1500
let runtime: RuntimeTestWorld
let boss: SignedIn
let clock: FixedClock
const servers: Server[] = []
const tricklers: TricklingReceiver[] = []
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

const createEndpoint = async (url: string) =>
  bodyOf<{ endpoint: { id: string }; secret: string }>(await runtime.call('createWebhookEndpoint', { body: { url }, credentials: { sessionCookie: boss.cookie } }))
const delivery = async (id: string) => (await runtime.deps.store.get(WEBHOOK_DELIVERIES, id))!.value as unknown as DeliveryRecord

describe('a round with one trickling receiver, and a second host', () => {
  it('records the prompt outcome at once, cuts the trickler at the deadline, and nothing is sent twice', { timeout: 20_000 }, async () => {
    let secret = ''
    const prompt = await startReceiver(() => [secret])
    servers.push(prompt.server)
    const trickler = await startTricklingReceiver({ everyMs: 50 })
    tricklers.push(trickler)
    ;({ secret } = await createEndpoint(prompt.url))
    const slowEndpoint = await createEndpoint(trickler.url)
    const { writes, deliveries } = await webhookDeliveryWrites(runtime.deps, boss.userId, 'creator.run.completed', { runId: 'run_1' })
    expect((await runtime.deps.store.commit(writes)).ok).toBe(true)
    const fast = deliveries.find((queued) => queued.endpointId !== slowEndpoint.endpoint.id)!
    const slow = deliveries.find((queued) => queued.endpointId === slowEndpoint.endpoint.id)!

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
