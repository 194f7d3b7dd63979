/** Discovery metadata, JWKS and userinfo: truthful and minimal. */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { bodyOf, createOidcTestWorld, type OidcTestWorld, type SignedIn } from '../../hosts/http/oidc-test-support.js'
import { components } from '../contract/components.js'
import { operations } from '../contract/operations/index.js'
import { SCOPES } from '../contract/scopes.js'
import { grants } from './collections.js'
import { issueAccessToken } from './access-token.js'

let world: OidcTestWorld
let ada: SignedIn
beforeEach(async () => {
  world = await createOidcTestWorld({ baseUrl: 'https://example.com/cairn' })
  ada = await world.signIn('ada')
})

type Metadata = Record<string, unknown> & { issuer: string }

describe('discovery', () => {
  it('serves the same metadata at both well-known paths, valid for the contract', async () => {
    const oidc = bodyOf<Metadata>(await world.call('getOpenIdConfiguration'))
    expect(bodyOf(await world.call('getOAuthAuthorizationServerMetadata'))).toEqual(oidc)
    expect(E.isRight(components.OidcDiscoveryMetadata.decode(oidc))).toBe(true)
    expect(oidc).toMatchObject({
      issuer: 'https://example.com/cairn',
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      id_token_signing_alg_values_supported: ['ES256', 'RS256'],
      subject_types_supported: ['public'],
      authorization_response_iss_parameter_supported: true,
      response_modes_supported: ['query'],
      request_parameter_supported: false,
      claims_supported: expect.arrayContaining(['auth_time', 'amr']),
      // Served outside the contract by hosts/http/pages (tested over HTTP in openid-client-profiles.e2e.test.ts).
      pushed_authorization_request_endpoint: 'https://example.com/cairn/api/oidc/par',
      require_pushed_authorization_requests: false,
      end_session_endpoint: 'https://example.com/cairn/logout',
      dpop_signing_alg_values_supported: ['ES256', 'RS256', 'PS256', 'EdDSA', 'Ed25519'],
    })
  })

  it('advertises openid, profile and every cairn scope', async () => {
    const { scopes_supported } = bodyOf<{ scopes_supported: string[] }>(await world.call('getOpenIdConfiguration'))
    expect(scopes_supported).toEqual(Object.keys(SCOPES))
    expect(scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'cairn:record', 'cairn:wallet.read', 'cairn:production']))
  })

  it('names endpoints that are real routes of the contract, with the right method', async () => {
    const metadata = bodyOf<Metadata>(await world.call('getOpenIdConfiguration'))
    const expected: Record<string, [string, string]> = {
      authorization_endpoint: ['GET', 'authorize'], token_endpoint: ['POST', 'exchangeToken'], userinfo_endpoint: ['GET', 'getUserinfo'],
      jwks_uri: ['GET', 'getJwks'], revocation_endpoint: ['POST', 'revokeToken'], introspection_endpoint: ['POST', 'introspectToken'],
    }
    for (const [member, [method, operationId]] of Object.entries(expected)) {
      const url = new URL(metadata[member] as string)
      expect(url.origin + url.pathname.replace(/^\/cairn/, '')).toBe(`https://example.com${operations.find((op) => op.operationId === operationId)!.path}`)
      expect(operations.find((op) => op.operationId === operationId)!.method).toBe(method)
    }
  })

  it('advertises the algorithm of the key in the JWKS', async () => {
    const { id_token_signing_alg_values_supported: algs } = bodyOf<{ id_token_signing_alg_values_supported: string[] }>(await world.call('getOpenIdConfiguration'))
    const { keys } = bodyOf<{ keys: { alg: string }[] }>(await world.call('getJwks'))
    expect(keys.map((key) => key.alg)).toContain(algs[0])
  })
})

describe('JWKS', () => {
  it('publishes current and retired public keys, never a private member', async () => {
    const before = bodyOf<{ keys: { kid: string; alg: string }[] }>(await world.call('getJwks')).keys
    expect(before).toHaveLength(2)
    const es256 = before.find((key) => key.alg === 'ES256')!
    expect(es256).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' })
    // OpenID Connect Core §15.1: RS256 is mandatory for providers.
    expect(before.find((key) => key.alg === 'RS256')).toMatchObject({ kty: 'RSA', e: 'AQAB', use: 'sig' })
    await world.deps.keys.rotate('ES256')
    const after = bodyOf<{ keys: Record<string, unknown>[] }>(await world.call('getJwks')).keys
    expect(after).toHaveLength(3)
    expect(after.map((key) => key.kid)).toContain(es256.kid)
    for (const key of after) {
      expect(Object.keys(key).sort()).toEqual(key.kty === 'RSA' ? ['alg', 'e', 'kid', 'kty', 'n', 'use'] : ['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y'])
    }
  })
})

describe('userinfo', () => {
  async function bearer(scopes: string[]) {
    await world.deps.store.commit([grants.put('grt_1', { grantId: 'grt_1', userId: ada.userId, clientId: 'web', scopes, createdAtMs: 0, revokedAtMs: null, revokedReason: null, revokedAccessTokens: {} }, { kind: 'any' })])
    return (await issueAccessToken(world.deps, { userId: ada.userId, clientId: 'web', scopes, grantId: 'grt_1' })).token
  }

  it('answers sub alone with openid, and the profile claims with profile', async () => {
    expect(bodyOf(await world.call('getUserinfo', { credentials: { bearerToken: await bearer(['openid']) } }))).toEqual({ sub: ada.userId })
    expect(bodyOf(await world.call('postUserinfo', { credentials: { bearerToken: await bearer(['openid', 'profile']) }, body: {} }))).toEqual({
      sub: ada.userId, preferred_username: 'ada', name: 'Ada Test', updated_at: Date.parse('2026-06-25T00:00:00Z') / 1000,
    })
  })

  it('refuses a token without openid (403) and no token (401)', async () => {
    expect(await world.call('getUserinfo', { credentials: { bearerToken: await bearer(['cairn:record']) } })).toEqual(E.left(expect.objectContaining({ _tag: 'Forbidden' })))
    expect(await world.call('getUserinfo')).toEqual(E.left(expect.objectContaining({ _tag: 'Unauthenticated' })))
  })

  it('refuses a token whose account no longer exists', async () => {
    const token = await bearer(['openid'])
    await world.deps.store.commit([{ kind: 'delete', collection: 'identities', key: ada.userId, expect: { kind: 'any' } }])
    expect(await world.call('getUserinfo', { credentials: { bearerToken: token } })).toEqual(E.left(expect.objectContaining({ _tag: 'Unauthenticated' })))
  })
})
