import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto'
import { expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describeEnv, memoryDeps } from '../../hosts/http/describe-env.js'
import { MemoryStore } from '../../adapters/memory/memory-store.js'
import type { CommitOutcome, Write } from '../../ports/store.js'
import { createCairnAuthenticator } from '../auth/cairn-authenticator.js'
import { unauthenticated } from '../errors/domain-error.js'
import { ACTION_LEDGER_STREAM, actorPseudonym, pseudonymSecret } from '../ledger/action-ledger.js'
import { sha256Hex } from '../digest/sha256.js'
import { fromBase64Url, toBase64Url } from '../encoding/base64url.js'
import { ID_PROOF_CHALLENGES } from './id-proof-challenges.js'
import { getIdentityByUsername, IDENTITIES } from './identities.js'
import { IDENTITY_KEYS } from './identity-keys.js'
import { identityCollections, identityUseCases } from './index.js'
import { idProofMessageBytes, type IdContinueRequest } from './id-proof-message.js'
import { findActiveSession, SESSIONS } from './sessions.js'
import { signIdContinueRequest, signIdProofMessage } from './sign-id-proof.js'

/** A MemoryStore that counts the commits that wrote something. */
class CountingStore extends MemoryStore {
  writes = 0
  override async commit(writes: readonly Write[]): Promise<CommitOutcome> {
    const outcome = await super.commit(writes)
    if (outcome.ok) this.writes += 1
    return outcome
  }
}

function identityEnv(baseUrl = 'http://127.0.0.1:8787') {
  const store = new CountingStore()
  const deps = { ...memoryDeps({ baseUrl, store }), store }
  const noBearer = async () => E.left(unauthenticated('no tokens in this test'))
  return { deps, authenticator: createCairnAuthenticator({ deps, verifyBearer: noBearer }), useCases: identityUseCases, ready: deps.store.declare(identityCollections) }
}
type Env = ReturnType<typeof identityEnv>

const ed25519 = () => generateKeyPairSync('ed25519').privateKey
const p256 = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey

function proof(env: Env, privateKey: KeyObject, username: string, extra: { createdAt?: string; email?: string } = {}): IdContinueRequest {
  return signIdContinueRequest({ username, displayName: `${username} display`, localUid: `local-${username}`, ...(extra.email ? { email: extra.email } : {}) }, {
    privateKey, challenge: randomBytes(32), createdAt: extra.createdAt ?? new Date(env.deps.clock.now()).toISOString(), audience: env.deps.config.baseUrl,
  })
}

function post(body: unknown, cookie?: string): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie: `cairn_session=${cookie}; __Host-cairn_session=${cookie}` } : {}) }, body: JSON.stringify(body) }
}

function sessionCookieOf(response: Response): { value: string; attributes: string } {
  const header = response.headers.get('set-cookie') ?? ''
  const match = /^(?:__Host-)?cairn_session=([^;]+);\s*(.*)$/.exec(header)
  if (!match) throw new Error(`no session cookie in ${header}`)
  return { value: match[1]!, attributes: match[2]! }
}

/** Everything the identity collections and the ledger hold, read from the Store itself. */
async function storeContents(env: Env) {
  const all = async (collection: string, index: string) => (await env.deps.store.query(collection, { index, limit: 1000 })).items.map((d) => [d.key, d.version])
  return {
    commits: env.deps.store.writes,
    identities: await all(IDENTITIES, 'byCreatedAt'),
    keys: await all(IDENTITY_KEYS, 'byUserId'),
    sessions: await all(SESSIONS, 'byUserId'),
    challenges: await all(ID_PROOF_CHALLENGES, 'byUsedAt'),
    ledger: (await env.deps.store.streamHead(ACTION_LEDGER_STREAM)) ?? null,
  }
}

async function ledgerActions(env: Env) {
  return (await env.deps.store.readStream(ACTION_LEDGER_STREAM, { limit: 1000 })).items.map((e) => e.value as { kind: string; action: string; actor: string })
}

async function expectRefusedWritingNothing(env: Env, response: Promise<Response>, status: number, before: Awaited<ReturnType<typeof storeContents>>): Promise<string> {
  const answer = await response
  expect(answer.status).toBe(status)
  expect(answer.headers.get('set-cookie')).toBeNull()
  const body = (await answer.json()) as { ok: boolean; error: string }
  expect(body.ok).toBe(false)
  expect(await storeContents(env)).toEqual(before)
  return body.error
}

describeEnv('POST /api/auth/cairn-id/continue', identityEnv, ({ request, env }) => {
  const adaKey = ed25519()
  let adaCookie = ''
  let adaFirstProof: IdContinueRequest

  it('creates an identity for a new username, binds the key and starts a session', async () => {
    adaFirstProof = proof(env(), adaKey, 'Ada', { email: 'ada@example.com' })
    const response = await request('/api/auth/cairn-id/continue', post(adaFirstProof))
    expect(response.status).toBe(200)
    const body = (await response.json()) as { session: { uid: string } }
    const uid = body.session.uid
    expect(body).toEqual({
      ok: true, created: true, bound: true, next: '/api/connect/login/bootstrap/ada',
      session: { uid, email: 'ada@example.com', username: 'ada', displayName: 'Ada display' },
      accountBindings: [{ keyId: adaFirstProof.keyId, uid, boundAt: '2026-06-25T00:00:00.000Z' }],
    })
    const cookie = sessionCookieOf(response)
    expect(cookie.attributes).toBe('Path=/; Max-Age=604800; SameSite=Lax; HttpOnly')
    adaCookie = cookie.value

    const identity = await getIdentityByUsername(env().deps, 'ada')
    expect(identity?.record).toMatchObject({ userId: uid, username: 'ada', localUid: 'local-Ada', keys: [{ keyId: adaFirstProof.keyId, alg: 'EdDSA', publicKeyRawB64u: adaFirstProof.publicKeyRawB64u }] })
    expect((await env().deps.store.get(IDENTITY_KEYS, adaFirstProof.keyId))?.value).toMatchObject({ userId: uid })
    expect(await env().deps.store.get(ID_PROOF_CHALLENGES, sha256Hex(fromBase64Url(adaFirstProof.challengeB64Url)!))).toBeDefined()
    expect((await findActiveSession(env().deps, adaCookie))?.record.userId).toBe(uid)
    expect(await env().deps.store.get(SESSIONS, adaCookie)).toBeUndefined()
    const actions = await ledgerActions(env())
    expect(actions.map((a) => `${a.kind}/${a.action}`)).toEqual(['identity_key/identity_created', 'identity_key/key_bound', 'auth/session_started'])
    const secret = await pseudonymSecret(env().deps.keys)
    expect(actions.every((a) => a.actor === actorPseudonym(secret, uid))).toBe(true)
    expect(JSON.stringify(actions)).not.toContain(uid)
  })

  it('signs in when the key is already bound to the username (any capitalisation)', async () => {
    const before = await ledgerActions(env())
    const response = await request('/api/auth/cairn-id/continue', post(proof(env(), adaKey, 'ADA')))
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ ok: true, created: false, bound: false, session: { username: 'ada', email: 'ada@example.com' } })
    expect(sessionCookieOf(response).value).not.toBe(adaCookie)
    expect((await ledgerActions(env())).slice(before.length).map((a) => a.action)).toEqual(['session_started'])
  })

  it('refuses a new key for a taken username without a session of it (409), writing nothing', async () => {
    const before = await storeContents(env())
    const error = await expectRefusedWritingNothing(env(), request('/api/auth/cairn-id/continue', post(proof(env(), ed25519(), 'ada'))), 409, before)
    expect(error).toContain('username is taken')
  })

  it('refuses a new key for a taken username with a session of another identity (409), writing nothing', async () => {
    const other = await request('/api/auth/cairn-id/continue', post(proof(env(), ed25519(), 'mallory')))
    const malloryCookie = sessionCookieOf(other).value
    const before = await storeContents(env())
    await expectRefusedWritingNothing(env(), request('/api/auth/cairn-id/continue', post(proof(env(), p256(), 'ada'), malloryCookie)), 409, before)
  })

  it('binds a new ES256 key with a session of the identity, and ends that session', async () => {
    const before = await ledgerActions(env())
    const newKey = proof(env(), p256(), 'ada')
    const response = await request('/api/auth/cairn-id/continue', post(newKey, adaCookie))
    expect(response.status).toBe(200)
    const body = (await response.json()) as { created: boolean; bound: boolean; accountBindings: { keyId: string }[] }
    expect(body).toMatchObject({ ok: true, created: false, bound: true })
    expect(body.accountBindings.map((b) => b.keyId)).toEqual([adaFirstProof.keyId, newKey.keyId])
    expect((await getIdentityByUsername(env().deps, 'ada'))?.record.keys.map((k) => k.alg)).toEqual(['EdDSA', 'ES256'])
    expect(await findActiveSession(env().deps, adaCookie)).toBeUndefined()
    expect(await findActiveSession(env().deps, sessionCookieOf(response).value)).toBeDefined()
    // The implicit end of the previous session is not published (it would link accounts on a switch).
    expect((await ledgerActions(env())).slice(before.length).map((a) => a.action)).toEqual(['key_bound', 'session_started'])
  })

  it('ignores an invalid session cookie: the caller is anonymous', async () => {
    const response = await request('/api/auth/cairn-id/continue', post(proof(env(), ed25519(), 'grace'), 'not-a-session'))
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ created: true })
  })

  it('refuses a key already bound to another identity (409), writing nothing', async () => {
    const before = await storeContents(env())
    const error = await expectRefusedWritingNothing(env(), request('/api/auth/cairn-id/continue', post(proof(env(), adaKey, 'ada-two'))), 409, before)
    expect(error).toContain('already bound')
  })

  it('refuses a replayed proof (401), writing nothing', async () => {
    const before = await storeContents(env())
    const error = await expectRefusedWritingNothing(env(), request('/api/auth/cairn-id/continue', post(adaFirstProof)), 401, before)
    expect(error).toContain('challenge')
  })

  it('refuses a wrong signature, a signature by another key and a stale time (401), writing nothing', async () => {
    const before = await storeContents(env())
    const good = proof(env(), ed25519(), 'turing')
    const flipped = fromBase64Url(good.signatureB64Url)!
    flipped[0]! ^= 0x80
    const { signatureB64Url: _, ...fields } = good
    const byAnother = toBase64Url(signIdProofMessage('EdDSA', ed25519(), idProofMessageBytes(fields, env().deps.config.baseUrl)))
    const now = env().deps.clock.now()
    for (const body of [
      { ...good, signatureB64Url: toBase64Url(flipped) },
      { ...good, signatureB64Url: byAnother },
      proof(env(), ed25519(), 'turing', { createdAt: new Date(now - 11 * 60_000).toISOString() }),
      proof(env(), ed25519(), 'turing', { createdAt: new Date(now + 11 * 60_000).toISOString() }),
    ]) {
      await expectRefusedWritingNothing(env(), request('/api/auth/cairn-id/continue', post(body)), 401, before)
    }
  })

  it('lets exactly one of two racing creations of a username win; the other writes nothing', async () => {
    const [first, second] = await Promise.all([
      request('/api/auth/cairn-id/continue', post(proof(env(), ed25519(), 'racer'))),
      request('/api/auth/cairn-id/continue', post(proof(env(), p256(), 'racer'))),
    ])
    expect([first.status, second.status].sort()).toEqual([200, 409])
    expect((await getIdentityByUsername(env().deps, 'racer'))?.record.keys).toHaveLength(1)
  })

  it('accepts a proof sent twice at once only once', async () => {
    const twice = proof(env(), ed25519(), 'echo')
    const [first, second] = await Promise.all([request('/api/auth/cairn-id/continue', post(twice)), request('/api/auth/cairn-id/continue', post(twice))])
    expect([first.status, second.status].sort()).toEqual([200, 401])
  })

  it('does not publish the implicit end of a switched session next to the new account (finding: linkable switch)', async () => {
    const signedIn = await request('/api/auth/cairn-id/continue', post(proof(env(), ed25519(), 'switcher-one')))
    const before = await ledgerActions(env())
    const switched = await request('/api/auth/cairn-id/continue', post(proof(env(), ed25519(), 'switcher-two'), sessionCookieOf(signedIn).value))
    expect(switched.status).toBe(200)
    expect(await findActiveSession(env().deps, sessionCookieOf(signedIn).value)).toBeUndefined()
    expect((await ledgerActions(env())).slice(before.length).map((a) => a.action)).toEqual(['identity_created', 'key_bound', 'session_started'])
  })

  it('refuses lone UTF-16 surrogates in displayName, localUid and email with 400, never a 500 (finding)', async () => {
    const before = await storeContents(env())
    const good = proof(env(), ed25519(), 'surrogate')
    for (const body of [{ ...good, displayName: 'Ada \ud800' }, { ...good, localUid: 'local-\udfff' }, { ...good, email: 'a\ud800@example.com' }]) {
      const error = await expectRefusedWritingNothing(env(), request('/api/auth/cairn-id/continue', post(body)), 400, before)
      expect(error).toMatch(/well-formed Unicode|email/)
    }
  })

  it('refuses a request carrying two session cookies (cookie tossing) with 400 (finding)', async () => {
    const before = await storeContents(env())
    const init = post(proof(env(), ed25519(), 'tossed'))
    const headers = { ...(init.headers as Record<string, string>), cookie: `cairn_session=${'a'.repeat(43)}; cairn_session=${adaCookie}` }
    const error = await expectRefusedWritingNothing(env(), request('/api/auth/cairn-id/continue', { ...init, headers }), 400, before)
    expect(error).toMatch(/more than one cairn_session cookie/)
  })

  it('refuses malformed proofs (400), writing nothing', async () => {
    const before = await storeContents(env())
    const good = proof(env(), ed25519(), 'hopper')
    const { keyId: _, ...withoutKeyId } = good
    for (const body of [
      { ...good, keyId: proof(env(), ed25519(), 'hopper').keyId },
      { ...good, signatureB64Url: good.signatureB64Url.replace(/^./, '*') },
      { ...good, publicKeyRawB64u: `${good.publicKeyRawB64u}==` },
      { ...good, alg: 'RS256' },
      { ...good, alg: 'ES256' },
      { ...good, username: 'x' },
      withoutKeyId,
      {},
    ]) {
      await expectRefusedWritingNothing(env(), request('/api/auth/cairn-id/continue', post(body)), 400, before)
    }
  })
})

describeEnv('ID continue under an https base URL with a path', () => identityEnv('https://cairn.example/cairn'), ({ request, env }) => {
  it('sets a __Host- cookie (Secure, Path=/) and answers a next path under the base path', async () => {
    const response = await request('/api/auth/cairn-id/continue', post(proof(env(), ed25519(), 'lovelace')))
    expect(response.status).toBe(200)
    expect(response.headers.get('set-cookie')).toMatch(/^__Host-cairn_session=/)
    expect(sessionCookieOf(response).attributes).toBe('Path=/; Max-Age=604800; SameSite=Lax; HttpOnly; Secure')
    expect(await response.json()).toMatchObject({ next: '/cairn/api/connect/login/bootstrap/lovelace' })
  })
})
