/**
 * Issue 8 §4: each security finding in the provider, reproduced. Every test here failed on the code
 * before its fix (the finding's name says which).
 */
import * as E from 'fp-ts/lib/Either.js'
import { decodeJwt } from 'jose'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  authorizeQuery, clientCredentials, createOidcTestWorld, locationOf, PKCE, REDIRECT_URI, storeSnapshot, type OidcTestWorld, type SignedIn,
} from '../../hosts/http/oidc-test-support.js'
import { GRANTS } from './collections.js'
import type { GrantRecord } from './records.js'

let world: OidcTestWorld
let ada: SignedIn
beforeEach(async () => {
  world = await createOidcTestWorld()
  ada = await world.signIn('ada')
})

const authorizeAs = (who: SignedIn | undefined, overrides: Record<string, string | undefined> = {}) =>
  world.call('authorize', { query: authorizeQuery(overrides), credentials: who ? { sessionCookie: who.cookie } : {} })
const exchange = (code: string, clientId: string, secret: string | undefined, overrides: Record<string, string> = {}) =>
  world.call('exchangeToken', {
    body: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: PKCE.verifier, ...overrides },
    credentials: clientCredentials(clientId, secret),
  })
const grantOf = async (accessToken: string) => (await world.deps.store.get(GRANTS, decodeJwt(accessToken).grant_id as string))?.value as unknown as GrantRecord

describe('a used code revokes its grant only for its own client, within its lifetime', () => {
  it('another client replaying a used code gets invalid_grant and the victim\'s grant stands', async () => {
    const code = locationOf(await authorizeAs(ada)).searchParams.get('code')!
    const tokens = (await exchange(code, 'web', 'web-secret')) as E.Right<{ kind: 'json'; body: { access_token: string } }>
    const before = await storeSnapshot(world.deps)
    const replay = await exchange(code, 'backend', 'backend-secret', { redirect_uri: 'https://evil.example/', code_verifier: 'x'.repeat(43) })
    expect(replay).toEqual(E.left(expect.objectContaining({ message: expect.stringMatching(/^invalid_grant: The authorization code was issued to another client/) })))
    expect(await storeSnapshot(world.deps)).toBe(before)
    expect((await grantOf(tokens.right.body.access_token)).revokedAtMs).toBeNull()
  })

  it('an expired used code found later (history, Referer, logs) revokes nothing', async () => {
    const code = locationOf(await authorizeAs(ada)).searchParams.get('code')!
    const tokens = (await exchange(code, 'web', 'web-secret')) as E.Right<{ kind: 'json'; body: { access_token: string } }>
    world.clock.advance(61_000)
    const before = await storeSnapshot(world.deps)
    expect(await exchange(code, 'web', 'web-secret')).toEqual(E.left(expect.objectContaining({ message: expect.stringMatching(/^invalid_grant: The authorization code has expired/) })))
    expect(await storeSnapshot(world.deps)).toBe(before)
    expect((await grantOf(tokens.right.body.access_token)).revokedAtMs).toBeNull()
  })
})

describe('prompt=login, prompt=select_account and max_age need a sign-in newer than the request', () => {
  for (const prompt of ['login', 'select_account']) {
    it(`following next with the old cookie does not get a code (prompt=${prompt})`, async () => {
      world.clock.advance(5_000)
      const login = locationOf(await authorizeAs(ada, { prompt }))
      expect(login.pathname).toBe('/login')
      const next = new URLSearchParams(login.searchParams.get('next')!.split('?')[1])
      world.clock.advance(5_000)
      const resumed = locationOf(await world.call('authorize', { query: Object.fromEntries(next), credentials: { sessionCookie: ada.cookie } }))
      expect(resumed.pathname).toBe('/login')
      expect(resumed.searchParams.has('code')).toBe(false)
      // A new sign-in after the request completes it.
      const fresh = await world.signIn('ada')
      const done = locationOf(await world.call('authorize', { query: Object.fromEntries(next), credentials: { sessionCookie: fresh.cookie } }))
      expect(done.searchParams.get('code')).toBeTruthy()
    })
  }

  it('max_age: an older sign-in is sent to sign in again; prompt=none gets login_required', async () => {
    world.clock.advance(120_000)
    expect(locationOf(await authorizeAs(ada, { max_age: '60' })).pathname).toBe('/login')
    expect(locationOf(await authorizeAs(ada, { max_age: '60', prompt: 'none' })).searchParams.get('error')).toBe('login_required')
    expect(locationOf(await authorizeAs(ada, { max_age: '600' })).searchParams.get('code')).toBeTruthy()
  })

  it('max_age=0 always asks, and the fresh sign-in then completes the request', async () => {
    world.clock.advance(1_000)
    const login = locationOf(await authorizeAs(ada, { max_age: '0' }))
    expect(login.pathname).toBe('/login')
    const next = Object.fromEntries(new URLSearchParams(login.searchParams.get('next')!.split('?')[1]))
    world.clock.advance(3_000)
    const fresh = await world.signIn('ada')
    expect(locationOf(await world.call('authorize', { query: next, credentials: { sessionCookie: fresh.cookie } })).searchParams.get('code')).toBeTruthy()
  })
})

describe('response_mode and request objects', () => {
  for (const mode of ['form_post', 'fragment', 'web_message']) {
    it(`refuses response_mode=${mode} instead of answering in the query`, async () => {
      const location = locationOf(await authorizeAs(ada, { response_mode: mode }))
      expect(location.searchParams.get('error')).toBe('invalid_request')
      expect(location.searchParams.has('code')).toBe(false)
    })
  }
  it('accepts response_mode=query', async () => {
    expect(locationOf(await authorizeAs(ada, { response_mode: 'query' })).searchParams.get('code')).toBeTruthy()
  })
  it('refuses request and request_uri with request_not_supported / request_uri_not_supported', async () => {
    expect(locationOf(await authorizeAs(ada, { request: 'eyJhbGciOiJub25lIn0.e30.' })).searchParams.get('error')).toBe('request_not_supported')
    expect(locationOf(await authorizeAs(ada, { request_uri: 'https://rp.example/req' })).searchParams.get('error')).toBe('request_uri_not_supported')
  })
})

describe('id_token_hint and login_hint', () => {
  async function idTokenOf(who: SignedIn): Promise<string> {
    const code = locationOf(await authorizeAs(who)).searchParams.get('code')!
    return ((await exchange(code, 'web', 'web-secret')) as E.Right<{ kind: 'json'; body: { id_token: string } }>).right.body.id_token
  }
  it('completes when the hint names the signed-in user, even once the ID token expired', async () => {
    const hint = await idTokenOf(ada)
    world.clock.advance(3_600_000)
    const fresh = await world.signIn('ada')
    expect(locationOf(await authorizeAs(fresh, { id_token_hint: hint, prompt: 'none' })).searchParams.get('code')).toBeTruthy()
  })
  it('answers login_required under prompt=none when the hint names someone else, and asks to sign in otherwise', async () => {
    const grace = await world.signIn('grace')
    const hint = await idTokenOf(grace)
    expect(locationOf(await authorizeAs(ada, { id_token_hint: hint, prompt: 'none' })).searchParams.get('error')).toBe('login_required')
    expect(locationOf(await authorizeAs(ada, { id_token_hint: hint })).pathname).toBe('/login')
    expect(locationOf(await authorizeAs(ada, { id_token_hint: 'not-a-jwt', prompt: 'none' })).searchParams.get('error')).toBe('login_required')
  })
  it('passes login_hint to the sign-in page', async () => {
    expect(locationOf(await authorizeAs(undefined, { login_hint: 'ada' })).searchParams.get('login_hint')).toBe('ada')
  })
})

describe('ID tokens carry auth_time and amr', () => {
  it('auth_time is the sign-in time, kept on refresh', async () => {
    const signedInAt = world.clock.now()
    world.clock.advance(30_000)
    const code = locationOf(await authorizeAs(ada, { max_age: '300' })).searchParams.get('code')!
    const tokens = ((await exchange(code, 'web', 'web-secret')) as E.Right<{ kind: 'json'; body: { id_token: string; refresh_token: string } }>).right.body
    expect(decodeJwt(tokens.id_token)).toMatchObject({ auth_time: signedInAt / 1000, amr: ['pop'] })
    const refreshed = (await world.call('exchangeToken', { body: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, credentials: clientCredentials('web', 'web-secret') })) as E.Right<{ kind: 'json'; body: { id_token: string } }>
    expect(decodeJwt(refreshed.right.body.id_token).auth_time).toBe(signedInAt / 1000)
  })
})
