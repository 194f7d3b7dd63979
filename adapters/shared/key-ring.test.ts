import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { eachTempDir } from '../../conformance/support/temp-dir.js'
import { FileKeyStore } from '../fs/file-key-store.js'
import { FixedClock } from '../memory/fixed-clock.js'
import { MemoryKeyStore } from '../memory/memory-key-store.js'

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
