/** The bearer check refuses everything but a live token Cairn issued for itself. */
import * as E from 'fp-ts/lib/Either.js'
import { generateKeyPair, SignJWT, exportJWK, calculateJwkThumbprint } from 'jose'
import { beforeEach, describe, expect, it } from 'vitest'
import { createOidcTestWorld, type OidcTestWorld } from '../../hosts/http/oidc-test-support.js'
import { MemoryKeyStore } from '../../adapters/memory/memory-key-store.js'
import type { KeyStore } from '../../ports/key-store.js'
import { toBase64Url } from '../encoding/base64url.js'
import { issueAccessToken } from './access-token.js'
import { agentTokens, grants } from './collections.js'
import { loadGrant, revokeAccessTokenWrites, revokeGrantWrites } from './grants.js'
import type { AgentTokenRecord, GrantRecord } from './records.js'
import { secretKey } from './secrets.js'
import { signJwt } from './sign-jwt.js'
import { verifyAccessToken } from './verify-access-token.js'
import { MAX_REMEMBERED_TOKENS, rememberClaims, rememberedClaims } from './verified-tokens.js'

let world: OidcTestWorld
beforeEach(async () => {
  world = await createOidcTestWorld()
})

const GRANT: GrantRecord = {
  grantId: 'grt_1', userId: 'usr_ada', clientId: 'web', scopes: ['openid', 'cairn:record'], createdAtMs: 0, revokedAtMs: null, revokedReason: null, revokedAccessTokens: {},
}

async function issued(grant: GrantRecord = GRANT) {
  await world.deps.store.commit([grants.put(grant.grantId, grant, { kind: 'absent' })])
  return issueAccessToken(world.deps, grant)
}

async function refusal(token: string): Promise<string> {
  const result = await verifyAccessToken(token, world.deps)
  if (E.isRight(result)) throw new Error('the token was accepted')
  expect(result.left._tag).toBe('Unauthenticated')
  return result.left.message
}

const encode = (value: unknown) => toBase64Url(new TextEncoder().encode(JSON.stringify(value)))

/** Claims as Cairn issues them, for forging variants. */
async function validClaims(): Promise<Record<string, unknown>> {
  return { ...(await issued()).claims }
}

describe('verifyAccessToken (JWT access tokens)', () => {
  it('accepts a token Cairn issued and answers its grant', async () => {
    const { token, claims } = await issued()
    expect(await verifyAccessToken(token, world.deps)).toEqual(E.right({ subject: 'usr_ada', clientId: 'web', scopes: ['openid', 'cairn:record'], tokenId: claims.jti, actsAsClient: true }))
  })

  it('issues RFC 9068 tokens: typ at+jwt, ES256, kid of the KeyStore key, every required claim', async () => {
    const { token, claims } = await issued()
    const [header] = token.split('.')
    const key = await world.deps.keys.current('ES256')
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' })
    expect(claims).toEqual({
      iss: 'https://cairn.test', aud: 'https://cairn.test', sub: 'usr_ada', client_id: 'web', scope: 'openid cairn:record',
      jti: expect.stringMatching(/^at_/), iat: world.clock.now() / 1000, exp: world.clock.now() / 1000 + 600, grant_id: 'grt_1',
    })
  })

  it('refuses an expired token', async () => {
    const { token } = await issued()
    world.clock.advance(600_000)
    expect(await refusal(token)).toBe('The access token has expired')
  })

  it('refuses a token whose jti was revoked, and every token of a revoked grant', async () => {
    const first = await issued()
    const second = await issueAccessToken(world.deps, GRANT)
    let grant = (await loadGrant(world.deps, 'grt_1'))!
    await world.deps.store.commit(revokeAccessTokenWrites(grant, first.claims.jti, first.claims.exp, world.clock.now()))
    expect(await refusal(first.token)).toBe('The access token has been revoked')
    expect(E.isRight(await verifyAccessToken(second.token, world.deps))).toBe(true)
    grant = (await loadGrant(world.deps, 'grt_1'))!
    await world.deps.store.commit(revokeGrantWrites(grant, 'test', world.clock.now()))
    expect(await refusal(second.token)).toBe('The access token has been revoked')
  })

  it('refuses a token whose grant does not exist or belongs to someone else', async () => {
    const orphan = await issueAccessToken(world.deps, { ...GRANT, grantId: 'grt_missing' })
    expect(await refusal(orphan.token)).toBe('The access token is not valid')
    await issued()
    const mismatched = await issueAccessToken(world.deps, { ...GRANT, userId: 'usr_mallory' })
    expect(await refusal(mismatched.token)).toBe('The access token is not valid')
  })

  it('refuses alg none', async () => {
    const claims = await validClaims()
    expect(await refusal(`${encode({ alg: 'none', typ: 'at+jwt' })}.${encode(claims)}.`)).toBe('The access token is not valid')
  })

  it('refuses HS256 made with the public key as secret (algorithm confusion)', async () => {
    const claims = await validClaims()
    const key = await world.deps.keys.current('ES256')
    const secret = new TextEncoder().encode(JSON.stringify(key.publicJwk))
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: key.kid }).sign(secret)
    expect(await refusal(forged)).toBe('The access token is not valid')
  })

  it('refuses a token signed by a foreign key, whether it names its own kid or Cairn\'s', async () => {
    const claims = await validClaims()
    const foreign = await generateKeyPair('ES256')
    const foreignKid = await calculateJwkThumbprint(await exportJWK(foreign.publicKey))
    const ownKid = (await world.deps.keys.current('ES256')).kid
    const withForeignKid = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: foreignKid }).sign(foreign.privateKey)
    const withCairnKid = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: ownKid }).sign(foreign.privateKey)
    expect(await refusal(withForeignKid)).toBe('The access token was not signed by this Cairn')
    expect(await refusal(withCairnKid)).toBe('The access token is not valid')
  })

  it('refuses a token signed with Cairn\'s EdDSA key (only ES256 signs tokens)', async () => {
    const claims = await validClaims()
    const key = await world.deps.keys.current('EdDSA')
    const input = `${encode({ alg: 'EdDSA', typ: 'at+jwt', kid: key.kid })}.${encode(claims)}`
    const token = `${input}.${toBase64Url(await key.sign(new TextEncoder().encode(input)))}`
    expect(await refusal(token)).toBe('The access token is not valid')
  })

  it('refuses Cairn-signed tokens with the wrong issuer, audience or typ, or a missing claim', async () => {
    const claims = await validClaims()
    expect(await refusal(await signJwt(world.deps, 'at+jwt', { ...claims, iss: 'https://evil.test' }))).toBe('The access token is not valid')
    expect(await refusal(await signJwt(world.deps, 'at+jwt', { ...claims, aud: 'https://other.test' }))).toBe('The access token is not valid')
    expect(await refusal(await signJwt(world.deps, 'JWT', claims))).toBe('The access token is not valid')
    const { grant_id: _dropped, ...withoutGrant } = claims
    expect(await refusal(await signJwt(world.deps, 'at+jwt', withoutGrant))).toBe('The access token is not valid')
    expect(await refusal(await signJwt(world.deps, 'at+jwt', { ...claims, scope: 7 }))).toBe('The access token is not valid')
  })

  it('refuses an ID token presented as an access token', async () => {
    const claims = await validClaims()
    const idToken = await signJwt(world.deps, 'JWT', { iss: claims.iss, sub: claims.sub, aud: 'web', iat: claims.iat, exp: claims.exp })
    expect(await refusal(idToken)).toBe('The access token is not valid')
  })

  it('refuses a tampered payload and garbage', async () => {
    const { token } = await issued()
    const [header, , signature] = token.split('.')
    const tampered = `${header}.${encode({ ...(await validClaims()), scope: 'cairn:production' })}.${signature}`
    expect(await refusal(tampered)).toBe('The access token is not valid')
    expect(await refusal('garbage')).toBe('The access token is not valid')
    expect(await refusal('')).toBe('The access token is not valid')
  })

  it('refuses tokens of a client the deployment no longer registers', async () => {
    const { token } = await issued({ ...GRANT, clientId: 'gone', grantId: 'grt_gone' })
    expect(await refusal(token)).toBe('The access token was issued to a client that is no longer registered')
  })

  it('keeps verifying tokens of a retired key after rotation, and verifies the new key at once', async () => {
    const before = await issued()
    await world.deps.keys.rotate('ES256')
    const after = await issueAccessToken(world.deps, GRANT)
    expect(E.isRight(await verifyAccessToken(before.token, world.deps))).toBe(true)
    expect(E.isRight(await verifyAccessToken(after.token, world.deps))).toBe(true)
  })

  it('reloads the JWKS on an unknown kid (a key another host added), at most once per 5 seconds', async () => {
    // Two hosts over one shared key ring: each sees it through its own KeyStore object (own cache).
    const ring = new MemoryKeyStore()
    const view = (): KeyStore => ({ current: (alg) => ring.current(alg), rotate: (alg) => ring.rotate(alg), jwks: () => ring.jwks() })
    world = await createOidcTestWorld({ keys: view() })
    const other = await createOidcTestWorld({ keys: view(), clock: world.clock })
    for (const w of [world, other]) await w.deps.store.commit([grants.put(GRANT.grantId, GRANT, { kind: 'absent' })])

    const first = await issueAccessToken(other.deps, GRANT)
    expect(E.isRight(await verifyAccessToken(first.token, world.deps))).toBe(true) // first reload
    await other.deps.keys.rotate('ES256')
    const second = await issueAccessToken(other.deps, GRANT)
    expect(await refusal(second.token)).toBe('The access token was not signed by this Cairn') // reloaded too recently
    world.clock.advance(5_000)
    expect(E.isRight(await verifyAccessToken(second.token, world.deps))).toBe(true)
  })
})

describe('verifyAccessToken (tokens verified before, remembered by their exact text)', () => {
  const accepted = async (token: string) => expect(E.isRight(await verifyAccessToken(token, world.deps))).toBe(true)

  it('refuses any copy of a remembered token with a character changed, in its payload or its signature', async () => {
    const { token } = await issued()
    await accepted(token)
    const [header, payload, signature] = token.split('.') as [string, string, string]
    const flip = (text: string, at: number) => `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`
    for (const at of [0, 10, payload.length - 2]) expect(await refusal(`${header}.${flip(payload, at)}.${signature}`)).toBe('The access token is not valid')
    for (const at of [0, 40, signature.length - 2]) expect(await refusal(`${header}.${payload}.${flip(signature, at)}`)).toBe('The access token is not valid')
    expect(await refusal(`${header}.${encode({ ...(await validClaims()), scope: 'cairn:production' })}.${signature}`)).toBe('The access token is not valid')
    await accepted(token)
  })

  it('refuses a remembered token once it expires, to the second', async () => {
    const { token, claims } = await issued()
    await accepted(token)
    world.clock.set(claims.exp * 1000 - 1)
    await accepted(token)
    world.clock.set(claims.exp * 1000)
    expect(await refusal(token)).toBe('The access token has expired')
  })

  it('refuses a remembered token whose grant is revoked', async () => {
    const { token } = await issued()
    await accepted(token)
    await world.deps.store.commit(revokeGrantWrites((await loadGrant(world.deps, 'grt_1'))!, 'test', world.clock.now()))
    expect(await refusal(token)).toBe('The access token has been revoked')
  })

  it('refuses a remembered token at a deployment of another URL sharing the keys, and once its client is no longer registered', async () => {
    const { token } = await issued()
    await accepted(token)
    const elsewhere = { ...world.deps, config: { ...world.deps.config, baseUrl: 'https://other.test' } }
    expect(E.isLeft(await verifyAccessToken(token, elsewhere))).toBe(true)
    const withoutClient = { ...world.deps, config: { ...world.deps.config, deployment: { ...world.deps.config.deployment, clients: [] } } }
    const refused = await verifyAccessToken(token, withoutClient)
    expect(E.isLeft(refused) && refused.left.message).toBe('The access token was issued to a client that is no longer registered')
    await accepted(token)
  })

  it('remembers at most MAX_REMEMBERED_TOKENS per key store, forgetting the oldest, and verifies a forgotten one again', async () => {
    const keys = new MemoryKeyStore()
    const claims = (await issued()).claims
    for (let i = 0; i <= MAX_REMEMBERED_TOKENS; i++) rememberClaims(keys, 'https://cairn.test', `token-${i}`, claims)
    expect(rememberedClaims(keys, 'https://cairn.test', 'token-0')).toBeUndefined()
    expect(rememberedClaims(keys, 'https://cairn.test', 'token-1')).toEqual(claims)
    expect(rememberedClaims(keys, 'https://cairn.test', `token-${MAX_REMEMBERED_TOKENS}`)).toEqual(claims)
    expect(rememberedClaims(keys, 'https://other.test', 'token-1')).toBeUndefined()
  })
})

describe('verifyAccessToken (agent tokens)', () => {
  const token = 'cairn_at_0123456789012345678901234567890123456789012'
  const record: AgentTokenRecord = {
    tokenId: 'agt_1', userId: 'usr_ada', clientId: 'ci', scopes: ['cairn:record'], label: 'nightly', auditLabels: { repo: 'x' },
    createdAtMs: Date.parse('2026-06-25T00:00:00Z'), expiresAtMs: Date.parse('2026-06-26T00:00:00Z'), revokedAtMs: null,
  }
  const store = (value: AgentTokenRecord) => world.deps.store.commit([agentTokens.put(secretKey(token), value, { kind: 'any' })])

  it('accepts a live agent token', async () => {
    await store(record)
    expect(await verifyAccessToken(token, world.deps)).toEqual(E.right({ subject: 'usr_ada', clientId: 'ci', scopes: ['cairn:record'], tokenId: 'agt_1', actsAsClient: false }))
  })
  it('refuses unknown, revoked and expired agent tokens', async () => {
    expect(await refusal(token)).toBe('The access token is not valid')
    await store({ ...record, revokedAtMs: 1 })
    expect(await refusal(token)).toBe('The access token has been revoked')
    await store(record)
    world.clock.set(record.expiresAtMs)
    expect(await refusal(token)).toBe('The access token has expired')
  })
})
