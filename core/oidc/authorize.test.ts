/** GET /api/oidc/authorize through the full in-process pipeline (test-double boundary, decoding, use case). */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  authorizeQuery, bodyOf, createOidcTestWorld, locationOf, PKCE, REDIRECT_URI, storeSnapshot, testDeployment, type OidcTestWorld, type SignedIn,
} from '../../hosts/http/oidc-test-support.js'
import { findClient } from './clients.js'
import { AUTHORIZATION_CODES } from './collections.js'
import { pushAuthorizationRequest } from './pushed-requests.js'
import { recordConsent } from './consent.js'
import type { AuthorizationCodeRecord } from './records.js'
import { secretKey } from './secrets.js'

let world: OidcTestWorld
let ada: SignedIn
beforeEach(async () => {
  world = await createOidcTestWorld()
  ada = await world.signIn('ada')
})

const authorizeAs = (who: SignedIn | undefined, overrides: Record<string, string | undefined> = {}) =>
  world.call('authorize', { query: authorizeQuery(overrides), credentials: who ? { sessionCookie: who.cookie } : {} })

/** Refused back to the client: the RFC 6749 §4.1.2.1 parameters, and nothing stored. */
async function expectErrorRedirect(overrides: Record<string, string | undefined>, error: string, who: SignedIn | 'anonymous' = ada) {
  const before = await storeSnapshot(world.deps)
  const location = locationOf(await authorizeAs(who === 'anonymous' ? undefined : who, overrides))
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI)
  expect(location.searchParams.get('error')).toBe(error)
  expect(location.searchParams.get('error_description')).toBeTruthy()
  expect(location.searchParams.get('iss')).toBe('https://cairn.test')
  expect(location.searchParams.get('state')).toBe(overrides.state === undefined && 'state' in overrides ? null : 'state-1')
  expect(location.searchParams.has('code')).toBe(false)
  expect(await storeSnapshot(world.deps)).toBe(before)
}

describe('authorize: success', () => {
  it('redirects with code, state and iss; stores the code by its hash, bound to everything', async () => {
    const location = locationOf(await authorizeAs(ada))
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI)
    expect(location.searchParams.get('state')).toBe('state-1')
    expect(location.searchParams.get('iss')).toBe('https://cairn.test')
    const code = location.searchParams.get('code')!
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const stored = await world.deps.store.get(AUTHORIZATION_CODES, secretKey(code))
    expect(stored?.value).toEqual({
      clientId: 'web', redirectUri: REDIRECT_URI, codeChallenge: PKCE.challenge, nonce: 'nonce-1', scopes: ['openid', 'profile', 'cairn:record'],
      userId: ada.userId, authTimeMs: world.clock.now(), grantId: expect.stringMatching(/^grt_/), issuedAtMs: world.clock.now(), expiresAtMs: world.clock.now() + 60_000, usedAtMs: null,
    } satisfies AuthorizationCodeRecord)
    expect(JSON.stringify(await storeSnapshot(world.deps))).not.toContain(code)
  })

  it('keeps a query the redirect URI already has, and omits state when none was sent', async () => {
    const withQuery = 'https://rp.example/other'
    const location = locationOf(await authorizeAs(ada, { redirect_uri: withQuery, state: undefined }))
    expect(location.searchParams.has('state')).toBe(false)
    expect(location.searchParams.has('code')).toBe(true)
  })

  it('lets a Business-tier account grant cairn:production', async () => {
    const boss = await world.signIn('boss')
    expect(locationOf(await authorizeAs(boss, { scope: 'openid cairn:production' })).searchParams.has('code')).toBe(true)
  })
})

describe('authorize: shown, never redirected (unknown client, bad redirect_uri)', () => {
  it.each([
    ['an unknown client', { client_id: 'nobody' }, /client_id nobody is not registered/],
    ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example/callback' }, /redirect_uri is missing or not one the client registered/],
    ['a redirect_uri differing by a trailing slash', { redirect_uri: `${REDIRECT_URI}/` }, /redirect_uri/],
    ['a missing client_id', { client_id: undefined }, /client_id/],
    ['a missing redirect_uri', { redirect_uri: undefined }, /redirect_uri/],
  ])('refuses %s with 400 and writes nothing', async (_name, overrides, message) => {
    const before = await storeSnapshot(world.deps)
    const result = await authorizeAs(ada, overrides)
    expect(result).toEqual(E.left({ _tag: 'InvalidInput', message: expect.stringMatching(message) }))
    expect(await storeSnapshot(world.deps)).toBe(before)
  })
})

describe('authorize: refused back to the client (RFC 6749 §4.1.2.1)', () => {
  it('requires PKCE', () => expectErrorRedirect({ code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'))
  it('requires the method', () => expectErrorRedirect({ code_challenge_method: undefined }, 'invalid_request'))
  it('refuses plain PKCE', () => expectErrorRedirect({ code_challenge_method: 'plain', code_challenge: PKCE.verifier }, 'invalid_request'))
  it('refuses a malformed challenge', () => expectErrorRedirect({ code_challenge: 'too-short' }, 'invalid_request'))
  it('refuses other response types', () => expectErrorRedirect({ response_type: 'token' }, 'unsupported_response_type'))
  it('refuses a missing response type', () => expectErrorRedirect({ response_type: undefined }, 'unsupported_response_type'))
  it('refuses unknown scopes', () => expectErrorRedirect({ scope: 'openid email' }, 'invalid_scope'))
  it('refuses a missing scope', () => expectErrorRedirect({ scope: undefined }, 'invalid_scope'))
  it('refuses scopes outside the client allow list', () => expectErrorRedirect({ client_id: 'partner', scope: 'openid cairn:wallet.read' }, 'invalid_scope'))
  it('refuses cairn:production from an account without Business tier', () => expectErrorRedirect({ scope: 'openid cairn:production' }, 'invalid_scope'))
  it('refuses unknown prompt values and none with others', async () => {
    await expectErrorRedirect({ prompt: 'sometimes' }, 'invalid_request')
    await expectErrorRedirect({ prompt: 'none login' }, 'invalid_request')
  })
  it('answers login_required to prompt=none without a session', () => expectErrorRedirect({ prompt: 'none' }, 'login_required', 'anonymous'))
  it('carries no state when none was sent', () => expectErrorRedirect({ state: undefined, response_type: 'token' }, 'unsupported_response_type'))
})

describe('authorize: sign-in', () => {
  it('sends a visitor without a session to /login with the whole request as next', async () => {
    const location = locationOf(await authorizeAs(undefined))
    expect(`${location.origin}${location.pathname}`).toBe('https://cairn.test/login')
    const next = location.searchParams.get('next')!
    expect(next.startsWith('/api/oidc/authorize?')).toBe(true)
    expect(Object.fromEntries(new URLSearchParams(next.split('?')[1]))).toEqual(authorizeQuery())
  })

  it('sends prompt=login to /login with login_after, so only a sign-in newer than the request completes it', async () => {
    const location = locationOf(await authorizeAs(ada, { prompt: 'login' }))
    expect(location.pathname).toBe('/login')
    const next = new URLSearchParams(location.searchParams.get('next')!.split('?')[1])
    expect(next.get('prompt')).toBe('login')
    expect(next.get('login_after')).toBe(String(world.clock.now()))
  })

  it('sends the visitor to the deployment\'s own sign-in page when one is configured', async () => {
    world = await createOidcTestWorld({ deployment: { ...testDeployment(), loginUrl: 'https://accounts.example/sign-in' } })
    const location = locationOf(await authorizeAs(undefined))
    expect(`${location.origin}${location.pathname}`).toBe('https://accounts.example/sign-in')
    // Another origin: a path-only next would resolve against the sign-in page's host.
    expect(location.searchParams.get('next')!.startsWith('https://cairn.test/api/oidc/authorize?')).toBe(true)
  })

  it('keeps the base URL path in next when Cairn is mounted under a prefix', async () => {
    world = await createOidcTestWorld({ baseUrl: 'https://example.com/cairn' })
    const location = locationOf(await authorizeAs(undefined))
    expect(location.toString().startsWith('https://example.com/cairn/login?next=%2Fcairn%2Fapi%2Foidc%2Fauthorize%3F')).toBe(true)
  })
})

describe('authorize: consent', () => {
  const partner = { client_id: 'partner', scope: 'openid cairn:record' }

  it('sends the browser to Cairn\'s consent page with the request to resume, writing nothing', async () => {
    const before = await storeSnapshot(world.deps)
    const location = locationOf(await authorizeAs(ada, partner))
    expect(`${location.origin}${location.pathname}`).toBe('https://cairn.test/consent')
    expect(Object.fromEntries(location.searchParams)).toEqual(authorizeQuery(partner))
    expect(await storeSnapshot(world.deps)).toBe(before)
  })

  it('answers consent_required to prompt=none', () => expectErrorRedirect({ ...partner, prompt: 'none' }, 'consent_required'))

  it('issues a code once consent covers the scopes; asks again for more', async () => {
    await recordConsent(world.deps, { userId: ada.userId, clientId: 'partner', scopes: ['openid', 'cairn:record'] })
    expect(locationOf(await authorizeAs(ada, partner)).searchParams.has('code')).toBe(true)
    expect(locationOf(await authorizeAs(ada, { ...partner, scope: 'openid cairn:record cairn:verify' })).pathname).toBe('/consent')
    expect(locationOf(await authorizeAs(ada, { ...partner, prompt: 'consent' })).pathname).toBe('/consent')
  })

  it('never asks for a first-party client', async () => {
    expect(locationOf(await authorizeAs(ada, { prompt: 'consent' })).searchParams.has('code')).toBe(true)
  })

  it('records consent per user and client, merged, with a ledger event; refuses what may not be granted', async () => {
    const first = await recordConsent(world.deps, { userId: ada.userId, clientId: 'partner', scopes: ['openid'] })
    const second = await recordConsent(world.deps, { userId: ada.userId, clientId: 'partner', scopes: ['cairn:record'] })
    expect(E.isRight(first) && E.isRight(second) && second.right.scopes).toEqual(['openid', 'cairn:record'])
    const events = (await world.deps.store.readStream('ledger.actions')).items.map((entry) => entry.value)
    expect(events).toEqual([expect.objectContaining({ kind: 'auth', action: 'consent_recorded' }), expect.objectContaining({ action: 'consent_recorded' })])
    expect(await recordConsent(world.deps, { userId: ada.userId, clientId: 'partner', scopes: ['cairn:wallet.read'] })).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput' })))
    expect(await recordConsent(world.deps, { userId: ada.userId, clientId: 'nobody', scopes: ['openid'] })).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
    expect(await recordConsent(world.deps, { userId: 'usr_nobody', clientId: 'partner', scopes: ['openid'] })).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
  })
})

describe('authorize: a pushed request answers once (RFC 9126 §4)', () => {
  it('lets only one of two racing answers of one request_uri issue a code, and refuses it afterwards', async () => {
    const pushed = await pushAuthorizationRequest(world.deps, findClient(world.deps, 'web')!, authorizeQuery())
    if (E.isLeft(pushed)) throw new Error(pushed.left.message)
    const answer = () => world.call('authorize', { query: { client_id: 'web', request_uri: pushed.right.request_uri }, credentials: { sessionCookie: ada.cookie } })
    const answers = await Promise.all([answer(), answer()])
    expect(answers.filter((reply) => E.isRight(reply) && locationOf(reply).searchParams.has('code'))).toHaveLength(1)
    expect(answers.filter(E.isLeft)).toEqual([E.left(expect.objectContaining({ _tag: 'InvalidInput', message: expect.stringMatching(/used already/) }))])
    expect((await world.deps.store.query(AUTHORIZATION_CODES, { index: 'byExpiresAt', limit: 10 })).items).toHaveLength(1)
    const before = await storeSnapshot(world.deps)
    expect(await answer()).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput' })))
    expect(await storeSnapshot(world.deps)).toBe(before)
  })
})
