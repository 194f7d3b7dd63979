/**
 * Issue 8 §4 finding: binding a key and minting a 365-day agent token needed only the ambient
 * cookie, so a stolen 7-day cookie became permanent control, and keys could not be unbound.
 */
import * as E from 'fp-ts/lib/Either.js'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import { createOidcTestWorld, storeSnapshot, type OidcTestWorld, type SignedIn } from '../../hosts/http/oidc-test-support.js'
import { identityUseCases } from './index.js'
import { executeOperation } from '../usecases/execute-operation.js'
import { operationsById } from '../contract/operations/index.js'
import { FRESH_SIGN_IN_MS } from './fresh-sign-in.js'
import { getIdentity, IDENTITIES, identityValue } from './identities.js'
import { bindKeyOwnerWrite, keyOwnerOf } from './identity-keys.js'
import { signIdContinueRequest } from './sign-id-proof.js'
import { unbindKey } from './unbind-key.js'

let world: OidcTestWorld
let ada: SignedIn
beforeEach(async () => {
  world = await createOidcTestWorld()
  ada = await world.signIn('ada')
})

const continueWith = (cookie: string) => {
  const request = signIdContinueRequest({ username: 'ada', displayName: 'Ada', localUid: 'local-ada' }, {
    privateKey: generateKeyPairSync('ed25519').privateKey, challenge: randomBytes(32), createdAt: new Date(world.clock.now()).toISOString(), audience: world.deps.config.baseUrl,
  })
  return executeOperation(operationsById.get('continueCairnId')!, { params: {}, query: {}, body: request, credentials: { sessionCookie: cookie } }, {
    deps: world.deps, authenticator: world.authenticator, useCases: identityUseCases,
  })
}

describe('a stale cookie cannot take lasting control of an account', () => {
  it('refuses to bind a new key with a session older than 5 minutes (403), writing nothing', async () => {
    world.clock.advance(FRESH_SIGN_IN_MS + 1)
    const before = await storeSnapshot(world.deps)
    expect(await continueWith(ada.cookie)).toEqual(E.left(expect.objectContaining({ _tag: 'Forbidden', message: expect.stringMatching(/recent sign-in/) })))
    expect(await storeSnapshot(world.deps)).toBe(before)
    expect((await getIdentity(world.deps, ada.userId))?.record.keys).toEqual([])
  })

  it('binds with a fresh sign-in', async () => {
    expect(E.isRight(await continueWith(ada.cookie))).toBe(true)
  })

  it('refuses to mint an agent token with a stale session, and mints with a fresh one', async () => {
    const body = { clientId: 'ci', scopes: ['cairn:record'], label: 'nightly' }
    world.clock.advance(FRESH_SIGN_IN_MS + 1)
    expect(await world.call('createAgentToken', { body, credentials: { sessionCookie: ada.cookie } })).toEqual(E.left(expect.objectContaining({ _tag: 'Forbidden' })))
    const fresh = await world.signIn('ada')
    expect(E.isRight(await world.call('createAgentToken', { body, credentials: { sessionCookie: fresh.cookie } }))).toBe(true)
  })
})

describe('unbinding a key', () => {
  async function withKeys(keyIds: string[]) {
    const identity = (await getIdentity(world.deps, ada.userId))!
    const keys = keyIds.map((keyId) => ({ keyId, alg: 'EdDSA' as const, publicKeyRawB64u: 'x', boundAt: identity.record.createdAt }))
    const outcome = await world.deps.store.commit([
      { kind: 'put', collection: IDENTITIES, key: ada.userId, value: identityValue({ ...identity.record, keys }), expect: { kind: 'version', version: identity.version } },
      ...keyIds.map((keyId) => bindKeyOwnerWrite({ keyId, userId: ada.userId, boundAt: identity.record.createdAt })),
    ])
    expect(outcome.ok).toBe(true)
  }

  it('removes the key from the account and frees it, with a key_unbound event', async () => {
    await withKeys(['k1', 'k2'])
    expect(await unbindKey(world.deps, ada.principal, 'k1')).toEqual(E.right({ keyId: 'k1', remainingKeyIds: ['k2'] }))
    expect((await getIdentity(world.deps, ada.userId))?.record.keys.map((key) => key.keyId)).toEqual(['k2'])
    expect(await keyOwnerOf(world.deps, 'k1')).toBeUndefined()
    const ledger = await world.deps.store.readStream('ledger.actions', { limit: 10 })
    expect(ledger.items.map((entry) => (entry.value as { action: string }).action)).toEqual(['key_unbound'])
  })

  it('refuses a stale session, an unknown key and the last key', async () => {
    await withKeys(['k1'])
    expect(await unbindKey(world.deps, ada.principal, 'nope')).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
    expect(await unbindKey(world.deps, ada.principal, 'k1')).toEqual(E.left(expect.objectContaining({ _tag: 'Conflict' })))
    world.clock.advance(FRESH_SIGN_IN_MS + 1)
    expect(await unbindKey(world.deps, ada.principal, 'k1')).toEqual(E.left(expect.objectContaining({ _tag: 'Forbidden' })))
  })
})
