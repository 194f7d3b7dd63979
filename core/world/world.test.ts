/**
 * The World: a visitor messages a Live Twin and the Twin answers through the TextGenerator; the
 * message and reply are stored together and published on the Twin's topic; rate limits trip at
 * the configured rate per visitor and per Twin; the profile and the public world come from what
 * is stored; bad input and a failed generation store nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { bodyOf, testDeployment } from '../../hosts/http/oidc-test-support.js'
import { createRuntimeTestWorld, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { PortUnavailableError } from '../../ports/errors.js'
import type { Json } from '../../ports/store.js'
import { collections } from '../usecases/collections.js'
import { openLiveTopic, threadTopic, twinTopic, WORLD_MESSAGES } from './index.js'

let runtime: RuntimeTestWorld
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ deployment: { ...testDeployment(), businessAccounts: ['ada'], world: { visitorPerMinute: 3, twinPerMinute: 5, newThreadsPerMinute: 5 } } })
  await runtime.deps.store.declare(collections)
})

const post = (username: string, body: unknown) => runtime.call('messageWorldProfile', { params: { username }, body })
const stored = async () => (await runtime.deps.store.query(WORLD_MESSAGES, { index: 'by_time', limit: 100 })).items.length

describe('visitor messages', () => {
  it('are answered by the Twin, stored with the reply, the reply published to the thread and metadata to the Twin\'s topic', async () => {
    const publicly: Json[] = []
    const inThread: Json[] = []
    await runtime.deps.events.subscribe(twinTopic('ada'), (message) => void publicly.push(message))
    const answer = bodyOf<{ thread: { threadId: string; threadSecret: string }; reply: { text: string; model: string } }>(await post('ada', { visitorId: 'visitor-0001', text: 'Hello Twin!' }))
    expect(answer.reply.text.length).toBeGreaterThan(0)
    expect(answer.reply.model).toBe('cairn-deterministic-1')
    expect(answer.thread.threadSecret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    await runtime.deps.events.subscribe(threadTopic(answer.thread.threadId), (message) => void inThread.push(message))
    const again = bodyOf<{ thread: { threadId: string; threadSecret?: string }; reply: { text: string } }>(await post('ada', { visitorId: 'visitor-0001', text: 'Me again', threadId: answer.thread.threadId, threadSecret: answer.thread.threadSecret }))
    expect(again.thread.threadId).toBe(answer.thread.threadId)
    expect(again.thread.threadSecret).toBeUndefined() // shown once, with the first answer
    expect(await stored()).toBe(2)
    await expect.poll(() => publicly.length).toBe(2)
    expect(publicly[0]).toEqual({ type: 'twin.activity', username: 'ada', messageId: expect.any(String), cursor: expect.any(String), kind: 'message', at: expect.any(String) })
    expect(JSON.stringify(publicly)).not.toContain(answer.reply.text)
    expect(JSON.stringify(publicly)).not.toContain(answer.thread.threadId)
    await expect.poll(() => inThread.length).toBe(1)
    expect(inThread[0]).toMatchObject({ type: 'twin.reply', username: 'ada', threadId: answer.thread.threadId, reply: again.reply.text })
  })

  it('take booking requests for future slots, previewed on the profile', async () => {
    const slot = new Date(runtime.deps.clock.now() + 86_400_000).toISOString()
    const booked = bodyOf<{ reply: { booking: { slotStart: string; status: string } } }>(await post('ada', { visitorId: 'visitor-0002', kind: 'booking', text: 'Coffee?', slotStart: slot }))
    expect(booked.reply.booking).toEqual({ slotStart: slot, status: 'requested' })
    const profile = bodyOf<{ profile: Record<string, unknown>; availability: { requestedSlots: string[] }; thread: { visitorMessages: number } }>(await runtime.call('getWorldProfile', { params: { username: 'ada' } }))
    expect(profile.profile).toMatchObject({ username: 'ada', promoted: false })
    expect(profile.availability.requestedSlots).toEqual([slot])
    expect(profile.thread.visitorMessages).toBe(1)
    expect(JSON.stringify(profile)).not.toContain('Coffee?')
  })

  it('trip the per-visitor and per-Twin limits with 429 and Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect(E.isRight(await post('ada', { visitorId: 'visitor-0003', text: `hi ${i}` }))).toBe(true)
    expect(await post('ada', { visitorId: 'visitor-0003', text: 'one more' })).toEqual(E.left(expect.objectContaining({ _tag: 'RateLimited', retryAfterSeconds: expect.any(Number) })))
    for (let i = 0; i < 2; i++) expect(E.isRight(await post('ada', { visitorId: `visitor-10${i}0`, text: 'hi' }))).toBe(true)
    expect(await post('ada', { visitorId: 'visitor-0200', text: 'hi' })).toEqual(E.left(expect.objectContaining({ _tag: 'RateLimited', message: expect.stringMatching(/ada's Twin/) })))
  })

  it('refuse bad input and unknown Twins with clear 4XX, storing nothing', async () => {
    const cases: [string, unknown, string][] = [
      ['ada', { text: 'no visitor' }, 'InvalidInput'],
      ['ada', { visitorId: 'short', text: 'hi' }, 'InvalidInput'],
      ['ada', { visitorId: 'visitor-0004', text: 'x'.repeat(2001) }, 'InvalidInput'],
      ['ada', { visitorId: 'visitor-0004', kind: 'booking', text: 'past', slotStart: '2020-01-01T00:00:00.000Z' }, 'InvalidInput'],
      ['nobody-here', { visitorId: 'visitor-0004', text: 'hi' }, 'NotFound'],
    ]
    for (const [username, body, tag] of cases) expect(await post(username, body)).toEqual(E.left(expect.objectContaining({ _tag: tag })))
    expect(await runtime.call('getWorldProfile', { params: { username: 'nobody-here' } })).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
    expect(await stored()).toBe(0)
  })

  it('store nothing when the Twin cannot answer', async () => {
    const failing = await createRuntimeTestWorld({
      deployment: testDeployment(),
      text: { name: 'down', generate: async () => { throw new PortUnavailableError('TextGenerator', 'down') }, stream: async function* () { yield* [] } },
    })
    await failing.deps.store.declare(collections)
    expect(await failing.call('messageWorldProfile', { params: { username: 'ada' }, body: { visitorId: 'visitor-0005', text: 'hi' } })).toEqual(E.left(expect.objectContaining({ _tag: 'Unavailable' })))
    expect((await failing.deps.store.query(WORLD_MESSAGES, { index: 'by_time', limit: 10 })).items).toHaveLength(0)
  })
})

describe('limits a single client cannot dodge', () => {
  type Answer = { thread: { threadId: string; threadSecret: string }; reply: { text: string } }
  const limited = async (world: Record<string, number>) => {
    runtime = await createRuntimeTestWorld({ deployment: { ...testDeployment(), businessAccounts: ['ada'], world } })
    await runtime.deps.store.declare(collections)
  }
  const from = (clientAddress: string, body: unknown) => runtime.call('messageWorldProfile', { params: { username: 'ada' }, body, clientAddress })

  it('one address rotating visitor ids hits the address limit, and an honest visitor elsewhere still gets through', async () => {
    await limited({ addressPerMinute: 4, visitorPerMinute: 10, twinPerMinute: 60 })
    for (let i = 0; i < 4; i++) expect(E.isRight(await from('203.0.113.66', { visitorId: `rotating-${i}000`, text: 'spam' }))).toBe(true)
    expect(await from('203.0.113.66', { visitorId: 'rotating-9999', text: 'spam' })).toEqual(E.left(expect.objectContaining({ _tag: 'RateLimited', message: expect.stringContaining('network address') })))
    // An IPv6 client roaming its /64 is one address.
    for (let i = 1; i <= 4; i++) expect(E.isRight(await from(`2001:db8:66:1::${i}`, { visitorId: `roaming-${i}000`, text: 'spam' }))).toBe(true)
    expect(await from('2001:db8:66:1:ffff::5', { visitorId: 'roaming-5000', text: 'spam' })).toEqual(E.left(expect.objectContaining({ _tag: 'RateLimited' })))
    expect(E.isRight(await from('198.51.100.7', { visitorId: 'honest-visitor', text: 'Hello!' }))).toBe(true)
    expect(await stored()).toBe(9)
  })

  it('keeps a share of the Twin\'s inbox for existing threads: a flood of new threads cannot lock a conversation out', async () => {
    await limited({ addressPerMinute: 100, visitorPerMinute: 100, twinPerMinute: 6, newThreadsPerMinute: 4 })
    const honest = bodyOf<Answer>(await from('198.51.100.7', { visitorId: 'honest-visitor', text: 'Hello!' }))
    for (let i = 0; i < 3; i++) expect(E.isRight(await from(`203.0.113.${i}`, { visitorId: `stranger-${i}000`, text: 'new thread' }))).toBe(true)
    expect(await from('203.0.113.9', { visitorId: 'stranger-9000', text: 'new thread' })).toEqual(E.left(expect.objectContaining({ _tag: 'RateLimited', message: expect.stringContaining('new conversations') })))
    const continued = { visitorId: 'honest-visitor', text: 'Still there?', threadId: honest.thread.threadId, threadSecret: honest.thread.threadSecret }
    expect(E.isRight(await from('198.51.100.7', continued))).toBe(true)
    expect(E.isRight(await from('198.51.100.7', continued))).toBe(true)
    expect(await from('198.51.100.7', continued)).toEqual(E.left(expect.objectContaining({ _tag: 'RateLimited', message: expect.stringContaining("ada's Twin") })))
  })

  it('a continuation that the thread\'s secret does not open is refused before it uses the inbox, storing nothing', async () => {
    await limited({ twinPerMinute: 3, newThreadsPerMinute: 3 })
    const honest = bodyOf<Answer>(await post('ada', { visitorId: 'honest-visitor', text: 'Hello!' }))
    const bob = await runtime.world.signIn('bob')
    expect(bob.userId).toBeDefined()
    const attempts: [string, unknown, string][] = [
      ['ada', { visitorId: 'stranger-0001', text: 'let me in', threadId: honest.thread.threadId, threadSecret: 'A'.repeat(43) }, 'NotFound'],
      ['ada', { visitorId: 'stranger-0001', text: 'let me in', threadId: 'th_unknown_thread', threadSecret: honest.thread.threadSecret }, 'NotFound'],
      ['ada', { visitorId: 'stranger-0001', text: 'let me in', threadId: honest.thread.threadId }, 'InvalidInput'],
      ['bob', { visitorId: 'stranger-0001', text: 'wrong Twin', threadId: honest.thread.threadId, threadSecret: honest.thread.threadSecret }, 'NotFound'],
    ]
    for (let round = 0; round < 3; round++) {
      for (const [username, body, tag] of attempts) expect(await post(username, body)).toEqual(E.left(expect.objectContaining({ _tag: tag })))
    }
    expect(JSON.stringify((await runtime.deps.store.query(WORLD_MESSAGES, { index: 'by_time', limit: 100 })).items)).not.toContain('let me in')
    expect(await stored()).toBe(1)
    // Twelve refused continuations later, the Twin's inbox still has room for the real one.
    expect(E.isRight(await post('ada', { visitorId: 'honest-visitor', text: 'Me again', threadId: honest.thread.threadId, threadSecret: honest.thread.threadSecret }))).toBe(true)
  })
})

describe('reading a thread', () => {
  it('needs its secret; the Twin\'s public topic replays metadata only', async () => {
    const first = bodyOf<{ thread: { threadId: string; threadSecret: string }; reply: { text: string } }>(await post('ada', { visitorId: 'visitor-0010', text: 'A private question' }))
    const second = bodyOf<{ reply: { text: string } }>(await post('ada', { visitorId: 'visitor-0010', text: 'And another', threadId: first.thread.threadId, threadSecret: first.thread.threadSecret }))
    const publicReplay = await openLiveTopic(runtime.deps, 'twin:ada', undefined)
    const seen = E.isRight(publicReplay) ? (await publicReplay.right.replayAfter('')).updates : []
    expect(seen).toHaveLength(2)
    expect(JSON.stringify(seen)).not.toContain(first.reply.text)
    expect(JSON.stringify(seen)).not.toContain(first.thread.threadId)
    for (const secret of [undefined, 'A'.repeat(43), first.thread.threadSecret.slice(1)]) {
      expect(await openLiveTopic(runtime.deps, `thread:${first.thread.threadId}`, secret)).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
    }
    const own = await openLiveTopic(runtime.deps, `thread:${first.thread.threadId}`, first.thread.threadSecret)
    expect(E.isRight(own)).toBe(true)
    const replies = E.isRight(own) ? (await own.right.replayAfter('')).updates : []
    expect(replies.map((update) => update['reply']).sort()).toEqual([first.reply.text, second.reply.text].sort()) // one pinned instant: order among equal times is by id
  })
})

describe('the public world', () => {
  it('shows promoted Twins as featured ventures and recently visited Twins in discovery', async () => {
    expect(bodyOf(await runtime.call('getWorldPublic'))).toEqual({ ok: true, districts: [], featuredVentures: [], discovery: { cards: [], nextCursor: null, twins: [] } })
    expect(await runtime.call('getWorldPublic', { query: { cursor: 'nope' } })).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput' })))
    await runtime.call('approveTwinPromotion', { body: { performance: { replies: 1 } }, token: await runtime.tokenFor(['cairn:twin.write']) })
    await post('ada', { visitorId: 'visitor-0006', text: 'hi' })
    const world = bodyOf<{ featuredVentures: { username: string }[]; discovery: { twins: { username: string }[] } }>(await runtime.call('getWorldPublic'))
    expect(world.featuredVentures.map((venture) => venture.username)).toEqual(['ada'])
    expect(world.discovery.twins.map((twin) => twin.username)).toEqual(['ada'])
    expect(bodyOf<{ profile: { promoted: boolean } }>(await runtime.call('getWorldProfile', { params: { username: 'ada' } })).profile.promoted).toBe(true)
  })
})

describe('a visitor message under a fault at every Store call', () => {
  it.each(['opening a thread', 'continuing a thread'])('%s stores the message with its reply (and thread) or nothing, and a retry stores it once', async (path) => {
    const { MemoryStore } = await import('../../adapters/memory/index.js')
    const { withFaults, InjectedFaultError } = await import('../../conformance/fault-injection.js')
    const { worldUseCases, WORLD_THREADS } = await import('./index.js')
    const { ANONYMOUS } = await import('../auth/principal.js')
    type AnyUseCase = import('../usecases/use-case.js').UseCase
    const visit = (deps: typeof runtime.deps, body: unknown) => (worldUseCases.messageWorldProfile as unknown as AnyUseCase)({ params: { username: 'ada' }, query: {}, body, principal: ANONYMOUS }, deps)
    // The thread a continuation continues is opened once, in the world every faulty run copies.
    const opened = path === 'continuing a thread' ? bodyOf<{ thread: { threadId: string; threadSecret: string } }>(await visit(runtime.deps, { visitorId: 'visitor-0007', text: 'first' })).thread : undefined
    const body = { visitorId: 'visitor-0007', text: 'hello', ...(opened ? { threadId: opened.threadId, threadSecret: opened.threadSecret } : {}) }
    const run = (deps: typeof runtime.deps) => visit(deps, body)
    const fresh = async () => {
      const store = new MemoryStore()
      await store.declare(collections)
      const copied = (await runtime.deps.store.query('identities', { index: 'byCreatedAt', limit: 10 })).items.map((doc) => ({ collection: 'identities', doc }))
      const thread = opened ? await runtime.deps.store.get(WORLD_THREADS, opened.threadId) : undefined
      for (const { collection, doc } of [...copied, ...(thread ? [{ collection: WORLD_THREADS, doc: { key: opened!.threadId, value: thread.value } }] : [])]) {
        await store.commit([{ kind: 'put', collection, key: doc.key, value: doc.value, expect: { kind: 'absent' } }])
      }
      return { ...runtime.deps, store }
    }
    const messages = async (deps: typeof runtime.deps) => (await deps.store.query(WORLD_MESSAGES, { index: 'by_time', limit: 10 })).items.length
    const clean = await fresh()
    const counting = withFaults(clean.store, [])
    expect(E.isRight(await run({ ...clean, store: counting }))).toBe(true)
    for (const method of ['get', 'getByUnique', 'query', 'commit'] as const) {
      for (let call = 1; call <= counting.callsOf(method); call++) {
        for (const when of ['before', 'after'] as const) {
          const deps = await fresh()
          await run({ ...deps, store: withFaults(deps.store, [{ method, call, when }]) }).catch((error: unknown) => {
            if (!(error instanceof InjectedFaultError)) throw error
          })
          const before = await messages(deps)
          expect(before).toBeLessThanOrEqual(1)
          expect(E.isRight(await run(deps)), `${method} #${call} ${when}`).toBe(true)
          expect(await messages(deps)).toBe(before + 1)
        }
      }
    }
  })
})
