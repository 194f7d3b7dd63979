import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { KeyPurpose } from '../../ports/key-store.js'
import { eachTempDir } from '../../conformance/support/temp-dir.js'
import { FileKeyStore } from '../fs/file-key-store.js'
import { FixedClock } from '../memory/fixed-clock.js'
import { MemoryKeyStore } from '../memory/memory-key-store.js'
import { KeyRing, memoryKeyRingStorage } from './key-ring.js'

const DAY = 24 * 60 * 60 * 1000
const T0 = Date.parse('2026-11-23T00:00:00Z')
const kids = (jwks: { keys: readonly { kid: string }[] }) => jwks.keys.map((jwk) => jwk.kid)

describe('key rotation schedule and publication windows (pinned clock)', () => {
  const dir = eachTempDir('cairn-key-ring-')

  it('replaces a token key once it is due, and unpublishes the retired one after the longest token lifetime', async () => {
    const clock = new FixedClock(T0)
    const keys = new MemoryKeyStore({ clock, tokenKeyRotationMs: 30 * DAY, maxTokenLifetimeMs: DAY })
    const first = await keys.current('RS256')
    clock.set(T0 + 30 * DAY - 1)
    expect((await keys.current('RS256')).kid).toBe(first.kid)
    clock.set(T0 + 30 * DAY)
    const second = await keys.current('RS256')
    expect(second.kid).not.toBe(first.kid)
    expect(kids(await keys.jwks())).toEqual([second.kid, first.kid])
    clock.set(T0 + 31 * DAY - 1) // a token signed with `first` just before it retired is still valid
    expect(kids(await keys.jwks())).toEqual([second.kid, first.kid])
    clock.set(T0 + 31 * DAY)
    expect(kids(await keys.jwks())).toEqual([second.kid])
  })

  it('publishes proof keys for good and rotates them only when asked', async () => {
    const clock = new FixedClock(T0)
    const keys = new MemoryKeyStore({ clock, tokenKeyRotationMs: 30 * DAY, maxTokenLifetimeMs: DAY })
    const first = await keys.current('EdDSA', 'proof')
    clock.set(T0 + 400 * DAY)
    expect((await keys.current('EdDSA', 'proof')).kid).toBe(first.kid)
    const second = await keys.rotate('EdDSA', 'proof')
    clock.set(T0 + 100 * 365 * DAY)
    expect(kids(await keys.jwks('proof'))).toEqual([second.kid, first.kid])
    await keys.rotate('EdDSA', 'proof')
    expect(kids(await keys.jwks('proof'))).toHaveLength(3)
  })

  it('rotates token keys only when asked when the schedule is off, and still unpublishes them after their window', async () => {
    const clock = new FixedClock(T0)
    const keys = new MemoryKeyStore({ clock, tokenKeyRotationMs: 0, maxTokenLifetimeMs: DAY })
    const first = await keys.current('ES256')
    clock.set(T0 + 1000 * DAY)
    expect((await keys.current('ES256')).kid).toBe(first.kid)
    const second = await keys.rotate('ES256')
    clock.advance(DAY)
    expect(kids(await keys.jwks())).toEqual([second.kid])
  })

  it('has two processes sharing a key file make one new key when it falls due, and drops unpublished token keys from the file', async () => {
    const file = join(dir().path, 'keys.json')
    const clock = new FixedClock(T0)
    const options = { file, clock, tokenKeyRotationMs: 30 * DAY, maxTokenLifetimeMs: DAY, refreshMs: 0 }
    const [a, b] = [new FileKeyStore(options), new FileKeyStore(options)]
    const first = await a.current('ES256')
    expect((await b.current('ES256')).kid).toBe(first.kid)
    clock.set(T0 + 30 * DAY)
    const [fromA, fromB] = await Promise.all([a.current('ES256'), b.current('ES256')])
    expect(fromA.kid).toBe(fromB.kid)
    expect(fromA.kid).not.toBe(first.kid)
    clock.set(T0 + 60 * DAY) // `first` left the JWKS at day 31; the next change leaves it out of the file too
    const third = await b.current('ES256')
    const stored = (JSON.parse(await readFile(file, 'utf8')) as { keys: { kid: string }[] }).keys.map((key) => key.kid)
    expect(stored).toEqual([fromA.kid, third.kid])
    expect(kids(await a.jwks())).toEqual([third.kid, fromA.kid])
  })

  it("publishes another process's new key at once, and signs with it after the refresh interval", async () => {
    const file = join(dir().path, 'keys.json')
    const clock = new FixedClock(T0)
    const [a, b, c] = [0, 1, 2].map(() => new FileKeyStore({ file, clock, refreshMs: 60_000 })) as [FileKeyStore, FileKeyStore, FileKeyStore]
    const first = await b.current('ES256')
    expect((await c.current('ES256')).kid).toBe(first.kid)
    const rotated = await a.rotate('ES256')
    expect((await b.current('ES256')).kid).toBe(first.kid) // retired but still published: what it signs verifies
    clock.advance(60_000)
    expect((await b.current('ES256')).kid).toBe(rotated.kid)
    expect(kids(await c.jwks())).toEqual([rotated.kid, first.kid]) // a verifier meeting the new kid finds it at once
    expect((await c.current('ES256')).kid).toBe(rotated.kid)
  })
})

type Step =
  | { readonly kind: 'current' | 'rotate'; readonly host: 0 | 1; readonly alg: 'EdDSA' | 'ES256'; readonly purpose: KeyPurpose }
  | { readonly kind: 'advance'; readonly ms: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constantFrom('current' as const, 'rotate' as const), host: fc.constantFrom(0 as const, 1 as const), alg: fc.constantFrom('EdDSA' as const, 'ES256' as const), purpose: fc.constantFrom<KeyPurpose>('token', 'proof') }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(1000, 12 * 60 * 60 * 1000, 5 * DAY, 29 * DAY) }),
)

describe('key ring invariants (fast-check, two hosts over one storage, pinned clock)', () => {
  it('keeps one current key per algorithm and purpose, publishes every key it signs with, and never unpublishes a proof key', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const clock = new FixedClock(T0)
        const storage = memoryKeyRingStorage()
        const options = { clock, tokenKeyRotationMs: 30 * DAY, maxTokenLifetimeMs: DAY, refreshMs: 0 }
        const hosts = [new KeyRing(storage, options), new KeyRing(storage, options)] as const
        const proofKids = new Set<string>()
        for (const taken of steps) {
          if (taken.kind === 'advance') {
            clock.advance(taken.ms)
            continue
          }
          const host = hosts[taken.host]
          const key = taken.kind === 'current' ? await host.current(taken.alg, taken.purpose) : await host.rotate(taken.alg, taken.purpose)
          expect(key).toMatchObject({ alg: taken.alg, purpose: taken.purpose })
          if (taken.purpose === 'proof') proofKids.add(key.kid)
          // What a host signs with is published, by every host, right now.
          for (const other of hosts) expect(kids(await other.jwks(taken.purpose))).toContain(key.kid)
          const records = await storage.read()
          for (const alg of ['EdDSA', 'ES256'] as const) {
            for (const purpose of ['token', 'proof'] as const) {
              expect(records.filter((record) => record.alg === alg && record.purpose === purpose && record.retiredAt === undefined).length).toBeLessThanOrEqual(1)
            }
          }
          // A retired token key is published exactly while its window lasts.
          const published = new Set(kids(await host.jwks('token')))
          for (const record of records.filter((kept) => kept.purpose === 'token' && kept.retiredAt !== undefined)) {
            expect(published.has(record.kid)).toBe(clock.now() < record.retiredAt! + DAY)
          }
        }
        expect(new Set(kids(await hosts[0].jwks('proof')))).toEqual(proofKids)
      }),
      { numRuns: 40 },
    )
  }, 120_000)
})
