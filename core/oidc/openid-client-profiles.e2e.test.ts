/**
 * Issue 8 §2, proven with openid-client's own API against a listening Cairn: `maxAge`, RS256 tokens
 * chosen per client, pushed authorization requests (`buildAuthorizationUrlWithPAR`), RP-initiated
 * logout (`buildEndSessionUrl`) and DPoP-bound tokens (`DPoP`).
 */
import * as client from 'openid-client'
import { createHash } from 'node:crypto'
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose'
import { findActiveSession } from '../identity/sessions.js'
import { describe, expect, it } from 'vitest'
import { REDIRECT_URI, useSharedOidcTestHost, TEST_CLIENTS, type OidcTestHost, type SignedIn } from '../../hosts/http/oidc-test-support.js'
import { discoverAs, followRedirect, pkceValues } from '../../hosts/http/openid-client-test-support.js'

let host: OidcTestHost
let ada: SignedIn
useSharedOidcTestHost((h, a) => {
  host = h
  ada = a
})

const discover = (id: keyof typeof TEST_CLIENTS, metadata: Partial<client.ClientMetadata> = {}) => discoverAs(host, id, metadata)
const pkce = pkceValues
/** Follow an authorization URL with Ada's cookie and return the callback. */
const follow = (url: URL, cookieHeader = ada.cookieHeader) => followRedirect(url, cookieHeader)

describe('max_age (openid-client maxAge)', () => {
  it('passes openid-client\'s auth_time check', async () => {
    const config = await discover('web')
    const { codeVerifier, state, nonce, code_challenge } = await pkce()
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: 'openid', state, nonce, code_challenge, code_challenge_method: 'S256', max_age: '300' })
    const tokens = await client.authorizationCodeGrant(config, await follow(url), { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce, maxAge: 300 })
    expect(tokens.claims()!.auth_time).toBe(Math.floor(host.clock.now() / 1000))
  })
})

describe('RS256, chosen per client', () => {
  it('signs the rsa client\'s ID and access tokens with RS256; openid-client verifies them and userinfo accepts the access token', async () => {
    const config = await discover('rsa', { id_token_signed_response_alg: 'RS256' })
    const { codeVerifier, state, nonce, code_challenge } = await pkce()
    const url = await client.buildAuthorizationUrlWithPAR(config, { redirect_uri: REDIRECT_URI, scope: 'openid profile', state, nonce, code_challenge, code_challenge_method: 'S256' })
    const tokens = await client.authorizationCodeGrant(config, await follow(url), { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce })
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('RS256')
    expect(decodeProtectedHeader(tokens.access_token).alg).toBe('RS256')
    expect(await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub)).toMatchObject({ preferred_username: 'ada' })
  })

  it('keeps ES256 for other clients', async () => {
    const config = await discover('web')
    const { codeVerifier, state, nonce, code_challenge } = await pkce()
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: 'openid', state, nonce, code_challenge, code_challenge_method: 'S256' })
    const tokens = await client.authorizationCodeGrant(config, await follow(url), { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce })
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('ES256')
  })
})

describe('RP-initiated logout (openid-client buildEndSessionUrl)', () => {
  async function idTokenFor(who: SignedIn): Promise<{ config: client.Configuration; idToken: string; tokens: client.TokenEndpointResponse }> {
    const config = await discover('rsa', { id_token_signed_response_alg: 'RS256' })
    const { codeVerifier, state, nonce, code_challenge } = await pkce()
    const url = await client.buildAuthorizationUrlWithPAR(config, { redirect_uri: REDIRECT_URI, scope: 'openid', state, nonce, code_challenge, code_challenge_method: 'S256' })
    const tokens = await client.authorizationCodeGrant(config, await follow(url, who.cookieHeader), { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce })
    return { config, idToken: tokens.id_token!, tokens }
  }

  it('is advertised, ends the session, clears the cookie and returns to the registered URI with state', async () => {
    const grace = await host.signIn('grace')
    const { config, idToken, tokens } = await idTokenFor(grace)
    expect(config.serverMetadata().end_session_endpoint).toBe(`${host.url}/logout`)
    const url = client.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: 'https://rp.example/signed-out', state: 'bye-1' })
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: grace.cookieHeader } })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('https://rp.example/signed-out?state=bye-1')
    expect(response.headers.get('set-cookie')).toMatch(/^cairn_session=; Path=\/; Max-Age=0/)
    expect(await findActiveSession(host.deps, grace.cookie)).toBeUndefined()
    // What that sign-in issued ends with it: the access token and the refresh token.
    expect((await fetch(`${host.url}/api/oidc/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401)
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  it('refuses an unregistered post_logout_redirect_uri and a forged hint, ending nothing', async () => {
    const hopper = await host.signIn('hopper')
    const { config, idToken } = await idTokenFor(hopper)
    const open = client.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: 'https://evil.example/' })
    expect((await fetch(open, { redirect: 'manual', headers: { cookie: hopper.cookieHeader } })).status).toBe(400)
    const forged = client.buildEndSessionUrl(config, { id_token_hint: `${idToken.slice(0, -4)}AAAA` })
    expect((await fetch(forged, { redirect: 'manual', headers: { cookie: hopper.cookieHeader } })).status).toBe(400)
    expect(await findActiveSession(host.deps, hopper.cookie)).toBeDefined()
  })

  it('asks the user to confirm when the hint names someone else (no silent logout by a third party)', async () => {
    const turing = await host.signIn('turing')
    const { config, idToken } = await idTokenFor(ada)
    const page = await fetch(client.buildEndSessionUrl(config, { id_token_hint: idToken }), { headers: { cookie: turing.cookieHeader } })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Sign out of Cairn?')
    expect(await findActiveSession(host.deps, turing.cookie)).toBeDefined()
    // The page's own form signs out; the same form from elsewhere (no Origin, or a forged token) does not.
    // What a browser submits: every hidden field of the page's form.
    const form = Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1]!, match[2]!]))
    expect(form).toMatchObject({ id_token_hint: idToken, confirm: 'yes', csrf: expect.any(String) })
    const post = (body: Record<string, string>, origin?: string) => fetch(`${host.url}/logout`, {
      method: 'POST', redirect: 'manual', body: new URLSearchParams(body),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: turing.cookieHeader, ...(origin ? { origin } : {}) },
    })
    expect((await post(form)).status).toBe(403)
    expect((await post({ ...form, csrf: 'forged' }, host.url)).status).toBe(403)
    expect(await findActiveSession(host.deps, turing.cookie)).toBeDefined()
    expect((await post(form, host.url)).status).toBe(200)
    expect(await findActiveSession(host.deps, turing.cookie)).toBeUndefined()
  })
})

describe('DPoP (RFC 9449, openid-client DPoP)', () => {
  async function dpopTokens() {
    const config = await discover('spa')
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'))
    const { codeVerifier, state, nonce, code_challenge } = await pkce()
    const url = client.buildAuthorizationUrl(config, { redirect_uri: 'http://127.0.0.1:5173/callback', scope: 'openid profile', state, nonce, code_challenge, code_challenge_method: 'S256' })
    const tokens = await client.authorizationCodeGrant(config, await follow(url), { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce }, undefined, { DPoP: dpop })
    return { config, dpop, tokens }
  }

  it('binds access and refresh tokens to the key (cnf.jkt, token_type DPoP); userinfo and refresh work with proofs, after the server nonce', async () => {
    const { config, dpop, tokens } = await dpopTokens()
    expect(tokens.token_type).toBe('dpop')
    expect(decodeJwt(tokens.access_token).cnf).toEqual({ jkt: expect.any(String) })
    expect(await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub, { DPoP: dpop })).toMatchObject({ preferred_username: 'ada' })
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: dpop })
    expect(refreshed.token_type).toBe('dpop')
    expect(decodeJwt(refreshed.access_token).cnf).toEqual(decodeJwt(tokens.access_token).cnf)
  })

  it('refuses a bound token without its proof, with another key\'s proof, and a bound refresh token without a proof', async () => {
    const { config, tokens } = await dpopTokens()
    const asBearer = await fetch(`${host.url}/api/oidc/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })
    expect(asBearer.status).toBe(401)
    expect(asBearer.headers.get('www-authenticate')).toMatch(/^DPoP realm="cairn", error="invalid_token"/)
    const otherKey = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'))
    await expect(client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub, { DPoP: otherKey })).rejects.toBeDefined()
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  it('binds the code to the key with dpop_jkt (RFC 9449 §10): redeemed only with that key\'s proof', async () => {
    const config = await discover('spa')
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'))
    const authorizeBound = async () => {
      const { codeVerifier, state, nonce, code_challenge } = await pkce()
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: 'http://127.0.0.1:5173/callback', scope: 'openid', state, nonce, code_challenge, code_challenge_method: 'S256', dpop_jkt: await dpop.calculateThumbprint(),
      })
      return { callback: await follow(url), checks: { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce } }
    }
    const unproven = await authorizeBound()
    await expect(client.authorizationCodeGrant(config, unproven.callback, unproven.checks)).rejects.toMatchObject({ error: 'invalid_grant' })
    const proven = await authorizeBound()
    expect((await client.authorizationCodeGrant(config, proven.callback, proven.checks, undefined, { DPoP: dpop })).token_type).toBe('dpop')
  })

  it('answers use_dpop_nonce with a DPoP-Nonce, and refuses another key\'s proof even with the nonce (replays: core/auth/dpop.test.ts)', async () => {
    const { tokens } = await dpopTokens()
    const key = await generateKeyPair('ES256')
    const jwk = await exportJWK(key.publicKey)
    const proof = (nonce?: string) => new SignJWT({ htm: 'GET', htu: `${host.url}/api/oidc/userinfo`, ath: createHash('sha256').update(tokens.access_token).digest('base64url'), ...(nonce ? { nonce } : {}) })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk }).setIssuedAt().setJti(crypto.randomUUID()).sign(key.privateKey)
    const first = await fetch(`${host.url}/api/oidc/userinfo`, { headers: { authorization: `DPoP ${tokens.access_token}`, dpop: await proof() } })
    expect(first.status).toBe(401)
    expect(first.headers.get('www-authenticate')).toMatch(/error="use_dpop_nonce"/)
    const nonce = first.headers.get('dpop-nonce')!
    expect(nonce).toBeTruthy()
    // Another key than the token's: refused even with a fresh nonce.
    const signed = await proof(nonce)
    expect((await fetch(`${host.url}/api/oidc/userinfo`, { headers: { authorization: `DPoP ${tokens.access_token}`, dpop: signed } })).status).toBe(401)
  })
})

describe('pushed authorization requests (RFC 9126)', () => {
  const par = (form: Record<string, string>, id = 'web', secret = 'web-secret') =>
    fetch(`${host.url}/api/oidc/par`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` },
      body: new URLSearchParams(form),
    })
  const pushable = async () => {
    const { code_challenge } = await pkce()
    return { response_type: 'code', redirect_uri: REDIRECT_URI, scope: 'openid', code_challenge, code_challenge_method: 'S256' }
  }

  it('are advertised in the metadata', async () => {
    const metadata = await (await fetch(`${host.url}/.well-known/openid-configuration`)).json()
    expect(metadata).toMatchObject({ pushed_authorization_request_endpoint: `${host.url}/api/oidc/par`, require_pushed_authorization_requests: false })
  })

  it('refuses a plain authorization request from a client that must push (invalid_request to its redirect URI)', async () => {
    const config = await discover('rsa')
    const { state, nonce, code_challenge } = await pkce()
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: 'openid', state, nonce, code_challenge, code_challenge_method: 'S256' })
    expect((await follow(url)).searchParams.get('error')).toBe('invalid_request')
  })

  it('answers 201 with a request_uri, and refuses bad pushes with the RFC 6749 error shape', async () => {
    const pushed = await par(await pushable())
    expect(pushed.status).toBe(201)
    expect(await pushed.json()).toEqual({ request_uri: expect.stringMatching(/^urn:ietf:params:oauth:request_uri:/), expires_in: 600 })
    const wrongRedirect = await par({ ...(await pushable()), redirect_uri: 'https://evil.example/' })
    expect(wrongRedirect.status).toBe(400)
    expect(await wrongRedirect.json()).toEqual({ ok: false, error: 'invalid_request', error_description: expect.any(String) })
    expect((await par(await pushable(), 'web', 'wrong')).status).toBe(401)
    const plain = await par({ ...(await pushable()), code_challenge_method: 'plain' })
    expect(await plain.json()).toMatchObject({ error: 'invalid_request' })
  })

  it('refuses a request_uri pushed by another client, and one that expired', async () => {
    const { request_uri } = (await (await par(await pushable())).json()) as { request_uri: string }
    const stolen = await fetch(`${host.url}/api/oidc/authorize?${new URLSearchParams({ client_id: 'rsa', request_uri })}`, { redirect: 'manual', headers: { cookie: ada.cookieHeader } })
    expect(stolen.status).toBe(400)
    host.clock.advance(601_000)
    try {
      const late = await fetch(`${host.url}/api/oidc/authorize?${new URLSearchParams({ client_id: 'web', request_uri })}`, { redirect: 'manual', headers: { cookie: ada.cookieHeader } })
      expect(late.status).toBe(400)
    } finally {
      host.clock.advance(-601_000) // openid-client compares iat with its own clock in later tests
    }
  })
})
