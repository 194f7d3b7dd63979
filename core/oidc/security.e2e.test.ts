/**
 * Attacks against a listening host over plain HTTP: each is refused with the right status and
 * the contract's error shape, and — except where a refusal must revoke — nothing is written
 * (the Store and the action ledger are read directly).
 */
import { generateKeyPair, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { PKCE, REDIRECT_URI, useSharedOidcTestHost, storeSnapshot, type OidcTestHost, type SignedIn } from '../../hosts/http/oidc-test-support.js'
import { toBase64Url } from '../encoding/base64url.js'
import { signJwt } from './sign-jwt.js'

let host: OidcTestHost
let ada: SignedIn
useSharedOidcTestHost((h, a) => {
  host = h
  ada = a
})

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`
const WEB_AUTH = basic('web', 'web-secret')

function authorize(params: Record<string, string | undefined> = {}) {
  const query: Record<string, string> = {}
  const all = { response_type: 'code', client_id: 'web', redirect_uri: REDIRECT_URI, scope: 'openid profile', state: 's1', nonce: 'n1', code_challenge: PKCE.challenge, code_challenge_method: 'S256', ...params }
  for (const [name, value] of Object.entries(all)) if (value !== undefined) query[name] = value
  return fetch(`${host.url}/api/oidc/authorize?${new URLSearchParams(query)}`, { redirect: 'manual', headers: { cookie: ada.cookieHeader } })
}

async function code(): Promise<string> {
  const response = await authorize()
  expect(response.status).toBe(302)
  return new URL(response.headers.get('location')!).searchParams.get('code')!
}

const post = (path: string, form: Record<string, string>, authorization: string | null = WEB_AUTH) =>
  fetch(`${host.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) }, body: new URLSearchParams(form) })

const exchange = (codeText: string, overrides: Record<string, string> = {}) =>
  post('/api/oidc/token', { grant_type: 'authorization_code', code: codeText, redirect_uri: REDIRECT_URI, code_verifier: PKCE.verifier, ...overrides })

const userinfo = (accessToken: string) => fetch(`${host.url}/api/oidc/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } })

async function tokens(): Promise<{ access_token: string; refresh_token: string }> {
  const response = await exchange(await code())
  expect(response.status).toBe(200)
  return response.json()
}

/** Runs `attack`, expects `status` and an `{ ok: false, error }` body matching `error`, and an unchanged Store. */
async function refusedCleanly(attack: () => Promise<Response>, status: number, error: RegExp) {
  const before = await storeSnapshot(host.deps)
  const response = await attack()
  expect(response.status).toBe(status)
  const body = (await response.json()) as { ok: false; error: string; error_description?: string }
  expect(body.ok).toBe(false)
  // OAuth refusals: RFC 6749 §5.2 — the bare code in `error`, the sentence in `error_description`.
  if (body.error_description !== undefined) expect(body.error).toMatch(/^[a-z_]+$/)
  expect(body.error_description === undefined ? body.error : `${body.error}: ${body.error_description}`).toMatch(error)
  expect(await storeSnapshot(host.deps)).toBe(before)
  return response
}

describe('token endpoint attacks', () => {
  it('refuses a wrong PKCE verifier (400 invalid_grant)', async () => {
    const c = await code()
    await refusedCleanly(() => exchange(c, { code_verifier: 'W'.repeat(43) }), 400, /^invalid_grant: /)
  })
  it('refuses a mismatched redirect_uri (400 invalid_grant)', async () => {
    const c = await code()
    await refusedCleanly(() => exchange(c, { redirect_uri: 'https://rp.example/other' }), 400, /^invalid_grant: /)
  })
  it('refuses a wrong client secret (401 invalid_client) and a public client posing as a confidential one', async () => {
    const c = await code()
    await refusedCleanly(() => post('/api/oidc/token', { grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT_URI, code_verifier: PKCE.verifier }, basic('web', 'nope')), 401, /client credentials are not valid/)
    await refusedCleanly(() => post('/api/oidc/token', { grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT_URI, code_verifier: PKCE.verifier, client_id: 'web' }, null), 401, /client credentials are not valid/)
  })
  it('answers tokens with Cache-Control: no-store', async () => {
    const response = await exchange(await code())
    expect(response.headers.get('cache-control')).toBe('no-store')
  })
  it('refuses a reused code and revokes the tokens it issued', async () => {
    const c = await code()
    const first = await (await exchange(c)).json() as { access_token: string; refresh_token: string }
    expect((await userinfo(first.access_token)).status).toBe(200)
    const reuse = await exchange(c)
    expect(reuse.status).toBe(400)
    expect(await reuse.json()).toEqual({ ok: false, error: 'invalid_grant', error_description: expect.stringMatching(/^The authorization code was already used/) })
    expect((await userinfo(first.access_token)).status).toBe(401)
    expect((await post('/api/oidc/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token })).status).toBe(400)
  })
  it('refuses a reused refresh token and revokes the whole grant', async () => {
    const first = await tokens()
    const second = await (await post('/api/oidc/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token })).json() as { access_token: string; refresh_token: string }
    const reuse = await post('/api/oidc/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token })
    expect(reuse.status).toBe(400)
    for (const access of [first.access_token, second.access_token]) expect((await userinfo(access)).status).toBe(401)
    await refusedCleanly(() => post('/api/oidc/token', { grant_type: 'refresh_token', refresh_token: second.refresh_token }), 400, /^invalid_grant: The refresh token has been revoked/)
  })
})

describe('authorization endpoint attacks', () => {
  async function errorRedirect(params: Record<string, string | undefined>, error: string) {
    const before = await storeSnapshot(host.deps)
    const response = await authorize(params)
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get('location')!)
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI)
    expect(Object.fromEntries(location.searchParams)).toEqual({ error, error_description: expect.any(String), state: 's1', iss: host.url })
    expect(await storeSnapshot(host.deps)).toBe(before)
  }
  it('refuses a missing PKCE challenge (error redirect invalid_request)', () => errorRedirect({ code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'))
  it('refuses plain PKCE (error redirect invalid_request)', () => errorRedirect({ code_challenge_method: 'plain', code_challenge: PKCE.verifier }, 'invalid_request'))
  it('never redirects to an unregistered redirect_uri (400)', () => refusedCleanly(() => authorize({ redirect_uri: 'https://evil.example/callback' }), 400, /redirect_uri/))
  it('never redirects for an unknown client (400)', () => refusedCleanly(() => authorize({ client_id: 'evil' }), 400, /client_id/))
})

describe('bearer attacks', () => {
  const encode = (value: unknown) => toBase64Url(new TextEncoder().encode(JSON.stringify(value)))
  async function claims() {
    const { access_token } = await tokens()
    return JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>
  }

  it('refuses an expired access token (401)', async () => {
    const { access_token } = await tokens()
    host.clock.advance(600_000)
    try {
      await refusedCleanly(() => userinfo(access_token), 401, /expired/)
    } finally {
      host.clock.advance(-600_000)
    }
  })
  it('refuses a revoked access token (401)', async () => {
    const { access_token } = await tokens()
    expect((await post('/api/oidc/revoke', { token: access_token })).status).toBe(200)
    await refusedCleanly(() => userinfo(access_token), 401, /revoked/)
  })
  it('refuses alg none (401)', async () => {
    const unsigned = `${encode({ alg: 'none', typ: 'at+jwt' })}.${encode(await claims())}.`
    await refusedCleanly(() => userinfo(unsigned), 401, /not valid/)
  })
  it('refuses a token signed by a foreign key (401)', async () => {
    const foreign = await generateKeyPair('ES256')
    const forged = await new SignJWT(await claims()).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'foreign' }).sign(foreign.privateKey)
    await refusedCleanly(() => userinfo(forged), 401, /not valid/)
  })
  it('refuses Cairn-signed tokens for another audience or from another issuer (401)', async () => {
    const base = await claims()
    await refusedCleanly(async () => userinfo(await signJwt(host.deps, 'at+jwt', { ...base, aud: 'https://elsewhere.example' })), 401, /not valid/)
    await refusedCleanly(async () => userinfo(await signJwt(host.deps, 'at+jwt', { ...base, iss: 'https://elsewhere.example' })), 401, /not valid/)
  })
  it('answers 401 with WWW-Authenticate to a missing token', async () => {
    const response = await refusedCleanly(() => fetch(`${host.url}/api/oidc/userinfo`), 401, /bearer access token/)
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/)
  })
})

describe('RFC 6750 §3 challenges and RFC 6749 §5.2 bodies (issue 8 §1)', () => {
  it('answers a bad token with 401 and WWW-Authenticate: Bearer error="invalid_token"', async () => {
    const response = await userinfo('eyJhbGciOiJub25lIn0.e30.')
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="cairn", error="invalid_token"')
  })
  it('answers a missing token with a bare Bearer challenge (no error code, §3.1)', async () => {
    const response = await fetch(`${host.url}/api/oidc/userinfo`)
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="cairn"')
  })
  it('answers a token without the scope with 403 and error="insufficient_scope", scope="…"', async () => {
    const response = await authorize({ scope: 'cairn:record' })
    const issued = (await (await exchange(new URL(response.headers.get('location')!).searchParams.get('code')!)).json()) as { access_token: string }
    const refused = await userinfo(issued.access_token)
    expect(refused.status).toBe(403)
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="cairn", error="insufficient_scope", scope="openid"')
  })
  it('puts the bare code in error and the sentence in error_description, keeping ok: false', async () => {
    const response = await post('/api/oidc/token', { grant_type: 'refresh_token', refresh_token: 'cairn_rt_nope' })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ ok: false, error: 'invalid_grant', error_description: expect.any(String) })
    const badClient = await post('/api/oidc/token', { grant_type: 'refresh_token', refresh_token: 'x' }, basic('web', 'wrong'))
    expect(badClient.status).toBe(401)
    expect(await badClient.json()).toEqual({ ok: false, error: 'invalid_client', error_description: 'the client credentials are not valid' })
  })
})

describe('form parameters named like Object.prototype members (finding)', () => {
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    it(`reads a form parameter named ${name} as an ordinary parameter`, async () => {
      const response = await post('/api/oidc/revoke', { token: 'cairn_rt_unknown', [name]: 'x' })
      expect(response.status).toBe(200)
    })
  }
})
