/**
 * Metered Creator runs and Twin messages through the real Business boundary: charged once however
 * often a run is retried, refused without spending when the quote expired, the balance is short or
 * the generator fails, delivered to a standardwebhooks receiver, and only ever to the caller's own Twin.
 */
import type { Server } from 'node:http'
import * as E from 'fp-ts/lib/Either.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DeterministicTextGenerator, FixedClock } from '../../adapters/memory/index.js'
import { HttpWebhookSender } from '../../adapters/system/http-webhook-sender.js'
import { bodyOf, testDeployment, type SignedIn } from '../../hosts/http/oidc-test-support.js'
import { createRuntimeTestWorld, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { PortUnavailableError } from '../../ports/errors.js'
import type { TextGenerationRequest, TextGenerator } from '../../ports/text-generator.js'
import { collections } from '../usecases/collections.js'
import { issueValue, loadAccount, PRODUCTION_USAGE, trialBalance, walletAccount } from '../value/index.js'
import { idempotencyClaim, VALUE_IDEMPOTENCY } from '../value/idempotency.js'
import { CorruptDocumentError } from '../usecases/typed-collection.js'
import { deliverDueWebhooks } from '../webhooks/delivery-worker.js'
import { WEBHOOK_DELIVERIES } from '../webhooks/records.js'
import { startReceiver } from '../../hosts/http/webhook-receiver-test-support.js'
import { runMetered, type MeteredRunReply } from './metered-run.js'
import { DEFAULT_PRODUCTION_PRICING, quoteOf } from './pricing.js'
import { PRODUCTION_RUNS } from './runs.js'

// standardwebhooks checks delivery timestamps against the real clock, so the pinned time is now.
const T0 = Date.now()
const LATER = new Date(T0 + 10 * 60_000).toISOString()

/** The built-in generator, counting its calls and failing when told to. */
class CountingGenerator implements TextGenerator {
  readonly name = 'counting'
  calls = 0
  failing = false
  private readonly inner = new DeterministicTextGenerator()
  async generate(request: TextGenerationRequest) {
    this.calls++
    if (this.failing) throw new PortUnavailableError('TextGenerator', 'the model server is down')
    return this.inner.generate(request)
  }
  stream(request: TextGenerationRequest) {
    return this.inner.stream(request)
  }
}

let runtime: RuntimeTestWorld
let generator: CountingGenerator
let boss: SignedIn
const servers: Server[] = []

beforeEach(async () => {
  generator = new CountingGenerator()
  runtime = await createRuntimeTestWorld({
    clock: new FixedClock(T0), text: generator,
    deployment: { ...testDeployment(), businessAccounts: ['boss', 'carol'], webhooks: { allowHttpLoopback: true, allowPrivateNetworks: true } },
  })
  await runtime.deps.store.declare(collections)
  boss = await runtime.world.signIn('boss')
  const funded = await issueValue(runtime.deps, { userId: boss.userId, unit: 'phi', amount: '1000000', idempotencyKey: 'fund-boss' })
  expect(E.isRight(funded)).toBe(true)
})
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

const as = (who: SignedIn) => ({ credentials: { sessionCookie: who.cookie } })
const creatorRun = (body: Record<string, unknown>, who = boss) => runtime.call('runCreator', { body, ...as(who) })
const balanceOf = async (userId: string) => (await loadAccount(runtime.deps, 'phi', walletAccount(userId))).balance
/** Everything a run could write, to prove a refusal wrote none of it. */
const snapshot = async () => JSON.stringify(await Promise.all([
  runtime.deps.store.query(PRODUCTION_RUNS, { index: 'by_owner', limit: 1000 }),
  runtime.deps.store.query(WEBHOOK_DELIVERIES, { index: 'due', limit: 1000 }),
  trialBalance(runtime.deps).then((trial) => trial.accounts),
]))

describe('metered Creator runs', () => {
  it('charges the usage once, however often the same requestId is retried, and delivers a verified webhook', async () => {
    const receiver = await startReceiver(() => [secret])
    servers.push(receiver.server)
    const created = bodyOf<{ secret: string }>(await runtime.call('createWebhookEndpoint', { body: { url: receiver.url }, ...as(boss) }))
    const secret = created.secret
    const before = await balanceOf(boss.userId)

    const body = { requestId: 'req-1', quoteExpiresAt: LATER, prompt: 'Three lines about a cairn on a ridge' }
    const first = await creatorRun(body)
    const { run } = bodyOf<MeteredRunReply>(first)
    expect(run).toMatchObject({ kind: 'creator', requestId: 'req-1', model: 'cairn-deterministic-1' })
    expect(run.output.length).toBeGreaterThan(0)
    const charged = BigInt(run.chargedPhiMicro)
    expect(charged).toBe(DEFAULT_PRODUCTION_PRICING.runBasePhiMicro + BigInt(run.usage.inputTokens) + 4n * BigInt(run.usage.outputTokens))
    expect(charged <= BigInt(run.quotePhiMicro)).toBe(true)
    expect(await balanceOf(boss.userId)).toBe(before - charged)
    expect((await loadAccount(runtime.deps, 'phi', PRODUCTION_USAGE)).balance).toBe(charged)

    const retried = await creatorRun(body)
    expect(bodyOf(retried)).toEqual(bodyOf(first))
    expect(E.isRight(retried) && retried.right.kind === 'json' && retried.right.headers?.['idempotent-replayed']).toBe('true')
    expect(generator.calls).toBe(1)
    expect(await balanceOf(boss.userId)).toBe(before - charged)
    expect((await trialBalance(runtime.deps)).sums.phi).toBe(0n)

    const report = await deliverDueWebhooks(runtime.deps, { sender: new HttpWebhookSender({ allowHttpLoopback: true, allowPrivateNetworks: true }) })
    expect(report.delivered).toBe(1)
    expect(receiver.received).toHaveLength(1)
    expect(receiver.received[0]!.verifiedWith).toBe(secret)
    expect(receiver.received[0]!.event).toMatchObject({
      type: 'creator.run.completed',
      data: { runId: run.runId, requestId: 'req-1', output: run.output, creditsUsed: run.chargedPhiMicro, entryId: run.entryId },
    })
  })

  it('reports a saved run reply that does not decode as a corrupt stored record, generating and charging nothing', async () => {
    const body = { requestId: 'req-bad', quoteExpiresAt: LATER }
    const claim = idempotencyClaim('production_creator', boss.userId, 'req-bad', body)
    if (E.isLeft(claim)) throw new Error(claim.left.message)
    // A whole run reply but for its usage, stored as text.
    const reply = {
      ok: true,
      run: {
        runId: 'run_x', kind: 'creator', requestId: 'req-bad', username: null, threadId: null, output: 'text', model: 'm', usage: '3 tokens',
        quotePhiMicro: '10', chargedPhiMicro: '5', entryId: 'ent_x', createdAt: new Date(T0).toISOString(),
      },
    }
    const saved = { key: 'req-bad', requestDigest: claim.right.requestDigest, status: 'committed', reply, entryId: null, createdAt: new Date(T0).toISOString() }
    await runtime.deps.store.commit([{ kind: 'put', collection: VALUE_IDEMPOTENCY, key: claim.right.storeKey, value: saved, expect: { kind: 'absent' } }])
    const before = await snapshot()
    const retried = runMetered(runtime.deps, { kind: 'creator', ownerId: boss.userId, body, input: 'a prompt', system: '', username: null, threadId: null, eventType: 'creator.run.completed' })
    await expect(retried).rejects.toBeInstanceOf(CorruptDocumentError)
    await expect(retried).rejects.toThrow(`Stored document ${VALUE_IDEMPOTENCY}/${claim.right.storeKey} does not match its codec at reply.run.usage`)
    expect(generator.calls).toBe(0)
    expect(await snapshot()).toBe(before)
  })

  it('refuses the same requestId with another request, writing nothing', async () => {
    await creatorRun({ requestId: 'req-2', quoteExpiresAt: LATER, prompt: 'one' })
    const before = await snapshot()
    const reply = await creatorRun({ requestId: 'req-2', quoteExpiresAt: LATER, prompt: 'two' })
    expect(reply).toEqual(E.left(expect.objectContaining({ _tag: 'Unprocessable', message: expect.stringMatching(/requestId was already used/) })))
    expect(await snapshot()).toBe(before)
  })

  it('refuses an expired quote without generating or spending, yet answers a run already made from its requestId', async () => {
    const made = await creatorRun({ requestId: 'req-3', quoteExpiresAt: LATER, prompt: 'before expiry' })
    const before = await snapshot()
    const expired = await creatorRun({ requestId: 'req-4', quoteExpiresAt: new Date(T0 - 1).toISOString(), prompt: 'too late' })
    expect(expired).toEqual(E.left(expect.objectContaining({ _tag: 'Unprocessable', message: expect.stringMatching(/quote expired/) })))
    expect(generator.calls).toBe(1)
    expect(await snapshot()).toBe(before)
    ;(runtime.deps.clock as FixedClock).advance(20 * 60_000)
    expect(bodyOf(await creatorRun({ requestId: 'req-3', quoteExpiresAt: LATER, prompt: 'before expiry' }))).toEqual(bodyOf(made))
  })

  it('refuses a balance below the quote before generating, and a generator failure after, spending nothing', async () => {
    const carol = await runtime.world.signIn('carol')
    const poor = await issueValue(runtime.deps, { userId: carol.userId, unit: 'phi', amount: '10', idempotencyKey: 'fund-carol' })
    expect(E.isRight(poor)).toBe(true)
    const before = await snapshot()
    const short = await creatorRun({ requestId: 'req-5', quoteExpiresAt: LATER, prompt: 'anything' }, carol)
    expect(short).toEqual(E.left(expect.objectContaining({ _tag: 'Unprocessable', message: expect.stringMatching(/lower than this run's quote/) })))
    expect(generator.calls).toBe(0)

    generator.failing = true
    const failed = await creatorRun({ requestId: 'req-6', quoteExpiresAt: LATER, prompt: 'anything' })
    expect(failed).toEqual(E.left(expect.objectContaining({ _tag: 'Unavailable' })))
    expect(await snapshot()).toBe(before)
    generator.failing = false
    expect(E.isRight(await creatorRun({ requestId: 'req-6', quoteExpiresAt: LATER, prompt: 'anything' }))).toBe(true)
  })

  it('quotes the prompt and the largest output, and refuses a prompt past the limit with 400', async () => {
    expect(quoteOf(DEFAULT_PRODUCTION_PRICING, 'abc')).toBe(1000n + 1n + 512n * 4n)
    const long = await creatorRun({ requestId: 'req-7', quoteExpiresAt: LATER, prompt: 'x'.repeat(32_001) })
    expect(long).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput' })))
  })

  it('is for Business accounts only', async () => {
    const ada = await runtime.world.signIn('ada')
    expect(await creatorRun({ requestId: 'req-8', quoteExpiresAt: LATER, prompt: 'hi' }, ada)).toEqual(E.left(expect.objectContaining({ _tag: 'Forbidden' })))
  })
})

describe('metered Twin messages', () => {
  const message = (username: string, body: Record<string, unknown>, who = boss) => runtime.call('messageOwnedTwin', { params: { username }, body, ...as(who) })

  it('answer as the caller\'s own Twin, once per requestId, with the thread they name', async () => {
    const reply = bodyOf<MeteredRunReply>(await message('boss', { requestId: 'm-1', quoteExpiresAt: LATER, message: 'Are you free on Friday?', threadId: 'th-1' }))
    expect(reply.run).toMatchObject({ kind: 'twin', username: 'boss', threadId: 'th-1' })
    const deliveries = await runtime.deps.store.query(WEBHOOK_DELIVERIES, { index: 'due', limit: 10 })
    expect(deliveries.items).toHaveLength(0) // no endpoint subscribed: nothing enqueued
    expect(bodyOf(await message('boss', { requestId: 'm-1', quoteExpiresAt: LATER, message: 'Are you free on Friday?', threadId: 'th-1' }))).toEqual(reply)
    expect(generator.calls).toBe(1)
  })

  it('refuse another user\'s Twin with 403 and an unknown one with 404, writing nothing', async () => {
    await runtime.world.signIn('carol')
    const before = await snapshot()
    expect(await message('carol', { requestId: 'm-2', quoteExpiresAt: LATER, message: 'hi' })).toEqual(E.left(expect.objectContaining({ _tag: 'Forbidden' })))
    expect(await message('nobody-here', { requestId: 'm-3', quoteExpiresAt: LATER, message: 'hi' })).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
    expect(await snapshot()).toBe(before)
    expect(generator.calls).toBe(0)
  })
})
