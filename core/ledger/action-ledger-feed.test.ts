import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describeEnv, memoryDeps, type MemoryDeps } from '../../hosts/http/describe-env.js'
import { createCairnAuthenticator } from '../auth/cairn-authenticator.js'
import { components } from '../contract/components.js'
import { unauthenticated } from '../errors/domain-error.js'
import { identityCollections, identityUseCases } from '../identity/index.js'
import { commitWithActions } from './action-ledger.js'
import { readActionLedger, SCAN_BUDGET } from './action-ledger-feed.js'

const MINUTE = 60_000

/** `count` events, one a minute, by users u0, u1, … */
async function recordEvents(deps: MemoryDeps, count: number, from = 0): Promise<void> {
  for (let i = from; i < from + count; i++) {
    expect((await commitWithActions(deps, [], [{ kind: 'auth', action: `a${i}`, actorUserId: `u${i}` }])).ok).toBe(true)
    deps.clock.advance(MINUTE)
  }
}

const actionsOf = (page: { events: readonly { action: string }[] }) => page.events.map((e) => e.action)

describe('readActionLedger', () => {
  it('pages with cursors; nextCursor is where to continue and equals the cursor at the current end', async () => {
    const deps = memoryDeps()
    await recordEvents(deps, 5)
    const first = await readActionLedger(deps, { limit: 2 })
    if (E.isLeft(first)) throw new Error('first page')
    expect(actionsOf(first.right)).toEqual(['a0', 'a1'])
    const second = await readActionLedger(deps, { limit: 2, cursor: first.right.nextCursor! })
    const third = E.isRight(second) && (await readActionLedger(deps, { limit: 2, cursor: second.right.nextCursor! }))
    if (!third || E.isLeft(third) || E.isLeft(second)) throw new Error('pages')
    expect(actionsOf(second.right)).toEqual(['a2', 'a3'])
    expect(actionsOf(third.right)).toEqual(['a4'])
    const end = await readActionLedger(deps, { limit: 2, cursor: third.right.nextCursor! })
    expect(end).toEqual(E.right({ events: [], nextCursor: third.right.nextCursor }))

    await recordEvents(deps, 1, 5)
    const polled = await readActionLedger(deps, { limit: 2, cursor: third.right.nextCursor! })
    expect(E.isRight(polled) && actionsOf(polled.right)).toEqual(['a5'])
  })

  it('defaults to 50 events a page, and an empty ledger answers no cursor', async () => {
    const deps = memoryDeps()
    expect(await readActionLedger(deps, {})).toEqual(E.right({ events: [], nextCursor: null }))
    await recordEvents(deps, 60)
    const page = await readActionLedger(deps, {})
    expect(E.isRight(page) && page.right.events).toHaveLength(50)
  })

  it('skips events created before `since`', async () => {
    const deps = memoryDeps()
    await recordEvents(deps, 10)
    const page = await readActionLedger(deps, { since: new Date(deps.clock.now() - 3 * MINUTE).toISOString() })
    expect(E.isRight(page) && actionsOf(page.right)).toEqual(['a7', 'a8', 'a9'])
  })

  it('examines at most SCAN_BUDGET entries a request; the cursor continues the scan', async () => {
    const deps = memoryDeps()
    await recordEvents(deps, SCAN_BUDGET + 5)
    const since = new Date(deps.clock.now() - 2 * MINUTE).toISOString()
    const first = await readActionLedger(deps, { since })
    if (E.isLeft(first)) throw new Error('first')
    expect(first.right.events).toEqual([])
    expect(first.right.nextCursor).not.toBeNull()
    const second = await readActionLedger(deps, { since, cursor: first.right.nextCursor! })
    expect(E.isRight(second) && actionsOf(second.right)).toEqual([`a${SCAN_BUDGET + 3}`, `a${SCAN_BUDGET + 4}`])
  })

  it('refuses a cursor that is not one of this feed', async () => {
    const result = await readActionLedger(memoryDeps(), { cursor: 'not-a-cursor' })
    expect(E.isLeft(result) && result.left._tag).toBe('InvalidInput')
  })

  it('refuses a truncated cursor and one forged past the end, and still accepts the end cursor and a cursor entries have passed', async () => {
    const deps = memoryDeps()
    await recordEvents(deps, 3)
    const page = await readActionLedger(deps, { limit: 2 })
    const cursor = E.isRight(page) ? page.right.nextCursor! : ''
    for (const forged of [cursor.slice(1), cursor.slice(0, -1), '9999999999999999', '0000000000000004']) {
      const result = await readActionLedger(deps, { cursor: forged })
      expect([forged, E.isLeft(result) && result.left]).toEqual([forged, { _tag: 'InvalidInput', message: 'cursor is not a cursor of this feed' }])
    }
    const end = await readActionLedger(deps, { cursor: '0000000000000003' })
    expect(E.isRight(end) && end.right).toEqual({ events: [], nextCursor: '0000000000000003' })
    expect(E.isLeft(await readActionLedger(memoryDeps(), { cursor: '0000000000000001' }))).toBe(true) // an empty ledger has no positions
  })
})

function feedEnv() {
  const deps = memoryDeps()
  const noBearer = async () => E.left(unauthenticated('no tokens in this test'))
  return { deps, authenticator: createCairnAuthenticator({ deps, verifyBearer: noBearer }), useCases: identityUseCases, ready: deps.store.declare(identityCollections) }
}

describeEnv('GET /api/ledger/actions/public', feedEnv, ({ request, env }) => {
  it('answers an ActionLedgerFeed with pseudonymous actors only', async () => {
    await recordEvents(env().deps, 3)
    const response = await request('/api/ledger/actions/public?limit=2')
    expect(response.status).toBe(200)
    const feed = (await response.json()) as { nextCursor: string; events: { actor: string }[] }
    expect(E.isRight(components.ActionLedgerFeed.decode(feed))).toBe(true)
    expect(feed).toMatchObject({ ok: true, cursor: null, since: null, events: [{ kind: 'auth', action: 'a0', createdAt: '2026-06-25T00:00:00.000Z' }, { action: 'a1' }] })
    expect(JSON.stringify(feed)).not.toMatch(/"u[0-9]/)
    expect(feed.events.every((e) => /^actor_[0-9a-f]{24}$/.test(e.actor))).toBe(true)

    const next = await request(`/api/ledger/actions/public?limit=2&cursor=${feed.nextCursor}&since=2026-06-25T00:00:00Z`)
    expect(await next.json()).toMatchObject({ ok: true, cursor: feed.nextCursor, since: '2026-06-25T00:00:00Z', events: [{ action: 'a2' }] })
  })

  it('refuses bad paging values with 400', async () => {
    for (const query of ['limit=0', 'limit=201', 'since=yesterday', 'since=2026-13-45T99:99:99Z', 'cursor=zzz', 'cursor=000000000000001']) {
      const response = await request(`/api/ledger/actions/public?${query}`)
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ ok: false })
    }
  })
})
