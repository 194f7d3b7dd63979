/** POST /api/oidc/token in-process: the code exchange and refresh rotation, rule by rule. */
import * as E from 'fp-ts/lib/Either.js'
import { decodeJwt } from 'jose'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  authorizeQuery, clientCredentials, createOidcTestWorld, locationOf, PKCE, REDIRECT_URI, storeSnapshot, type OidcTestWorld, type SignedIn,
} from '../../hosts/http/oidc-test-support.js'
import type { Credentials } from '../auth/credentials.js'
import type { DomainError } from '../errors/domain-error.js'
import type { Reply } from '../usecases/use-case.js'
import { GRANTS, REFRESH_TOKENS } from './collections.js'
import { atHashOf } from './id-token.js'
import type { GrantRecord, RefreshTokenRecord } from './records.js'
import { secretKey } from './secrets.js'
import { verifyAccessToken } from './verify-access-token.js'

let world: OidcTestWorld
let ada: SignedIn
beforeEach(async () => {
  world = await createOidcTestWorld()
  ada = await world.signIn('ada')
})

const WEB = clientCredentials('web', 'web-secret')

interface Tokens { access_token: string; refresh_token: string; id_token?: string; scope: string; expires_in: number; token_type: string }

async function codeFor(overrides: Record<string, string | undefined> = {}): Promise<string> {
  const reply = await world.call('authorize', { query: authorizeQuery(overrides), credentials: { sessionCookie: ada.cookie } })
  return locationOf(reply).searchParams.get('code')!
}

const token = (body: Record<string, string>, credentials: Credentials = WEB) => world.call('exchangeToken', { body, credentials })

const exchangeForm = (code: string, overrides: Record<string, string> = {}) => ({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: PKCE.verifier, ...overrides })

function tokensOf(result: E.Either<DomainError, Reply>): Tokens {
  if (E.isLeft(result) || result.right.kind !== 'json') throw new Error(`expected tokens, got ${JSON.stringify(result)}`)
  expect(result.right.headers).toMatchObject({ 'cache-control': 'no-store' })
  return result.right.body as Tokens
}

async function expectRefusedWithoutWrites(run: () => Promise<E.Either<DomainError, Reply>>, tag: DomainError['_tag'], message: RegExp) {
  const before = await storeSnapshot(world.deps)
  const result = await run()
  expect(result).toEqual(E.left(expect.objectContaining({ _tag: tag, message: expect.stringMatching(message) })))
  expect(await storeSnapshot(world.deps)).toBe(before)
}

const ledgerActions = async () => (await world.deps.store.readStream('ledger.actions', { limit: 1000 })).items.map((entry) => (entry.value as { action: string }).action)
const valid = async (accessToken: string) => E.isRight(await verifyAccessToken(accessToken, world.deps))

describe('authorization_code', () => {
  it('issues access, refresh and ID tokens, and records the grant and a token_issued event', async () => {
    const tokens = tokensOf(await token(exchangeForm(await codeFor())))
    expect(tokens).toEqual({
      access_token: expect.any(String), token_type: 'Bearer', expires_in: 600, refresh_token: expect.stringMatching(/^cairn_rt_/),
      scope: 'openid profile cairn:record', id_token: expect.any(String),
    })
    expect(decodeJwt(tokens.id_token!)).toEqual({
      iss: 'https://cairn.test', sub: ada.userId, aud: 'web', iat: world.clock.now() / 1000, exp: world.clock.now() / 1000 + 600, nonce: 'nonce-1', at_hash: atHashOf(tokens.access_token),
      auth_time: world.clock.now() / 1000, amr: ['pop'],
    })
    expect(await valid(tokens.access_token)).toBe(true)
    const refresh = (await world.deps.store.get(REFRESH_TOKENS, secretKey(tokens.refresh_token)))!.value as unknown as RefreshTokenRecord
    expect(refresh).toMatchObject({ clientId: 'web', userId: ada.userId, scopes: ['openid', 'profile', 'cairn:record'], rotatedAtMs: null, expiresAtMs: world.clock.now() + 30 * 86_400_000 })
    expect((await world.deps.store.get(GRANTS, refresh.grantId))?.value).toMatchObject({ userId: ada.userId, clientId: 'web', revokedAtMs: null })
    expect(await ledgerActions()).toEqual(['token_issued'])
  })

  it('issues no ID token without openid', async () => {
    const tokens = tokensOf(await token(exchangeForm(await codeFor({ scope: 'cairn:record' }))))
    expect(tokens.id_token).toBeUndefined()
  })

  it('refuses a wrong verifier', async () => {
    const code = await codeFor()
    await expectRefusedWithoutWrites(() => token(exchangeForm(code, { code_verifier: 'x'.repeat(43) })), 'InvalidInput', /^invalid_grant: The code_verifier does not match/)
  })
  it('refuses a missing or malformed verifier', async () => {
    const code = await codeFor()
    await expectRefusedWithoutWrites(() => token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }), 'InvalidInput', /^invalid_request: code_verifier is required/)
    await expectRefusedWithoutWrites(() => token(exchangeForm(code, { code_verifier: 'short' })), 'InvalidInput', /^invalid_request/)
  })
  it('refuses the challenge itself as verifier (plain)', async () => {
    const code = await codeFor()
    await expectRefusedWithoutWrites(() => token(exchangeForm(code, { code_verifier: PKCE.challenge })), 'InvalidInput', /^invalid_grant/)
  })
  it('refuses a different redirect_uri', async () => {
    const code = await codeFor()
    await expectRefusedWithoutWrites(() => token(exchangeForm(code, { redirect_uri: 'https://rp.example/other' })), 'InvalidInput', /^invalid_grant: redirect_uri differs/)
  })
  it('refuses another client', async () => {
    const code = await codeFor()
    await expectRefusedWithoutWrites(() => token(exchangeForm(code), clientCredentials('partner', 'partner-secret')), 'InvalidInput', /^invalid_grant: The authorization code was issued to another client/)
  })
  it('refuses an expired code (60 s)', async () => {
    const code = await codeFor()
    world.clock.advance(60_000)
    await expectRefusedWithoutWrites(() => token(exchangeForm(code)), 'InvalidInput', /^invalid_grant: The authorization code has expired/)
  })
  it('refuses an unknown code', () => expectRefusedWithoutWrites(() => token(exchangeForm('nope')), 'InvalidInput', /^invalid_grant: The authorization code is not valid/))
  it('refuses missing grant_type and unsupported ones', async () => {
    await expectRefusedWithoutWrites(() => token({ code: 'x' }), 'InvalidInput', /^invalid_request: grant_type is required/)
    await expectRefusedWithoutWrites(() => token({ grant_type: 'client_credentials' }), 'InvalidInput', /^unsupported_grant_type/)
    await expectRefusedWithoutWrites(() => token({ grant_type: 'password' }), 'InvalidInput', /^unsupported_grant_type/)
  })
  it('refuses unauthenticated clients at the boundary (401)', async () => {
    const code = await codeFor()
    await expectRefusedWithoutWrites(() => token(exchangeForm(code), clientCredentials('web', 'wrong')), 'Unauthenticated', /client credentials are not valid/)
    await expectRefusedWithoutWrites(() => token(exchangeForm(code), {}), 'Unauthenticated', /client authentication/)
  })

  it('works once: a reused code is refused and revokes every token it issued', async () => {
    const code = await codeFor()
    const tokens = tokensOf(await token(exchangeForm(code)))
    const again = await token(exchangeForm(code))
    expect(again).toEqual(E.left(expect.objectContaining({ message: expect.stringMatching(/^invalid_grant: The authorization code was already used/) })))
    expect(await valid(tokens.access_token)).toBe(false)
    expect(await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).toEqual(E.left(expect.objectContaining({ message: expect.stringMatching(/^invalid_grant/) })))
    expect(await ledgerActions()).toEqual(['token_issued', 'grant_revoked'])
    // A third try finds the grant already revoked: nothing more is written.
    await expectRefusedWithoutWrites(() => token(exchangeForm(code)), 'InvalidInput', /^invalid_grant/)
  })

  it('lets one of two simultaneous exchanges of a code win; the other counts as reuse', async () => {
    const code = await codeFor()
    const results = await Promise.all([token(exchangeForm(code)), token(exchangeForm(code))])
    expect(results.filter(E.isRight)).toHaveLength(1)
    const winner = tokensOf(results.find(E.isRight)!)
    expect(await valid(winner.access_token)).toBe(false)
  })
})

describe('refresh_token', () => {
  async function signedIn(scope?: string) {
    return tokensOf(await token(exchangeForm(await codeFor(scope ? { scope } : {}))))
  }
  const refresh = (refreshToken: string, extra: Record<string, string> = {}, credentials: Credentials = WEB) =>
    token({ grant_type: 'refresh_token', refresh_token: refreshToken, ...extra }, credentials)

  it('rotates: a new refresh token each time, the old one marked, a token_refreshed event', async () => {
    const first = await signedIn()
    const second = tokensOf(await refresh(first.refresh_token))
    expect(second.refresh_token).not.toBe(first.refresh_token)
    expect(second.scope).toBe('openid profile cairn:record')
    const old = (await world.deps.store.get(REFRESH_TOKENS, secretKey(first.refresh_token)))!.value as unknown as RefreshTokenRecord
    expect(old.rotatedAtMs).toBe(world.clock.now())
    expect(decodeJwt(second.id_token!).nonce).toBeUndefined()
    expect(await valid(second.access_token)).toBe(true)
    expect(await ledgerActions()).toEqual(['token_issued', 'token_refreshed'])
  })

  it('revokes the whole grant when a rotated refresh token comes back', async () => {
    const first = await signedIn()
    const second = tokensOf(await refresh(first.refresh_token))
    const reuse = await refresh(first.refresh_token)
    expect(reuse).toEqual(E.left(expect.objectContaining({ message: expect.stringMatching(/^invalid_grant: The refresh token was already used/) })))
    expect(await valid(first.access_token)).toBe(false)
    expect(await valid(second.access_token)).toBe(false)
    await expectRefusedWithoutWrites(() => refresh(second.refresh_token), 'InvalidInput', /^invalid_grant: The refresh token has been revoked/)
    const grant = (await world.deps.store.query(GRANTS, { index: 'byUserClient' })).items[0]!.value as unknown as GrantRecord
    expect(grant).toMatchObject({ revokedAtMs: world.clock.now(), revokedReason: 'refresh token reused' })
    expect(await ledgerActions()).toEqual(['token_issued', 'token_refreshed', 'grant_revoked'])
  })

  it('narrows scopes for the access token but keeps the refresh token\'s; never widens', async () => {
    const first = await signedIn()
    const narrow = tokensOf(await refresh(first.refresh_token, { scope: 'cairn:record' }))
    expect(narrow.scope).toBe('cairn:record')
    expect(narrow.id_token).toBeUndefined()
    const full = tokensOf(await refresh(narrow.refresh_token))
    expect(full.scope).toBe('openid profile cairn:record')
    await expectRefusedWithoutWrites(() => refresh(full.refresh_token, { scope: 'openid cairn:wallet.read' }), 'InvalidInput', /^invalid_scope/)
  })

  it('refuses an expired refresh token (30 days), another client\'s, an unknown one, and none', async () => {
    const first = await signedIn()
    await expectRefusedWithoutWrites(() => refresh(first.refresh_token, {}, clientCredentials('partner', 'partner-secret')), 'InvalidInput', /^invalid_grant: The refresh token was issued to another client/)
    await expectRefusedWithoutWrites(() => refresh('cairn_rt_unknown'), 'InvalidInput', /^invalid_grant: The refresh token is not valid/)
    await expectRefusedWithoutWrites(() => token({ grant_type: 'refresh_token' }), 'InvalidInput', /^invalid_request: refresh_token is required/)
    world.clock.advance(30 * 86_400_000)
    await expectRefusedWithoutWrites(() => refresh(first.refresh_token), 'InvalidInput', /^invalid_grant: The refresh token has expired/)
  })
})
