/**
 * End to end with clients nobody here wrote: openid-client v6 runs discovery, the PKCE code flow,
 * token exchange, userinfo, refresh rotation and reuse detection, revocation and introspection
 * against a listening h3 host; jose's createRemoteJWKSet verifies what was issued.
 */
import * as client from 'openid-client'
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { REDIRECT_URI, useSharedOidcTestHost, TEST_CLIENTS, type OidcTestHost, type SignedIn } from '../../hosts/http/oidc-test-support.js'
import { ACTION_LEDGER_STREAM } from '../ledger/action-ledger.js'
import { recordConsent } from './consent.js'

let host: OidcTestHost
let ada: SignedIn
useSharedOidcTestHost((h, a) => {
  host = h
  ada = a
})

const ledgerActions = async () => (await host.deps.store.readStream(ACTION_LEDGER_STREAM, { limit: 1000 })).items.map((entry) => (entry.value as { action: string }).action)

const insecure = { execute: [client.allowInsecureRequests] }

async function discover(clientId: string, auth?: client.ClientAuth, algorithm?: 'oidc' | 'oauth2'): Promise<client.Configuration> {
  return client.discovery(new URL(host.url), clientId, undefined, auth, { ...insecure, ...(algorithm ? { algorithm } : {}) })
}

/** Build the authorization URL, follow it with the session cookie, and return the callback URL. */
async function authorizeWith(config: client.Configuration, scope: string, cookieHeader = ada.cookieHeader) {
  const codeVerifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const nonce = client.randomNonce()
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  })
  const response = await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader } })
  return { response, codeVerifier, state, nonce }
}

async function signInFlow(config: client.Configuration, scope = 'openid profile cairn:record') {
  const { response, codeVerifier, state, nonce } = await authorizeWith(config, scope)
  expect(response.status).toBe(302)
  const callback = new URL(response.headers.get('location')!)
  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true })
  return { tokens, callback }
}

describe('openid-client against a running Cairn', () => {
  it('discovers the provider at both well-known paths', async () => {
    const oidc = await discover(TEST_CLIENTS.web.clientId, client.ClientSecretBasic(TEST_CLIENTS.web.secret))
    const oauth = await discover(TEST_CLIENTS.web.clientId, client.ClientSecretBasic(TEST_CLIENTS.web.secret), 'oauth2')
    for (const config of [oidc, oauth]) {
      const metadata = config.serverMetadata()
      expect(metadata.issuer).toBe(host.url)
      expect(metadata.code_challenge_methods_supported).toEqual(['S256'])
      expect(metadata.authorization_response_iss_parameter_supported).toBe(true)
      expect(metadata.scopes_supported).toContain('cairn:record')
    }
  })

  it('runs the PKCE code flow with client_secret_basic; jose verifies the tokens against the JWKS', async () => {
    const config = await discover(TEST_CLIENTS.web.clientId, client.ClientSecretBasic(TEST_CLIENTS.web.secret))
    const { tokens, callback } = await signInFlow(config)
    expect(callback.searchParams.get('iss')).toBe(host.url)
    expect(tokens.token_type.toLowerCase()).toBe('bearer')
    expect(tokens.expires_in).toBe(600)
    expect(tokens.scope).toBe('openid profile cairn:record')
    expect(tokens.refresh_token).toMatch(/^cairn_rt_/)
    expect(tokens.claims()!.sub).toBe(ada.userId)

    const jwks = createRemoteJWKSet(new URL(`${host.url}/api/oidc/jwks`))
    const access = await jwtVerify(tokens.access_token, jwks, { issuer: host.url, audience: host.url, typ: 'at+jwt', algorithms: ['ES256'] })
    expect(access.payload).toMatchObject({ sub: ada.userId, client_id: 'web', scope: 'openid profile cairn:record' })
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' })
    const id = await jwtVerify(tokens.id_token!, jwks, { issuer: host.url, audience: 'web' })
    expect(id.payload.sub).toBe(ada.userId)
  })

  it('serves userinfo by scope', async () => {
    const config = await discover(TEST_CLIENTS.web.clientId, client.ClientSecretPost(TEST_CLIENTS.web.secret))
    const withProfile = (await signInFlow(config)).tokens
    expect(await client.fetchUserInfo(config, withProfile.access_token, ada.userId)).toEqual({
      sub: ada.userId, preferred_username: 'ada', name: 'Ada Test', updated_at: expect.any(Number),
    })
    const bare = (await signInFlow(config, 'openid')).tokens
    expect(await client.fetchUserInfo(config, bare.access_token, ada.userId)).toEqual({ sub: ada.userId })
  })

  it('rotates refresh tokens; reusing a rotated one revokes the whole grant', async () => {
    const config = await discover(TEST_CLIENTS.web.clientId, client.ClientSecretBasic(TEST_CLIENTS.web.secret))
    const first = (await signInFlow(config)).tokens
    const second = await client.refreshTokenGrant(config, first.refresh_token!)
    expect(second.refresh_token).not.toBe(first.refresh_token)
    const narrowed = await client.refreshTokenGrant(config, second.refresh_token!, { scope: 'openid' })
    expect(narrowed.scope).toBe('openid')
    await expect(client.refreshTokenGrant(config, narrowed.refresh_token!, { scope: 'openid cairn:wallet.read' })).rejects.toMatchObject({ error: 'invalid_scope', error_description: expect.any(String) })

    // first.refresh_token was rotated: presenting it again is reuse.
    // A relying party that branches on the bare RFC 6749 code (to re-login) finds it.
    await expect(client.refreshTokenGrant(config, first.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/already used/) })
    for (const token of [first.access_token, second.access_token, narrowed.access_token]) {
      expect(await client.tokenIntrospection(config, token)).toEqual({ active: false })
    }
    await expect(client.refreshTokenGrant(config, narrowed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
    await expect(client.fetchUserInfo(config, narrowed.access_token, ada.userId)).rejects.toThrow()
    expect((await ledgerActions()).slice(-4)).toEqual(['token_issued', 'token_refreshed', 'token_refreshed', 'grant_revoked'])
  })

  it('introspects and revokes (RFC 7662, RFC 7009)', async () => {
    const config = await discover(TEST_CLIENTS.web.clientId, client.ClientSecretBasic(TEST_CLIENTS.web.secret))
    const tokens = (await signInFlow(config)).tokens
    const active = await client.tokenIntrospection(config, tokens.access_token)
    expect(active).toMatchObject({ active: true, token_type: 'Bearer', client_id: 'web', sub: ada.userId, scope: 'openid profile cairn:record' })
    expect(await client.tokenIntrospection(config, tokens.refresh_token!, { token_type_hint: 'refresh_token' })).toMatchObject({ active: true, client_id: 'web' })

    await client.tokenRevocation(config, tokens.access_token)
    expect(await client.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false })
    // The refresh token still stands after revoking only the access token…
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!)
    // …and revoking the refresh token revokes the grant, its access tokens with it.
    await client.tokenRevocation(config, refreshed.refresh_token!, { token_type_hint: 'refresh_token' })
    expect(await client.tokenIntrospection(config, refreshed.access_token)).toEqual({ active: false })
    await client.tokenRevocation(config, 'not-a-token') // RFC 7009: still 200
  })

  it('serves a public client (token_endpoint_auth_method none) with PKCE', async () => {
    const config = await client.discovery(new URL(host.url), 'spa', { redirect_uris: ['http://127.0.0.1:5173/callback'] }, client.None(), insecure)
    const codeVerifier = client.randomPKCECodeVerifier()
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: 'http://127.0.0.1:5173/callback', scope: 'openid', code_challenge: await client.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: 'S256',
    })
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: ada.cookieHeader } })
    const tokens = await client.authorizationCodeGrant(config, new URL(response.headers.get('location')!), { pkceCodeVerifier: codeVerifier, idTokenExpected: true })
    expect(tokens.claims()!.aud).toBe('spa')
  })

  it('asks a third-party client for consent, then proceeds once the user consented', async () => {
    const config = await discover(TEST_CLIENTS.partner.clientId, client.ClientSecretBasic(TEST_CLIENTS.partner.secret))
    const asking = await authorizeWith(config, 'openid cairn:record')
    expect(asking.response.status).toBe(302)
    expect(new URL(asking.response.headers.get('location')!).pathname).toBe('/consent')

    await recordConsent(host.deps, { userId: ada.userId, clientId: 'partner', scopes: ['openid', 'cairn:record'] })
    const { response, codeVerifier, state, nonce } = await authorizeWith(config, 'openid cairn:record')
    expect(response.status).toBe(302)
    const tokens = await client.authorizationCodeGrant(config, new URL(response.headers.get('location')!), { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce })
    expect(tokens.scope).toBe('openid cairn:record')
  })
})

describe('agent tokens over HTTP', () => {
  const agentTokens = (method: 'POST' | 'DELETE', body: unknown, cookie = ada.cookieHeader) =>
    fetch(`${host.url}/api/oidc/agent-tokens`, { method, headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) })

  it('creates a token shown once, honoured as a bearer token until DELETE revokes it', async () => {
    const created = await agentTokens('POST', { clientId: 'mcp', scopes: ['openid', 'profile'], label: 'laptop agent', auditLabels: { host: 'dev-1' } })
    expect(created.status).toBe(200)
    expect(created.headers.get('cache-control')).toBe('no-store')
    const { accessToken, tokenId } = await created.json() as { accessToken: string; tokenId: string }
    const userinfo = () => fetch(`${host.url}/api/oidc/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } })
    expect(await (await userinfo()).json()).toMatchObject({ sub: ada.userId, preferred_username: 'ada' })

    const revoked = await agentTokens('DELETE', { clientId: 'mcp', tokenId })
    expect(await revoked.json()).toEqual({ ok: true, clientId: 'mcp', tokenId, revoked: 1 })
    expect((await userinfo()).status).toBe(401)
  })

  it('refuses an unknown scope with 400 and no session with 401', async () => {
    const unknown = await agentTokens('POST', { clientId: 'mcp', scopes: ['cairn:everything'] })
    expect(unknown.status).toBe(400)
    expect(await unknown.json()).toEqual({ ok: false, error: 'Unknown scope: cairn:everything' })
    expect((await agentTokens('POST', { clientId: 'mcp', scopes: ['openid'] }, '')).status).toBe(401)
  })
})
