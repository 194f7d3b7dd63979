import { describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { MemoryStore } from '../../adapters/memory/memory-store.js'
import type { Json, Store, Write } from '../../ports/store.js'
import { identityCollections } from '../identity/index.js'
import { DPOP_PROOFS } from '../auth/dpop.js'
import { AUTHORIZATION_CODES, GRANTS, oidcCollections, PUSHED_REQUESTS } from '../oidc/collections.js'
import { rateLimitCollection } from '../rate-limit/fixed-window.js'
import { REFRESH_TOKEN_SECONDS, ACCESS_TOKEN_SECONDS } from '../oidc/lifetimes.js'
import { sweepExpired } from './sweep-expired.js'
import { RUNTIME_CHALLENGES } from '../runtime/runtime-collections.js'
import * as E from 'fp-ts/lib/Either.js'
import { SeededEntropy } from '../../adapters/memory/seeded-entropy.js'
import { InjectedFaultError, withFaults, type Fault } from '../../conformance/fault-injection.js'
import type { Principal } from '../auth/principal.js'
import { issueLinkCode, LINK_CODE_LIFETIME_MS, LINK_CODES, usableLinkCode } from '../identity/link-codes.js'

const NOW = Date.parse('2026-06-25T00:00:00.000Z')
const HOUR = 3_600_000

async function world() {
  const store = new MemoryStore()
  await store.declare([...identityCollections, ...oidcCollections, rateLimitCollection])
  return { store, clock: new FixedClock(NOW) }
}
const put = (collection: string, key: string, value: Json): Write => ({ kind: 'put', collection, key, value, expect: { kind: 'absent' } })
const keys = async (store: Store, collection: string, index: string) => (await store.query(collection, { index, limit: 1000 })).items.map((d) => d.key)

describe('sweepExpired', () => {
  it('deletes expired pushed authorization requests and DPoP proof identifiers, and keeps live ones', async () => {
    const deps = await world()
    await deps.store.commit([
      put(PUSHED_REQUESTS, 'old', { clientId: 'web', params: {}, expiresAtMs: NOW - 60_000 }), put(PUSHED_REQUESTS, 'live', { clientId: 'web', params: {}, expiresAtMs: NOW + 60_000 }),
      put(DPOP_PROOFS, 'old', { expiresAtMs: NOW - 60_000 }), put(DPOP_PROOFS, 'live', { expiresAtMs: NOW + 60_000 }),
    ])
    const report = await sweepExpired(deps, { graceMs: 0 })
    expect(report).toMatchObject({ 'pushed authorization requests': 1, 'DPoP proof identifiers': 1 })
    expect(await keys(deps.store, PUSHED_REQUESTS, 'byExpiresAt')).toEqual(['live'])
    expect(await keys(deps.store, DPOP_PROOFS, 'byExpiresAt')).toEqual(['live'])
  })

  it('examines at most `batch` records per kind and run, oldest first, and never deletes one still needed', async () => {
    const deps = await world()
    const codes = Array.from({ length: 5 }, (_, i) => put(AUTHORIZATION_CODES, `c${i}`, { expiresAtMs: NOW - (5 - i) * 60_000 }))
    await deps.store.commit([...codes, put(AUTHORIZATION_CODES, 'live', { expiresAtMs: NOW + 60_000 })])
    const run = () => sweepExpired(deps, { batch: 2, graceMs: 0 })
    expect((await run())['authorization codes']).toBe(2)
    expect(await keys(deps.store, AUTHORIZATION_CODES, 'byExpiresAt')).toEqual(['c2', 'c3', 'c4', 'live'])
    await run()
    expect((await run())['authorization codes']).toBe(1)
    expect((await run())['authorization codes']).toBe(0)
    expect(await keys(deps.store, AUTHORIZATION_CODES, 'byExpiresAt')).toEqual(['live'])
  })

  it('keeps records within the grace after expiry', async () => {
    const deps = await world()
    await deps.store.commit([put(AUTHORIZATION_CODES, 'recent', { expiresAtMs: NOW - HOUR / 2 })])
    expect((await sweepExpired(deps))['authorization codes']).toBe(0)
    deps.clock.advance(HOUR)
    expect((await sweepExpired(deps))['authorization codes']).toBe(1)
  })

  it('deletes revoked grants only after their window, never live ones, and resumes a long scan on the next run', async () => {
    const deps = await world()
    const window = (REFRESH_TOKEN_SECONDS + ACCESS_TOKEN_SECONDS) * 1000
    const grant = (key: string, revokedAtMs: number | null) => put(GRANTS, key, { grantId: key, userId: 'u', clientId: 'c', revokedAtMs })
    await deps.store.commit([
      grant('live', null),
      grant('old1', NOW - window - 2 * HOUR),
      grant('old2', NOW - window - 3 * HOUR),
      ...Array.from({ length: 4 }, (_, i) => grant(`recent${i}`, NOW - i * HOUR)),
    ])
    const resume = new Map<string, string>()
    const runs: number[] = []
    for (let i = 0; i < 3; i++) runs.push((await sweepExpired(deps, { batch: 3, resume }))['revoked grants'] ?? 0)
    expect(runs.reduce((a, b) => a + b, 0)).toBe(2)
    const left = (await deps.store.query(GRANTS, { index: 'byUserClient', limit: 100 })).items.map((d) => d.key).sort()
    expect(left).toEqual(['live', 'recent0', 'recent1', 'recent2', 'recent3'])
  })

  it('leaves a record changed after it was read for a later run', async () => {
    const deps = await world()
    await deps.store.commit([put(AUTHORIZATION_CODES, 'a', { expiresAtMs: NOW - 2 * HOUR }), put(AUTHORIZATION_CODES, 'b', { expiresAtMs: NOW - 2 * HOUR })])
    const racing: Store = Object.assign(Object.create(deps.store) as Store, {
      commit: async (writes: readonly Write[]) => {
        const b = await deps.store.get(AUTHORIZATION_CODES, 'b')
        if (writes.length > 1 && b?.version === 1) await deps.store.commit([{ kind: 'put', collection: AUTHORIZATION_CODES, key: 'b', value: { expiresAtMs: NOW - 2 * HOUR, usedAtMs: NOW }, expect: { kind: 'version', version: 1 } }])
        return deps.store.commit(writes)
      },
    })
    expect((await sweepExpired({ store: racing, clock: deps.clock }))['authorization codes']).toBe(1)
    expect(await keys(deps.store, AUTHORIZATION_CODES, 'byExpiresAt')).toEqual(['b'])
  })

  it('deletes used runtime challenges after they expired and proof-authority grants after their token did, never other grants', async () => {
    const deps = await world()
    const grant = (grantId: string, extra: Record<string, Json>) => put(GRANTS, grantId, { grantId, userId: 'u', clientId: 'app', scopes: [], createdAtMs: NOW - HOUR, revokedAtMs: null, revokedReason: null, revokedAccessTokens: {}, ...extra })
    await deps.store.commit([
      put(RUNTIME_CHALLENGES, 'old', { expiresAtMs: NOW - 60_000 }), put(RUNTIME_CHALLENGES, 'live', { expiresAtMs: NOW + 60_000 }),
      grant('oauth', {}), grant('spent', { expiresAtMs: NOW - 60_000 }), grant('live', { expiresAtMs: NOW + 60_000 }),
    ])
    const report = await sweepExpired(deps, { graceMs: 0 })
    expect(report).toMatchObject({ 'used runtime challenges': 1, 'expired proof-authority grants': 1 })
    expect(await keys(deps.store, RUNTIME_CHALLENGES, 'byExpiresAt')).toEqual(['live'])
    expect((await keys(deps.store, GRANTS, 'byUserClient')).sort()).toEqual(['live', 'oauth'])
  })

  describe('link codes', () => {
    const MINUTE = 60_000
    const session: Extract<Principal, { kind: 'session' }> = { kind: 'session', userId: 'usr_ada', sessionId: 's-ada', businessTier: false, authTimeMs: NOW }
    /** Three codes: one used a minute after it was made, one that expired unused, one still live. */
    async function codes() {
      const deps = { ...(await world()), entropy: new SeededEntropy('link-codes') }
      const make = async () => {
        const made = await issueLinkCode(deps, { ...session, authTimeMs: deps.clock.now() })
        if (E.isLeft(made)) throw new Error(made.left.message)
        return made.right.code
      }
      await make() // expires unused
      deps.clock.advance(LINK_CODE_LIFETIME_MS + MINUTE)
      const used = await make()
      deps.clock.advance(MINUTE)
      const usable = await usableLinkCode(deps, used)
      if (E.isLeft(usable)) throw new Error(usable.left.message)
      await deps.store.commit([usable.right.consume(deps.clock.now())])
      const live = await make()
      return { deps, live, versions: async () => (await deps.store.query(LINK_CODES, { index: 'byExpiresAt', limit: 100 })).items.map((d) => [d.key, d.version]) }
    }

    it('deletes a used code after its use and an unused one after its expiry, each past the grace, never a live one', async () => {
      const { deps, live, versions } = await codes()
      expect((await sweepExpired(deps))['used or expired link codes']).toBe(0) // within the hour of grace
      deps.clock.advance(HOUR - 2 * MINUTE)
      expect((await sweepExpired(deps))['used or expired link codes']).toBe(1) // the one expired an hour ago
      deps.clock.advance(2 * MINUTE)
      const before = await versions()
      expect((await sweepExpired(deps))['used or expired link codes']).toBe(1) // the one used an hour ago, not yet expired + grace
      expect(await versions()).toEqual(before.slice(1))
      // The live code, expired meanwhile, goes too once no grace is asked for.
      expect((await sweepExpired(deps, { graceMs: 0 }))['used or expired link codes']).toBe(1)
      expect(E.isLeft(await usableLinkCode(deps, live))).toBe(true)
    })

    it('with no grace keeps only the live code, which still works', async () => {
      const { deps, live, versions } = await codes()
      expect((await sweepExpired(deps, { graceMs: 0 }))['used or expired link codes']).toBe(2)
      expect(await versions()).toHaveLength(1)
      expect(E.isRight(await usableLinkCode(deps, live))).toBe(true)
    })

    it('a fault at any Store call of a sweep leaves the live code whole, deletes all or none of a commit, and the next run finishes', async () => {
      const counted = await codes()
      const counting = withFaults(counted.deps.store, [])
      await sweepExpired({ store: counting, clock: counted.deps.clock }, { graceMs: 0 })
      const methods = ['declare', 'query', 'commit'] as const
      expect(counting.callsOf('commit')).toBe(1) // the one commit deleting both spent codes
      for (const method of methods) {
        for (let call = 1; call <= counting.callsOf(method); call++) {
          for (const when of ['before', 'after'] as const) {
            const fault: Fault = { method, call, when }
            const { deps, live, versions } = await codes()
            const before = await versions()
            await expect(sweepExpired({ store: withFaults(deps.store, [fault]), clock: deps.clock }, { graceMs: 0 }), JSON.stringify(fault)).rejects.toBeInstanceOf(InjectedFaultError)
            const after = await versions()
            expect(after, JSON.stringify(fault)).toEqual(method === 'commit' && when === 'after' ? before.slice(2) : before)
            expect(E.isRight(await usableLinkCode(deps, live))).toBe(true)
            await sweepExpired(deps, { graceMs: 0 })
            expect(await versions()).toEqual(before.slice(2))
          }
        }
      }
    })
  })
})
