/** POST /api/oidc/revoke (RFC 7009) and /api/oidc/introspect (RFC 7662) in-process. */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  authorizeQuery, bodyOf, clientCredentials, createOidcTestWorld, locationOf, PKCE, REDIRECT_URI, storeSnapshot, type OidcTestWorld, type SignedIn,
} from '../../hosts/http/oidc-test-support.js'
import type { Credentials } from '../auth/credentials.js'
import { verifyAccessToken } from './verify-access-token.js'

let world: OidcTestWorld
let ada: SignedIn
beforeEach(async () => {
  world = await createOidcTestWorld()
  ada = await world.signIn('ada')
})

const WEB = clientCredentials('web', 'web-secret')
const PARTNER = clientCredentials('partner', 'partner-secret')
const BACKEND = clientCredentials('backend', 'backend-secret')
const SPA = clientCredentials('spa')

interface Tokens { access_token: string; refresh_token: string }

async function tokensFor(clientId = 'web', credentials: Credentials = WEB, scope = 'openid cairn:record'): Promise<Tokens> {
  const code = locationOf(await world.call('authorize', { query: authorizeQuery({ client_id: clientId, scope }), credentials: { sessionCookie: ada.cookie } })).searchParams.get('code')!
  return bodyOf<Tokens>(await world.call('exchangeToken', { body: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: PKCE.verifier }, credentials }))
}

const introspect = (tokenText: string, credentials: Credentials = WEB, hint?: string) =>
  world.call('introspectToken', { body: { token: tokenText, ...(hint ? { token_type_hint: hint } : {}) }, credentials })
const revoke = (tokenText: string, credentials: Credentials = WEB, hint?: string) =>
  world.call('revokeToken', { body: { token: tokenText, ...(hint ? { token_type_hint: hint } : {}) }, credentials })
const valid = async (accessToken: string) => E.isRight(await verifyAccessToken(accessToken, world.deps))
const INACTIVE = { active: false }

describe('introspection', () => {
  it('describes an active access token to the client it was issued to', async () => {
    const { access_token } = await tokensFor()
    const now = world.clock.now() / 1000
    expect(bodyOf(await introspect(access_token))).toEqual({
      active: true, token_type: 'Bearer', scope: 'openid cairn:record', client_id: 'web', sub: ada.userId, exp: now + 600, iat: now,
      iss: 'https://cairn.test', aud: 'https://cairn.test', jti: expect.stringMatching(/^at_/),
    })
  })

  it('describes refresh tokens, whatever the hint', async () => {
    const { refresh_token } = await tokensFor()
    for (const hint of [undefined, 'refresh_token', 'access_token', 'nonsense']) {
      expect(bodyOf(await introspect(refresh_token, WEB, hint))).toMatchObject({ active: true, client_id: 'web', sub: ada.userId, scope: 'openid cairn:record' })
    }
  })

  it('shows a token to a first-party backend, but not to another third-party client', async () => {
    const { access_token } = await tokensFor()
    expect(bodyOf(await introspect(access_token, BACKEND))).toMatchObject({ active: true, client_id: 'web' })
    expect(bodyOf(await introspect(access_token, PARTNER))).toEqual(INACTIVE)
  })

  it('answers { active: false } only, for unknown, expired, revoked and rotated tokens', async () => {
    const tokens = await tokensFor()
    expect(bodyOf(await introspect('unknown'))).toEqual(INACTIVE)
    expect(bodyOf(await introspect('cairn_at_unknown'))).toEqual(INACTIVE)
    expect(bodyOf(await introspect('cairn_rt_unknown'))).toEqual(INACTIVE)
    await world.call('exchangeToken', { body: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, credentials: WEB })
    expect(bodyOf(await introspect(tokens.refresh_token))).toEqual(INACTIVE)
    world.clock.advance(600_000)
    expect(bodyOf(await introspect(tokens.access_token))).toEqual(INACTIVE)
  })

  it('refuses public clients (403) and a request without token (400), writing nothing', async () => {
    const { access_token } = await tokensFor()
    const before = await storeSnapshot(world.deps)
    expect(await introspect(access_token, SPA)).toEqual(E.left(expect.objectContaining({ _tag: 'Forbidden' })))
    expect(await world.call('introspectToken', { body: {}, credentials: WEB })).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput', message: 'invalid_request: token is required' })))
    expect(await introspect(access_token, clientCredentials('web', 'wrong'))).toEqual(E.left(expect.objectContaining({ _tag: 'Unauthenticated' })))
    expect(await storeSnapshot(world.deps)).toBe(before)
  })

  it('answers with Cache-Control: no-store', async () => {
    const reply = await introspect('x')
    expect(E.isRight(reply) && reply.right.kind === 'json' && reply.right.headers).toMatchObject({ 'cache-control': 'no-store' })
  })
})

describe('revocation', () => {
  it('revokes one access token; the grant and its refresh token stand', async () => {
    const tokens = await tokensFor()
    expect(bodyOf(await revoke(tokens.access_token))).toEqual({ ok: true })
    expect(await valid(tokens.access_token)).toBe(false)
    const refreshed = bodyOf<Tokens>(await world.call('exchangeToken', { body: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, credentials: WEB }))
    expect(await valid(refreshed.access_token)).toBe(true)
    const actions = (await world.deps.store.readStream('ledger.actions')).items.map((entry) => (entry.value as { action: string }).action)
    expect(actions).toEqual(['token_issued', 'token_revoked', 'token_refreshed'])
  })

  it('revokes the whole grant with its refresh token, whatever the hint', async () => {
    const tokens = await tokensFor()
    expect(bodyOf(await revoke(tokens.refresh_token, WEB, 'access_token'))).toEqual({ ok: true })
    expect(await valid(tokens.access_token)).toBe(false)
    expect(bodyOf(await introspect(tokens.refresh_token))).toEqual(INACTIVE)
  })

  it('answers 200 and changes nothing for unknown tokens, tokens of other clients and already revoked tokens', async () => {
    const tokens = await tokensFor()
    await revoke(tokens.access_token)
    const before = await storeSnapshot(world.deps)
    for (const presented of ['unknown', 'cairn_rt_unknown', 'cairn_at_unknown', tokens.access_token]) expect(bodyOf(await revoke(presented))).toEqual({ ok: true })
    expect(bodyOf(await revoke(tokens.refresh_token, PARTNER))).toEqual({ ok: true })
    expect(await storeSnapshot(world.deps)).toBe(before)
  })

  it('lets a public client revoke its own tokens', async () => {
    const code = locationOf(await world.call('authorize', {
      query: authorizeQuery({ client_id: 'spa', redirect_uri: 'http://127.0.0.1:5173/callback', scope: 'openid' }), credentials: { sessionCookie: ada.cookie },
    })).searchParams.get('code')!
    const tokens = bodyOf<Tokens>(await world.call('exchangeToken', {
      body: { grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:5173/callback', code_verifier: PKCE.verifier }, credentials: SPA,
    }))
    expect(bodyOf(await revoke(tokens.refresh_token, SPA))).toEqual({ ok: true })
    expect(await valid(tokens.access_token)).toBe(false)
  })

  it('refuses a request without token (400) and unauthenticated clients (401)', async () => {
    expect(await world.call('revokeToken', { body: {}, credentials: WEB })).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput' })))
    expect(await revoke('x', clientCredentials('nobody', 'x'))).toEqual(E.left(expect.objectContaining({ _tag: 'Unauthenticated' })))
  })
})
