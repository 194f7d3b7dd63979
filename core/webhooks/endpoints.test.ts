/**
 * Webhook endpoint management in-process, through the real Business boundary: the secret is shown
 * once, every change is owner-scoped and guarded, bad input writes nothing, and a fault at any
 * Store call leaves nothing half written.
 */
import * as E from 'fp-ts/lib/Either.js'
import { Webhook } from 'standardwebhooks'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { withFaults, type StoreMethod } from '../../conformance/fault-injection.js'
import { bodyOf, testDeployment, type SignedIn } from '../../hosts/http/oidc-test-support.js'
import { createRuntimeTestWorld, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { WEBHOOK_DELIVERIES, WEBHOOK_ENDPOINTS } from './records.js'

// standardwebhooks checks delivery timestamps against the real clock, so the pinned time is now.
const T0 = Date.now()
let runtime: RuntimeTestWorld
let boss: SignedIn
let ada: SignedIn

beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0), deployment: { ...testDeployment(), businessAccounts: ['boss', 'carol'] } })
  await runtime.deps.store.declare((await import('./records.js')).webhookCollections)
  boss = await runtime.world.signIn('boss')
  ada = await runtime.world.signIn('ada')
})

const as = (who: SignedIn) => ({ credentials: { sessionCookie: who.cookie } })
const create = (body: Record<string, unknown>, who = boss) => runtime.call('createWebhookEndpoint', { body, ...as(who) })
interface Created { endpoint: { id: string; url: string; eventTypes: string[]; enabled: boolean; secretPreview: string }; secret: string }
const snapshot = async () => JSON.stringify([
  (await runtime.deps.store.query(WEBHOOK_ENDPOINTS, { index: 'by_owner', limit: 1000 })).items,
  (await runtime.deps.store.query(WEBHOOK_DELIVERIES, { index: 'due', limit: 1000 })).items,
])

describe('webhook endpoints', () => {
  it('creates an endpoint whose secret is shown once, in the Standard Webhooks form', async () => {
    const created = bodyOf<Created>(await create({ url: 'https://hooks.example.com/cairn', description: 'ops' }))
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(created.endpoint).toMatchObject({ url: 'https://hooks.example.com/cairn', eventTypes: ['creator.run.completed', 'twin.message.completed'], enabled: true, secretPreview: `…${created.secret.slice(-4)}` })
    const listed = bodyOf<{ endpoints: unknown[] }>(await runtime.call('listWebhookEndpoints', as(boss)))
    expect(listed.endpoints).toEqual([created.endpoint])
    expect(JSON.stringify(listed)).not.toContain(created.secret)
  })

  it('updates, rotates and deletes only the owner\'s endpoints; another account sees 404', async () => {
    const { endpoint, secret } = bodyOf<Created>(await create({ url: 'https://hooks.example.com/a' }))
    const carol = await runtime.world.signIn('carol')
    expect(await runtime.call('updateWebhookEndpoint', { params: { endpointId: endpoint.id }, body: { enabled: false }, ...as(carol) })).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
    const updated = bodyOf<Created>(await runtime.call('updateWebhookEndpoint', { params: { endpointId: endpoint.id }, body: { eventTypes: ['creator.run.completed'], enabled: false }, ...as(boss) }))
    expect(updated.endpoint).toMatchObject({ eventTypes: ['creator.run.completed'], enabled: false, url: 'https://hooks.example.com/a' })
    const rotated = bodyOf<Created>(await runtime.call('rotateWebhookSecret', { params: { endpointId: endpoint.id }, ...as(boss) }))
    expect(rotated.secret).toMatch(/^whsec_/)
    expect(rotated.secret).not.toBe(secret)
    expect(bodyOf(await runtime.call('deleteWebhookEndpoint', { params: { endpointId: endpoint.id }, ...as(boss) }))).toEqual({ ok: true, deleted: endpoint.id })
    expect(await runtime.call('deleteWebhookEndpoint', { params: { endpointId: endpoint.id }, ...as(boss) })).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
  })

  it('prepares a test event signed so the official standardwebhooks library verifies it, and enqueues it', async () => {
    const { endpoint, secret } = bodyOf<Created>(await create({ url: 'https://hooks.example.com/a' }))
    const prepared = bodyOf<{ enqueued: boolean; delivery: { headers: Record<string, string>; body: string } }>(
      await runtime.call('prepareWebhookTestEvent', { params: { endpointId: endpoint.id }, body: { eventType: 'creator.run.completed' }, ...as(boss) }),
    )
    expect(prepared.enqueued).toBe(true)
    const receiver = new Webhook(secret)
    const event = receiver.verify(prepared.delivery.body, prepared.delivery.headers) as Record<string, unknown>
    expect(event).toMatchObject({ schema: 'cairn.webhook_event.v1', type: 'creator.run.completed', test: true, endpointId: endpoint.id, id: prepared.delivery.headers['webhook-id'] })
    const queued = (await runtime.deps.store.query(WEBHOOK_DELIVERIES, { index: 'due', limit: 10 })).items
    expect(queued.map((doc) => (doc.value as { id: string }).id)).toEqual([prepared.delivery.headers['webhook-id']])
  })

  it.each([
    ['plain http to a public host', { url: 'http://hooks.example.com/a' }, /https/],
    ['a loopback address', { url: 'https://127.0.0.1/a' }, /public address/],
    ['a metadata address', { url: 'https://169.254.169.254/latest' }, /public address/],
    ['a private IPv6 address', { url: 'https://[fd00::1]/a' }, /public address/],
    ['loopback as an IPv4-compatible IPv6 address', { url: 'https://[::127.0.0.1]/a' }, /public address/],
    ['loopback as an IPv4-mapped IPv6 address', { url: 'https://[::ffff:127.0.0.1]/a' }, /public address/],
    ['metadata behind the NAT64 prefix', { url: 'https://[64:ff9b::169.254.169.254]/latest' }, /public address/],
    ['localhost with the root\'s trailing dot', { url: 'https://localhost./a' }, /public address/],
    ['credentials in the URL', { url: 'https://user:pw@hooks.example.com/a' }, /credentials/],
    ['an unknown event type', { url: 'https://hooks.example.com/a', eventTypes: ['wallet.drained'] }, /published types/],
    ['no event type', { url: 'https://hooks.example.com/a', eventTypes: [] }, /at least one/],
    ['a control character in the description', { url: 'https://hooks.example.com/a', description: 'a\u0000b' }, /control/],
  ])('refuses %s with 400 and writes nothing', async (_name, body, reason) => {
    const before = await snapshot()
    const reply = await create(body)
    expect(reply).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput', message: expect.stringMatching(reason) })))
    expect(await snapshot()).toBe(before)
  })

  it('allows loopback http only where the deployment says so', async () => {
    runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0), deployment: { ...testDeployment(), businessAccounts: ['boss'], webhooks: { allowHttpLoopback: true, allowPrivateNetworks: true } } })
    await runtime.deps.store.declare((await import('./records.js')).webhookCollections)
    boss = await runtime.world.signIn('boss')
    expect(bodyOf<Created>(await create({ url: 'http://127.0.0.1:9999/hook' })).endpoint.url).toBe('http://127.0.0.1:9999/hook')
  })

  it('is for Business accounts only: a regular account is 403', async () => {
    expect(await create({ url: 'https://hooks.example.com/a' }, ada)).toEqual(E.left(expect.objectContaining({ _tag: 'Forbidden' })))
  })

  const writes: [string, () => Promise<unknown>][] = [
    ['create', () => create({ url: 'https://hooks.example.com/f' })],
    ['update', async () => runtime.call('updateWebhookEndpoint', { params: { endpointId: await existing() }, body: { enabled: false }, ...as(boss) })],
    ['rotate', async () => runtime.call('rotateWebhookSecret', { params: { endpointId: await existing() }, ...as(boss) })],
    ['delete', async () => runtime.call('deleteWebhookEndpoint', { params: { endpointId: await existing() }, ...as(boss) })],
    ['test event', async () => runtime.call('prepareWebhookTestEvent', { params: { endpointId: await existing() }, body: { eventType: 'creator.run.completed' }, ...as(boss) })],
  ]
  let endpointId: string | undefined
  const existing = async () => (endpointId ??= bodyOf<Created>(await create({ url: 'https://hooks.example.com/existing' })).endpoint.id)

  it.each(writes)('%s: a fault at any Store call writes nothing, unless the commit applied and only its reply was lost', async (_name, run) => {
    const store = runtime.deps.store
    const useStore = (next: typeof store) => { (runtime.deps as { store: typeof store }).store = next }
    endpointId = undefined
    await existing()
    const counting = withFaults(store, [])
    useStore(counting)
    await run()
    useStore(store)
    const calls = (['get', 'query', 'commit'] as StoreMethod[]).flatMap((method) => Array.from({ length: counting.callsOf(method) }, (_, i) => [method, i + 1] as const))
    expect(calls.some(([method]) => method === 'commit')).toBe(true)
    for (const [method, call] of calls) {
      for (const when of ['before', 'after'] as const) {
        endpointId = undefined
        await existing()
        const before = await snapshotOf(store)
        useStore(withFaults(store, [{ method, call, when }]))
        await expect(run()).rejects.toThrow(/Injected fault/)
        useStore(store)
        const after = await snapshotOf(store)
        if (method === 'commit' && when === 'after') expect(after, `${method} #${call} ${when}`).not.toBe(before)
        else expect(after, `${method} #${call} ${when}`).toBe(before)
      }
    }
  })
  const snapshotOf = async (store: RuntimeTestWorld['deps']['store']) => JSON.stringify([
    (await store.query(WEBHOOK_ENDPOINTS, { index: 'by_owner', limit: 1000 })).items,
    (await store.query(WEBHOOK_DELIVERIES, { index: 'due', limit: 1000 })).items,
  ])
})
