/**
 * Link codes, the way back for a browser without the account's keys: a fresh session makes one; it
 * binds one new key to its own account, once, before it expires; every other use is refused and
 * writes nothing (attacks); and under a fault at any Store call the key is bound iff the code is used.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { memoryDeps, type MemoryDeps } from '../../hosts/http/describe-env.js'
import { InjectedFaultError, withFaults } from '../../conformance/fault-injection.js'
import type { Principal } from '../auth/principal.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { continueWithLinkCode } from './continue-cairn-id.js'
import { getIdentityByUsername } from './identities.js'
import { identityCollections } from './index.js'
import { issueLinkCode, LINK_CODE_LIFETIME_MS, LINK_CODE_REFUSED, LINK_CODES } from './link-codes.js'
import { signIdContinueRequest } from './sign-id-proof.js'

let deps: MemoryDeps
beforeEach(async () => {
  deps = memoryDeps()
  await deps.store.declare(identityCollections)
})

const signed = (username: string, on: CoreDeps = deps) => signIdContinueRequest({ username, displayName: username, localUid: `local-${username}` }, {
  privateKey: generateKeyPairSync('ed25519').privateKey, challenge: randomBytes(32), createdAt: new Date(on.clock.now()).toISOString(), audience: on.config.baseUrl,
})
const ANONYMOUS: Principal = { kind: 'anonymous' }
const cont = (username: string, code: string | undefined, on: CoreDeps = deps) => continueWithLinkCode({ params: {}, query: {}, body: signed(username, on) as never, principal: ANONYMOUS }, on, code)

async function signUp(username: string): Promise<Principal> {
  const created = await cont(username, undefined)
  if (E.isLeft(created)) throw new Error(created.left.message)
  const identity = (await getIdentityByUsername(deps, username))!.record
  return { kind: 'session', userId: identity.userId, sessionId: `s-${username}`, businessTier: false, authTimeMs: deps.clock.now() }
}
const keysOf = async (username: string) => (await getIdentityByUsername(deps, username))!.record.keys.length
const codes = async () => (await deps.store.query(LINK_CODES, { index: 'byExpiresAt', limit: 100 })).items.map((doc) => [doc.key, doc.version])

describe('link codes', () => {
  it('a fresh session makes a code that binds one new key to its account, once', async () => {
    const grace = await signUp('grace')
    const made = await issueLinkCode(deps, grace)
    if (E.isLeft(made)) throw new Error(made.left.message)
    expect(made.right.code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/)
    expect(E.isRight(await cont('grace', made.right.code.toLowerCase().replace('-', '')))).toBe(true)
    expect(await keysOf('grace')).toBe(2)
    const again = await cont('grace', made.right.code)
    expect(E.isLeft(again) && again.left.message).toBe(LINK_CODE_REFUSED)
    expect(await keysOf('grace')).toBe(2)
  })

  it('refuses a stale session, another account\'s username, an expired code and no session at all, writing nothing (attacks)', async () => {
    const grace = await signUp('grace')
    await signUp('mallory')
    const stale = await issueLinkCode({ ...deps, clock: { now: () => deps.clock.now() + 10 * 60_000 } }, grace)
    expect(E.isLeft(stale) && stale.left._tag).toBe('Forbidden')
    expect(E.isLeft(await issueLinkCode(deps, ANONYMOUS))).toBe(true)
    expect(await codes()).toEqual([])

    const made = await issueLinkCode(deps, grace)
    if (E.isLeft(made)) throw new Error(made.left.message)
    const before = await codes()
    // grace's code cannot add a key to mallory's account.
    const elsewhere = await cont('mallory', made.right.code)
    expect(E.isLeft(elsewhere) && elsewhere.left._tag).toBe('Conflict')
    expect(await keysOf('mallory')).toBe(1)
    // A code nobody made, and grace's once expired.
    expect(E.isLeft(await cont('grace', 'AAAAA-AAAAA'))).toBe(true)
    deps.clock.advance(LINK_CODE_LIFETIME_MS)
    const expired = await cont('grace', made.right.code)
    expect(E.isLeft(expired) && expired.left.message).toBe(LINK_CODE_REFUSED)
    expect(await keysOf('grace')).toBe(1)
    expect(await codes()).toEqual(before)
  })

  it('under a fault at any Store call, the key is bound if and only if the code is used, and a retry completes it', async () => {
    const grace = await signUp('grace')
    const usedCodes = async () => (await deps.store.query(LINK_CODES, { index: 'byExpiresAt', limit: 100 })).items.filter((doc) => (doc.value as { usedAtMs: number | null }).usedAtMs !== null).length
    let faults = 0
    for (const method of ['get', 'getByUnique', 'commit'] as const) {
      for (const when of ['before', 'after'] as const) {
        const made = await issueLinkCode(deps, grace)
        if (E.isLeft(made)) throw new Error(made.left.message)
        const [keys, used] = [await keysOf('grace'), await usedCodes()]
        const faulty = withFaults(deps.store, [{ method, call: 1, when }])
        await cont('grace', made.right.code, { ...deps, store: faulty }).catch((error: unknown) => {
          if (!(error instanceof InjectedFaultError)) throw error
          faults += 1
        })
        expect((await keysOf('grace')) - keys).toBe((await usedCodes()) - used)
        await cont('grace', made.right.code) // the retry, healthy store: binds now, or is refused as used
        expect([(await keysOf('grace')) - keys, (await usedCodes()) - used]).toEqual([1, 1])
      }
    }
    expect(faults).toBeGreaterThan(0)
  })
})
