import { createHash } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { memoryDeps } from '../../hosts/http/describe-env.js'
import { unauthenticated, unavailable, type DomainError } from '../errors/domain-error.js'
import { IDENTITIES, identityValue, type IdentityRecord } from '../identity/identities.js'
import { identityCollections } from '../identity/index.js'
import { endSession, newSession, SESSION_LIFETIME_MS } from '../identity/sessions.js'
import type { AccessGrant, VerifyBearer } from './access-grant.js'
import type { Authenticator } from './authenticator.js'
import { createCairnAuthenticator } from './cairn-authenticator.js'
import type { Principal } from './principal.js'

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

const deps = memoryDeps({
  deployment: {
    businessAccounts: ['Boss'],
    clients: [
      { clientId: 'web', redirectUris: ['https://app.example/cb'], clientSecretSha256: sha256('web-secret') },
      { clientId: 'spa', redirectUris: ['https://spa.example/cb'] },
      { clientId: 'broken', redirectUris: ['https://b.example/cb'], clientSecretSha256: 'not-a-digest' },
    ],
  },
})

const grants: Record<string, AccessGrant> = {
  'tok-ada': { subject: 'usr_ada', clientId: 'web', scopes: ['openid', 'cairn:record'], tokenId: 't1' },
  'tok-boss': { subject: 'usr_boss', clientId: 'web', scopes: ['cairn:production'], tokenId: 't2' },
  'tok-boss-read': { subject: 'usr_boss', clientId: 'web', scopes: ['cairn:record'], tokenId: 't3' },
  'tok-ada-production': { subject: 'usr_ada', clientId: 'web', scopes: ['cairn:production'], tokenId: 't4' },
}
const verifierCalls: string[] = []
const verifyBearer: VerifyBearer = async (token) => {
  verifierCalls.push(token)
  if (token === 'tok-store-down') return E.left(unavailable('token store unavailable'))
  const grant = grants[token]
  return grant ? E.right(grant) : E.left(unauthenticated('unknown token'))
}

const auth: Authenticator = createCairnAuthenticator({ deps, verifyBearer })
const cookies = { ada: '', boss: '', ended: '', expired: '', orphan: '' }

function identity(userId: string, username: string): IdentityRecord {
  return { userId, username, displayName: username, email: null, localUid: 'l', keys: [], createdAt: '2026-06-25T00:00:00.000Z', updatedAt: '2026-06-25T00:00:00.000Z' }
}

beforeAll(async () => {
  await deps.store.declare(identityCollections)
  await deps.store.commit([
    { kind: 'put', collection: IDENTITIES, key: 'usr_ada', value: identityValue(identity('usr_ada', 'ada')), expect: { kind: 'absent' } },
    { kind: 'put', collection: IDENTITIES, key: 'usr_boss', value: identityValue(identity('usr_boss', 'boss')), expect: { kind: 'absent' } },
  ])
  // The expired session starts a lifetime earlier than the others.
  deps.clock.advance(-SESSION_LIFETIME_MS)
  const expired = newSession(deps, 'usr_ada')
  deps.clock.advance(SESSION_LIFETIME_MS)
  const sessions = { ada: newSession(deps, 'usr_ada'), boss: newSession(deps, 'usr_boss'), ended: newSession(deps, 'usr_ada'), orphan: newSession(deps, 'usr_gone'), expired }
  await deps.store.commit(Object.values(sessions).map((s) => s.write))
  for (const [name, session] of Object.entries(sessions)) cookies[name as keyof typeof cookies] = session.cookieValue
  await endSession(deps, cookies.ended)
})

const tagOf = (result: Either<DomainError, Principal>) => (E.isLeft(result) ? result.left._tag : result.right.kind)
const messageOf = (result: Either<DomainError, Principal>) => (E.isLeft(result) ? result.left.message : '')

describe.each(['None', 'ProofConsent'] as const)('%s operations', (cls) => {
  it('are open to anonymous callers', async () => {
    expect(await auth.authenticate(cls, [], {})).toEqual(E.right({ kind: 'anonymous' }))
  })

  it('identify a caller with a valid session', async () => {
    expect(await auth.authenticate(cls, [], { sessionCookie: cookies.ada })).toEqual(
      E.right({ kind: 'session', userId: 'usr_ada', sessionId: sha256(cookies.ada), businessTier: false, authTimeMs: expect.any(Number) }),
    )
  })

  it('ignore an invalid, ended or expired session cookie, and never check bearer tokens', async () => {
    verifierCalls.length = 0
    for (const sessionCookie of ['garbage', cookies.ended, cookies.expired, cookies.orphan]) {
      expect(await auth.authenticate(cls, [], { sessionCookie })).toEqual(E.right({ kind: 'anonymous' }))
    }
    expect(await auth.authenticate(cls, [], { bearerToken: 'tok-ada' })).toEqual(E.right({ kind: 'anonymous' }))
    expect(verifierCalls).toEqual([])
  })
})

describe('Session operations', () => {
  it('need a session cookie (401)', async () => {
    const result = await auth.authenticate('Session', [], {})
    expect(tagOf(result)).toBe('Unauthenticated')
    expect(messageOf(result)).toContain('requires a signed-in session')
  })

  it('refuse invalid, ended, expired and orphaned sessions (401)', async () => {
    for (const sessionCookie of ['garbage', cookies.ended, cookies.expired, cookies.orphan]) {
      expect(tagOf(await auth.authenticate('Session', [], { sessionCookie }))).toBe('Unauthenticated')
    }
  })

  it('give the session principal with its tier', async () => {
    expect(await auth.authenticate('Session', [], { sessionCookie: cookies.boss })).toEqual(
      E.right({ kind: 'session', userId: 'usr_boss', sessionId: sha256(cookies.boss), businessTier: true, authTimeMs: expect.any(Number) }),
    )
  })

  it('expire sessions by the Clock', async () => {
    deps.clock.advance(SESSION_LIFETIME_MS)
    expect(tagOf(await auth.authenticate('Session', [], { sessionCookie: cookies.ada }))).toBe('Unauthenticated')
    deps.clock.advance(-SESSION_LIFETIME_MS)
  })
})

describe('Bearer operations', () => {
  it('need a token (401) that verifies (401)', async () => {
    expect(tagOf(await auth.authenticate('Bearer', ['cairn:record'], {}))).toBe('Unauthenticated')
    expect(tagOf(await auth.authenticate('Bearer', ['cairn:record'], { bearerToken: 'revoked-or-expired' }))).toBe('Unauthenticated')
    expect(tagOf(await auth.authenticate('Bearer', ['cairn:record'], { sessionCookie: cookies.ada }))).toBe('Unauthenticated')
  })

  it('keep an unavailable verifier a 503, not a 401', async () => {
    expect(tagOf(await auth.authenticate('Bearer', [], { bearerToken: 'tok-store-down' }))).toBe('Unavailable')
  })

  it('refuse a valid token that lacks a listed scope with 403 naming every missing scope', async () => {
    const one = await auth.authenticate('Bearer', ['cairn:record', 'cairn:seal'], { bearerToken: 'tok-ada' })
    expect(tagOf(one)).toBe('Forbidden')
    expect(messageOf(one)).toContain('cairn:seal')
    expect(messageOf(one)).not.toContain('cairn:record')
    const two = await auth.authenticate('Bearer', ['cairn:seal', 'cairn:verify'], { bearerToken: 'tok-ada' })
    expect(messageOf(two)).toContain('cairn:seal cairn:verify')
  })

  it('give the bearer principal when every scope is granted', async () => {
    expect(await auth.authenticate('Bearer', ['openid', 'cairn:record'], { bearerToken: 'tok-ada' })).toEqual(
      E.right({ kind: 'bearer', subject: 'usr_ada', clientId: 'web', scopes: ['openid', 'cairn:record'], tokenId: 't1', businessTier: false }),
    )
    expect(await auth.authenticate('Bearer', [], { bearerToken: 'tok-boss' })).toMatchObject(E.right({ kind: 'bearer', businessTier: true }))
  })
})

describe('Client operations', () => {
  const client = (clientId: string, clientSecret: string | undefined, method: 'basic' | 'post' = 'basic') => ({
    client: { clientId, ...(clientSecret === undefined ? {} : { clientSecret }), method },
  })

  it('need client authentication (401)', async () => {
    expect(tagOf(await auth.authenticate('Client', [], {}))).toBe('Unauthenticated')
    expect(tagOf(await auth.authenticate('Client', [], { bearerToken: 'tok-ada' }))).toBe('Unauthenticated')
  })

  it('accept a confidential client with its secret, by Basic or in the form', async () => {
    expect(await auth.authenticate('Client', [], client('web', 'web-secret', 'basic'))).toEqual(E.right({ kind: 'client', clientId: 'web' }))
    expect(await auth.authenticate('Client', [], client('web', 'web-secret', 'post'))).toEqual(E.right({ kind: 'client', clientId: 'web' }))
  })

  it('refuse an unknown client, a wrong or missing secret, and a broken configuration, all alike (401)', async () => {
    const refusals = await Promise.all([
      auth.authenticate('Client', [], client('nobody', 'x')),
      auth.authenticate('Client', [], client('web', 'web-secreT')),
      auth.authenticate('Client', [], client('web', undefined)),
      auth.authenticate('Client', [], client('web', '')),
      auth.authenticate('Client', [], client('broken', 'anything')),
    ])
    expect(refusals.map(tagOf)).toEqual(Array(5).fill('Unauthenticated'))
    expect(new Set(refusals.map(messageOf)).size).toBe(1)
  })

  it('accept a public client by client_id alone, and refuse it with a secret', async () => {
    expect(await auth.authenticate('Client', [], client('spa', undefined, 'post'))).toEqual(E.right({ kind: 'client', clientId: 'spa' }))
    expect(await auth.authenticate('Client', [], client('spa', '', 'basic'))).toEqual(E.right({ kind: 'client', clientId: 'spa' }))
    expect(tagOf(await auth.authenticate('Client', [], client('spa', 'guess')))).toBe('Unauthenticated')
  })
})

describe('Business operations', () => {
  const production = ['cairn:production']

  it('need a credential (401); an invalid one is 401 too', async () => {
    expect(tagOf(await auth.authenticate('Business', production, {}))).toBe('Unauthenticated')
    expect(tagOf(await auth.authenticate('Business', production, { sessionCookie: cookies.expired }))).toBe('Unauthenticated')
    expect(tagOf(await auth.authenticate('Business', production, { bearerToken: 'nope' }))).toBe('Unauthenticated')
  })

  it('accept a Business-tier session', async () => {
    expect(await auth.authenticate('Business', production, { sessionCookie: cookies.boss })).toMatchObject(E.right({ kind: 'session', userId: 'usr_boss', businessTier: true }))
  })

  it('accept a Business-tier bearer token carrying the scopes', async () => {
    expect(await auth.authenticate('Business', production, { bearerToken: 'tok-boss' })).toMatchObject(E.right({ kind: 'bearer', subject: 'usr_boss', businessTier: true }))
  })

  it('refuse valid credentials of another tier, or a Business token without the scope (403)', async () => {
    expect(tagOf(await auth.authenticate('Business', production, { sessionCookie: cookies.ada }))).toBe('Forbidden')
    expect(tagOf(await auth.authenticate('Business', production, { bearerToken: 'tok-ada-production' }))).toBe('Forbidden')
    const unscoped = await auth.authenticate('Business', production, { bearerToken: 'tok-boss-read' })
    expect(tagOf(unscoped)).toBe('Forbidden')
    expect(messageOf(unscoped)).toContain('cairn:production')
  })

  it('judge the bearer token when both credentials arrive', async () => {
    expect(tagOf(await auth.authenticate('Business', production, { sessionCookie: cookies.boss, bearerToken: 'tok-ada-production' }))).toBe('Forbidden')
  })
})
