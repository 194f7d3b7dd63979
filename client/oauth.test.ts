/**
 * OAuth from `cairn/client` against a real Cairn: a first-party public app signs its user in with
 * an ID key, runs the authorization code flow with PKCE, gets DPoP-bound tokens (the server's
 * nonce learnt and retried), calls a Bearer operation with them, and rotates its refresh token —
 * the spent one refused afterwards. A redirect with another state is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCairn, type Cairn } from '../hosts/library/create-cairn.js'
import { PINNED_TIME, pinnedOptions } from '../hosts/http/test-support.js'
import { testDeployment } from '../hosts/http/oidc-test-support.js'
import {
  authorizationUrl, codeFromRedirect, createCairnClient, createDpopProver, createPkce, exchangeCode, loadOrCreateIdKey, refreshingTokens, signIn, unwrap,
} from './index.js'

const BASE = 'http://127.0.0.1:8787'
const REDIRECT = 'http://127.0.0.1:5173/callback'

describe('cairn/client OAuth: code + PKCE, DPoP, refresh rotation', () => {
  let cairn: Cairn
  beforeAll(() => {
    cairn = createCairn(pinnedOptions({ baseUrl: BASE, deployment: testDeployment() }))
  })
  afterAll(() => cairn.close())

  const newClient = () => createCairnClient({ baseUrl: BASE, now: () => PINNED_TIME, fetch: (request) => cairn.fetch(request) })

  it('signs in, redeems a PKCE code for DPoP-bound tokens, uses them and rotates the refresh token', async () => {
    const client = newClient()
    unwrap(await signIn(client, await loadOrCreateIdKey(), { username: 'lin', displayName: 'Lin', localUid: 'phone' }))
    const pkce = await createPkce()
    const { url, state } = authorizationUrl(client, { clientId: 'spa', redirectUri: REDIRECT, scopes: ['openid', 'profile'], pkce })
    const redirect = unwrap(await client.call('authorize', { query: Object.fromEntries(new URL(url).searchParams) as never }))
    const code = unwrap(codeFromRedirect(redirect.location, state))

    client.credentials.client = { clientId: 'spa' }
    client.credentials.dpop = await createDpopProver(client.now)
    const tokens = unwrap(await exchangeCode(client, { code, codeVerifier: pkce.codeVerifier, redirectUri: REDIRECT }))
    expect(tokens).toMatchObject({ tokenType: 'DPoP', refreshToken: expect.any(String), idToken: expect.any(String) })
    expect(client.credentials.dpop.nonce).toEqual(expect.any(String))

    // A bound token, with a proof of the key, on a Bearer operation.
    const expired = { ...tokens, expiresAt: PINNED_TIME - 1 }
    const rotated: string[] = []
    const source = refreshingTokens(client, expired, (next) => rotated.push(next.refreshToken!))
    client.credentials.accessToken = source
    const userinfo = unwrap(await client.call('getUserinfo'))
    expect(userinfo.sub).toEqual(expect.any(String))
    expect(rotated).toHaveLength(1)
    expect(rotated[0]).not.toBe(tokens.refreshToken)

    // The spent refresh token is refused (rotation: reuse is detected).
    const reuse = await client.call('exchangeToken', { body: { grant_type: 'refresh_token', refresh_token: tokens.refreshToken! } })
    expect(reuse).toMatchObject({ ok: false, error: { _tag: 'InvalidInput', oauth: { error: 'invalid_grant' } } })
  })

  it('refuses a redirect whose state is not the one sent, and a code redeemed without its verifier', async () => {
    const client = newClient()
    unwrap(await signIn(client, await loadOrCreateIdKey(), { username: 'moss', displayName: 'Moss', localUid: 'phone' }))
    const pkce = await createPkce()
    const { url } = authorizationUrl(client, { clientId: 'spa', redirectUri: REDIRECT, scopes: ['openid'], pkce })
    const redirect = unwrap(await client.call('authorize', { query: Object.fromEntries(new URL(url).searchParams) as never }))
    const { location } = redirect
    expect(codeFromRedirect(location, 'another-state')).toMatchObject({ ok: false, error: { _tag: 'Unverified' } })
    client.credentials.client = { clientId: 'spa' }
    const code = new URL(location).searchParams.get('code')!
    const wrong = await exchangeCode(client, { code, codeVerifier: (await createPkce()).codeVerifier, redirectUri: REDIRECT })
    expect(wrong).toMatchObject({ ok: false, error: { oauth: { error: 'invalid_grant' } } })
  })
})
