/** The small pure rules: PKCE S256, scopes, secrets, agent token terms, lifetimes. */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { testDeployment } from '../../hosts/http/oidc-test-support.js'
import { SeededEntropy } from '../../adapters/memory/seeded-entropy.js'
import { sha256Hex } from '../digest/sha256.js'
import { SCOPES } from '../contract/scopes.js'
import { checkAgentTokenRequest } from './agent-token-rules.js'
import { findClient, isConfidential } from './clients.js'
import { ACCESS_TOKEN_SECONDS, AGENT_TOKEN_MAX_SECONDS, AUTHORIZATION_CODE_SECONDS, REFRESH_TOKEN_SECONDS } from './lifetimes.js'
import { oauthError } from './oauth-errors.js'
import { isCodeVerifier, isS256Challenge, s256ChallengeOf, verifiesS256 } from './pkce.js'
import { tokenKindOf } from './presented-token.js'
import { isSubset, KNOWN_SCOPES, parseScopes, refusedScopes, unknownScopes } from './scopes.js'
import { newSecret, REFRESH_TOKEN_PREFIX, sameSecret, secretKey } from './secrets.js'

const deps = { config: { baseUrl: 'https://cairn.test', deployment: testDeployment() } }

describe('PKCE S256 (RFC 7636)', () => {
  it('computes the RFC 7636 Appendix B challenge', () => {
    expect(s256ChallengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')
  })
  it('accepts the matching verifier only', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'
    expect(verifiesS256(verifier, s256ChallengeOf(verifier))).toBe(true)
    expect(verifiesS256(`${verifier.slice(0, -1)}Y`, s256ChallengeOf(verifier))).toBe(false)
    // plain: the challenge equal to the verifier is never accepted.
    expect(verifiesS256(verifier, verifier)).toBe(false)
  })
  it('bounds verifier and challenge shapes', () => {
    expect(isCodeVerifier('a'.repeat(42))).toBe(false)
    expect(isCodeVerifier('a'.repeat(43))).toBe(true)
    expect(isCodeVerifier('a'.repeat(128))).toBe(true)
    expect(isCodeVerifier('a'.repeat(129))).toBe(false)
    expect(isCodeVerifier(`${'a'.repeat(42)}+`)).toBe(false)
    expect(isS256Challenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true)
    expect(isS256Challenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM=')).toBe(false)
    expect(isS256Challenge('short')).toBe(false)
  })
})

describe('scopes', () => {
  it('knows openid, profile and every cairn scope of the contract', () => {
    expect(KNOWN_SCOPES).toEqual(Object.keys(SCOPES))
    expect(KNOWN_SCOPES.filter((scope) => scope.startsWith('cairn:')).length).toBeGreaterThan(10)
  })
  it('parses space-separated scopes once each', () => {
    expect(parseScopes(' openid  profile openid ')).toEqual(['openid', 'profile'])
    expect(parseScopes(undefined)).toEqual([])
  })
  it('finds unknown scopes', () => expect(unknownScopes(['openid', 'cairn:nope', 'email'])).toEqual(['cairn:nope', 'email']))
  it('refuses scopes outside the client allow list and production without Business tier', () => {
    const partner = findClient(deps, 'partner')
    expect(refusedScopes(['openid', 'cairn:wallet.read'], partner, { businessTier: true })).toEqual(['cairn:wallet.read'])
    expect(refusedScopes(['cairn:production'], findClient(deps, 'web'), { businessTier: false })).toEqual(['cairn:production'])
    expect(refusedScopes(['cairn:production'], findClient(deps, 'web'), { businessTier: true })).toEqual([])
  })
  it('checks subsets', () => {
    expect(isSubset(['a'], ['a', 'b'])).toBe(true)
    expect(isSubset(['a', 'c'], ['a', 'b'])).toBe(false)
  })
})

describe('secrets and clients', () => {
  it('makes prefixed 256-bit secrets, stored by SHA-256', () => {
    const secret = newSecret({ entropy: new SeededEntropy('s') }, REFRESH_TOKEN_PREFIX)
    expect(secret).toMatch(/^cairn_rt_[A-Za-z0-9_-]{43}$/)
    expect(secretKey(secret)).toBe(sha256Hex(secret))
    expect(tokenKindOf(secret)).toBe('refresh')
    expect(tokenKindOf('cairn_at_x')).toBe('agent')
    expect(tokenKindOf('eyJ.x.y')).toBe('access')
  })
  it('compares secrets in constant time', () => {
    expect(sameSecret('abc', 'abc')).toBe(true)
    expect(sameSecret('abc', 'abd')).toBe(false)
    expect(sameSecret('abc', 'abcd')).toBe(false)
  })
  it('tells confidential from public clients', () => {
    expect(isConfidential(findClient(deps, 'web')!)).toBe(true)
    expect(isConfidential(findClient(deps, 'spa')!)).toBe(false)
    expect(findClient(deps, 'nobody')).toBeUndefined()
  })
})

describe('OAuth error sentences', () => {
  it('open with the RFC 6749 code and carry the bare code for the HTTP body; invalid_client is 401, the rest 400', () => {
    expect(oauthError('invalid_grant', 'The code expired')).toEqual({
      _tag: 'InvalidInput', message: 'invalid_grant: The code expired', oauth: { code: 'invalid_grant', description: 'The code expired' },
    })
    expect(oauthError('invalid_client', 'Who are you')._tag).toBe('Unauthenticated')
  })
})

describe('lifetimes', () => {
  it('are the documented ones', () => {
    expect([AUTHORIZATION_CODE_SECONDS, ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS]).toEqual([60, 600, 2_592_000])
  })
})

describe('agent token terms', () => {
  const user = { businessTier: false }
  const check = (body: Record<string, unknown>, who = user) => checkAgentTokenRequest({ clientId: 'ci', scopes: ['cairn:record'], ...body } as never, who, deps)
  const message = (result: ReturnType<typeof check>) => (E.isLeft(result) ? `${result.left._tag}: ${result.left.message}` : 'accepted')

  it('accepts known grantable scopes with defaults', () => {
    expect(check({})).toEqual(E.right({ clientId: 'ci', scopes: ['cairn:record'], label: '', auditLabels: {}, lifetimeSeconds: 30 * 86_400 }))
  })
  it('refuses unknown scopes (400) and scopes the user may not grant (403)', () => {
    expect(message(check({ scopes: ['cairn:nope'] }))).toMatch(/^InvalidInput/)
    expect(message(check({ scopes: [] }))).toMatch(/^InvalidInput/)
    expect(message(check({ scopes: ['cairn:production'] }))).toMatch(/^Forbidden/)
    expect(message(check({ scopes: ['cairn:production'] }, { businessTier: true }))).toBe('accepted')
    expect(message(check({ clientId: 'partner', scopes: ['cairn:wallet.read'] }))).toMatch(/^Forbidden/)
  })
  it('bounds labels, audit labels and lifetime, and refuses tokenId on creation', () => {
    expect(message(check({ label: 'x'.repeat(201) }))).toMatch(/^InvalidInput/)
    expect(message(check({ label: 'ci\u0000runner' }))).toMatch(/^InvalidInput: label must be/)
    expect(message(check({ label: 'report\u202Efdp.exe' }))).toMatch(/^InvalidInput: label must be/)
    expect(message(check({ auditLabels: { repo: 'a\u0000b' } }))).toMatch(/^InvalidInput: auditLabels values/)
    expect(message(check({ auditLabels: { 'bad name': 'x' } }))).toMatch(/^InvalidInput/)
    expect(message(check({ auditLabels: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }))).toMatch(/^InvalidInput/)
    expect(message(check({ auditLabels: { ok: 'x'.repeat(257) } }))).toMatch(/^InvalidInput/)
    expect(message(check({ expiresIn: 59 }))).toMatch(/^InvalidInput/)
    expect(message(check({ expiresIn: AGENT_TOKEN_MAX_SECONDS + 1 }))).toMatch(/^InvalidInput/)
    expect(message(check({ expiresIn: 3600 }))).toBe('accepted')
    expect(message(check({ tokenId: 'agt_x' }))).toMatch(/^InvalidInput/)
    expect(message(check({ clientId: 'has space' }))).toMatch(/^InvalidInput/)
  })
})
