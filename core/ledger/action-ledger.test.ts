import { describe, expect, it, vi } from 'vitest'
import { MemoryStore } from '../../adapters/memory/memory-store.js'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { SeededEntropy } from '../../adapters/memory/seeded-entropy.js'
import { verifyChain } from '../digest/chain.js'
import { createHash } from 'node:crypto'
import { MemoryKeyStore } from '../../adapters/memory/memory-key-store.js'
import { ACTION_LEDGER_STREAM, actorPseudonym, commitWithActions, pseudonymSecret } from './action-ledger.js'

const deps = () => ({ store: new MemoryStore(), clock: new FixedClock(Date.parse('2026-06-25T00:00:00.000Z')), entropy: new SeededEntropy('ledger'), keys: new MemoryKeyStore() })

describe('action ledger', () => {
  it('appends events in the same commit as the change, chained', async () => {
    const d = deps()
    await d.store.declare([{ name: 'things' }])
    const outcome = await commitWithActions(d, [{ kind: 'put', collection: 'things', key: 'a', value: { n: 1 }, expect: { kind: 'absent' } }], [
      { kind: 'identity_key', action: 'identity_created', actorUserId: 'u1' },
      { kind: 'auth', action: 'session_started', actorUserId: 'u1' },
    ])
    expect(outcome.ok).toBe(true)
    const page = await d.store.readStream(ACTION_LEDGER_STREAM)
    expect(page.items.map((e) => (e.value as { action: string }).action)).toEqual(['identity_created', 'session_started'])
    expect(verifyChain(null, page.items)).toBe(true)
    expect(page.items[0]!.value).toMatchObject({ actor: actorPseudonym(await pseudonymSecret(d.keys), 'u1'), createdAt: '2026-06-25T00:00:00.000Z', pulse: 12_800_074 })
  })

  it('writes no event when the change loses its race', async () => {
    const d = deps()
    await d.store.declare([{ name: 'things' }])
    const put = { kind: 'put', collection: 'things', key: 'a', value: { n: 1 }, expect: { kind: 'absent' } } as const
    await commitWithActions(d, [put], [{ kind: 'auth', action: 'first', actorUserId: null }])
    const second = await commitWithActions(d, [put], [{ kind: 'auth', action: 'second', actorUserId: null }])
    expect(second.ok).toBe(false)
    expect((await d.store.readStream(ACTION_LEDGER_STREAM)).items).toHaveLength(1)
  })

  it("takes the ledger's next position, so concurrent commits all land with one commit each", async () => {
    const d = deps()
    await d.store.declare([{ name: 'things' }])
    const commit = vi.spyOn(d.store, 'commit')
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        commitWithActions(d, [{ kind: 'put', collection: 'things', key: `k${i}`, value: { i }, expect: { kind: 'absent' } }], [
          { kind: 'record', action: `made_${i}`, actorUserId: `u${i}` },
        ]),
      ),
    )
    expect(results.every((r) => r.ok)).toBe(true)
    expect(commit).toHaveBeenCalledTimes(20)
    const page = await d.store.readStream(ACTION_LEDGER_STREAM, { limit: 100 })
    expect(page.items).toHaveLength(20)
    expect(verifyChain(null, page.items)).toBe(true)
  })

  it('never publishes the user id', async () => {
    const secret = await pseudonymSecret(new MemoryKeyStore())
    expect(actorPseudonym(secret, 'u1')).not.toContain('u1')
    expect(actorPseudonym(secret, 'u1')).toBe(actorPseudonym(secret, 'u1'))
    expect(actorPseudonym(secret, null)).toBe('cairn')
  })

  it('cannot be computed from the user id (the sub relying parties see) without the server secret (finding)', async () => {
    const d = deps()
    await commitWithActions(d, [], [{ kind: 'auth', action: 'session_started', actorUserId: 'usr_ada' }])
    const actor = ((await d.store.readStream(ACTION_LEDGER_STREAM)).items[0]!.value as { actor: string }).actor
    // What the old pseudonym was, and what any relying party holding the sub could compute:
    const public_ = `actor_${createHash('sha256').update('cairn.action-ledger.actor:usr_ada').digest('hex').slice(0, 24)}`
    expect(actor).not.toBe(public_)
    // Another deployment's keys give another pseudonym; the same keys give the same one.
    expect(actor).not.toBe(actorPseudonym(await pseudonymSecret(new MemoryKeyStore()), 'usr_ada'))
    expect(actor).toBe(actorPseudonym(await pseudonymSecret(d.keys), 'usr_ada'))
  })
})
