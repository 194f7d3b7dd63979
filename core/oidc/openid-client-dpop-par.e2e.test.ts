/**
 * Issue 22 §9, proven with unmodified openid-client 6 against a listening Cairn: DPoP proofs
 * labelled `Ed25519` (RFC 9864) are accepted and advertised; a DPoP header on the PAR request binds
 * the code (RFC 9449 §10.1); introspection of a bound token says `DPoP` with `cnf.jkt` (§6.2); a
 * pushed `request_uri` is one-time (RFC 9126 §4) while the sign-in and consent round trips work.
 */
import * as client from 'openid-client'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { describe, expect, it } from 'vitest'
import { REDIRECT_URI, storeSnapshot, useSharedOidcTestHost, TEST_CLIENTS, type OidcTestHost, type SignedIn } from '../../hosts/http/oidc-test-support.js'
import { discoverAs, followRedirect, pkceValues } from '../../hosts/http/openid-client-test-support.js'

let host: OidcTestHost
let ada: SignedIn
useSharedOidcTestHost((h, a) => {
  host = h
  ada = a
})

const SPA_REDIRECT = 'http://127.0.0.1:5173/callback'
const discover = (id: keyof typeof TEST_CLIENTS) => discoverAs(host, id)
const pkce = pkceValues
/** One step of a browser with Ada's cookie (`null`: signed out): the redirect's target. */
const step = (url: URL | string, cookieHeader: string | null = ada.cookieHeader) => followRedirect(url, cookieHeader)

describe('DPoP with an Ed25519 key (openid-client labels it alg Ed25519, RFC 9864)', () => {
  it('is advertised under both names', async () => {
    const metadata = await (await fetch(`${host.url}/.well-known/openid-configuration`)).json() as { dpop_signing_alg_values_supported: string[] }
    expect(metadata.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining(['EdDSA', 'Ed25519']))
  })

  it('binds the tokens and works at userinfo and refresh with getDPoPHandle unchanged', async () => {
    const config = await discover('spa')
    const keyPair = await client.randomDPoPKeyPair('Ed25519')
    const dpop = client.getDPoPHandle(config, keyPair)
    const { codeVerifier, state, nonce, code_challenge } = await pkce()
    const url = client.buildAuthorizationUrl(config, { redirect_uri: SPA_REDIRECT, scope: 'openid profile', state, nonce, code_challenge, code_challenge_method: 'S256' })
    const tokens = await client.authorizationCodeGrant(config, await step(url), { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce }, undefined, { DPoP: dpop })
    expect(tokens.token_type).toBe('dpop')
    expect(decodeJwt(tokens.access_token).cnf).toEqual({ jkt: await dpop.calculateThumbprint() })
    expect(await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub, { DPoP: dpop })).toMatchObject({ preferred_username: 'ada' })
    expect((await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: dpop })).token_type).toBe('dpop')
  })
})

describe('a DPoP header on the PAR request binds the code (RFC 9449 §10.1)', () => {
  async function pushedWithDpop(dpop: client.DPoPHandle) {
    const config = await discover('spa')
    const { codeVerifier, state, nonce, code_challenge } = await pkce()
    const url = await client.buildAuthorizationUrlWithPAR(config, { redirect_uri: SPA_REDIRECT, scope: 'openid', state, nonce, code_challenge, code_challenge_method: 'S256' }, { DPoP: dpop })
    return { config, callback: await step(url), checks: { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce } }
  }

  it('refuses the code without a proof by that key, and redeems it with one', async () => {
    const config = await discover('spa')
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'))
    const unproven = await pushedWithDpop(dpop)
    await expect(client.authorizationCodeGrant(unproven.config, unproven.callback, unproven.checks)).rejects.toMatchObject({ error: 'invalid_grant' })
    const otherKey = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'))
    const stolen = await pushedWithDpop(dpop)
    await expect(client.authorizationCodeGrant(stolen.config, stolen.callback, stolen.checks, undefined, { DPoP: otherKey })).rejects.toMatchObject({ error: 'invalid_grant' })
    const proven = await pushedWithDpop(dpop)
    const tokens = await client.authorizationCodeGrant(proven.config, proven.callback, proven.checks, undefined, { DPoP: dpop })
    expect(decodeJwt(tokens.access_token).cnf).toEqual({ jkt: await dpop.calculateThumbprint() })
  })

  it('refuses a dpop_jkt that is not the proof\'s key, and a proof that is not valid, storing nothing', async () => {
    const config = await discover('spa')
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'))
    const other = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'))
    const { code_challenge } = await pkce()
    const params = { redirect_uri: SPA_REDIRECT, scope: 'openid', code_challenge, code_challenge_method: 'S256', dpop_jkt: await other.calculateThumbprint() }
    await expect(client.buildAuthorizationUrlWithPAR(config, params, { DPoP: dpop })).rejects.toMatchObject({ error: 'invalid_dpop_proof' })
    const before = await storeSnapshot(host.deps)
    const forged = await fetch(`${host.url}/api/oidc/par`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: 'not.a.proof' },
      body: new URLSearchParams({ client_id: 'spa', response_type: 'code', redirect_uri: SPA_REDIRECT, scope: 'openid', code_challenge, code_challenge_method: 'S256' }),
    })
    expect(forged.status).toBe(400)
    expect(await forged.json()).toMatchObject({ ok: false, error: 'invalid_dpop_proof' })
    expect(await storeSnapshot(host.deps)).toBe(before)
  })
})

describe('introspection of a DPoP-bound token (RFC 9449 §6.2)', () => {
  it('answers token_type DPoP and cnf.jkt, so a resource server does not take it as a bearer token', async () => {
    const spa = await discover('spa')
    const dpop = client.getDPoPHandle(spa, await client.randomDPoPKeyPair('Ed25519'))
    const { codeVerifier, state, nonce, code_challenge } = await pkce()
    const url = client.buildAuthorizationUrl(spa, { redirect_uri: SPA_REDIRECT, scope: 'openid', state, nonce, code_challenge, code_challenge_method: 'S256' })
    const tokens = await client.authorizationCodeGrant(spa, await step(url), { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce }, undefined, { DPoP: dpop })
    const backend = await discover('backend')
    const jkt = await dpop.calculateThumbprint()
    expect(await client.tokenIntrospection(backend, tokens.access_token)).toMatchObject({ active: true, token_type: 'DPoP', cnf: { jkt } })
    expect(await client.tokenIntrospection(backend, tokens.refresh_token!)).toMatchObject({ active: true, cnf: { jkt } })
    // an unbound token still says Bearer, with no cnf
    const web = await discover('web')
    const plain = await pkce()
    const plainUrl = client.buildAuthorizationUrl(web, { redirect_uri: REDIRECT_URI, scope: 'openid', state: plain.state, nonce: plain.nonce, code_challenge: plain.code_challenge, code_challenge_method: 'S256' })
    const bearer = await client.authorizationCodeGrant(web, await step(plainUrl), { pkceCodeVerifier: plain.codeVerifier, expectedState: plain.state, expectedNonce: plain.nonce })
    const answer = await client.tokenIntrospection(backend, bearer.access_token)
    expect(answer).toMatchObject({ active: true, token_type: 'Bearer' })
    expect(answer).not.toHaveProperty('cnf')
    expect(decodeProtectedHeader(bearer.access_token).typ).toBe('at+jwt')
  })
})

describe('a pushed request_uri is one-time (RFC 9126 §4)', () => {
  it('issues one code, then refuses the same request_uri, writing nothing', async () => {
    const config = await discover('web')
    const { state, nonce, code_challenge } = await pkce()
    const url = await client.buildAuthorizationUrlWithPAR(config, { redirect_uri: REDIRECT_URI, scope: 'openid', state, nonce, code_challenge, code_challenge_method: 'S256' })
    expect((await step(url)).searchParams.get('code')).toBeTruthy()
    const before = await storeSnapshot(host.deps)
    const again = await fetch(url, { redirect: 'manual', headers: { cookie: ada.cookieHeader } })
    expect(again.status).toBe(400)
    expect(await storeSnapshot(host.deps)).toBe(before)
  })

  it('survives the sign-in round trip: no session → sign-in page → back with a session → code', async () => {
    const config = await discover('web')
    const { state, nonce, code_challenge } = await pkce()
    const url = await client.buildAuthorizationUrlWithPAR(config, { redirect_uri: REDIRECT_URI, scope: 'openid', state, nonce, code_challenge, code_challenge_method: 'S256' })
    const login = await step(url, null)
    expect(login.pathname).toBe('/login')
    const next = new URL(login.searchParams.get('next')!, host.url)
    expect(next.searchParams.get('request_uri')).toBe(url.searchParams.get('request_uri'))
    expect((await step(next)).searchParams.get('code')).toBeTruthy()
    expect((await fetch(next, { redirect: 'manual', headers: { cookie: ada.cookieHeader } })).status).toBe(400)
  })

  it('survives the consent round trip of a third-party client', async () => {
    const config = await discover('partner')
    const { state, nonce, code_challenge } = await pkce()
    const url = await client.buildAuthorizationUrlWithPAR(config, { redirect_uri: REDIRECT_URI, scope: 'openid cairn:verify', state, nonce, code_challenge, code_challenge_method: 'S256' })
    const consent = await step(url)
    expect(consent.pathname).toBe('/consent')
    const page = await fetch(consent, { headers: { cookie: ada.cookieHeader } })
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!
    const request = consent.search.slice(1)
    const answer = await fetch(`${host.url}/consent`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: ada.cookieHeader, origin: host.url },
      body: new URLSearchParams({ request, csrf, decision: 'allow' }),
    })
    expect(answer.status).toBe(303)
    const resumed = new URL(answer.headers.get('location')!, host.url)
    expect((await step(resumed)).searchParams.get('code')).toBeTruthy()
    expect((await fetch(resumed, { redirect: 'manual', headers: { cookie: ada.cookieHeader } })).status).toBe(400)
  })
})
