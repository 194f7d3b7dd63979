/** POST|DELETE /api/oidc/agent-tokens in-process: shown once, stored as a hash, honoured, revocable. */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { bodyOf, clientCredentials, createOidcTestWorld, storeSnapshot, type OidcTestWorld, type SignedIn } from '../../hosts/http/oidc-test-support.js'
import { sha256Hex } from '../digest/sha256.js'
import { AGENT_TOKENS } from './collections.js'
import { verifyAccessToken } from './verify-access-token.js'

let world: OidcTestWorld
let ada: SignedIn
beforeEach(async () => {
  world = await createOidcTestWorld()
  ada = await world.signIn('ada')
})

interface Created { tokenId: string; accessToken: string; expiresAt: string }

const create = (body: Record<string, unknown>, who: SignedIn | 'anonymous' = ada) =>
  world.call('createAgentToken', { body, credentials: who === 'anonymous' ? {} : { sessionCookie: who.cookie } })
const revoke = (body: Record<string, unknown>, who: SignedIn = ada) => world.call('revokeAgentToken', { body, credentials: { sessionCookie: who.cookie } })
const ledgerActions = async () => (await world.deps.store.readStream('ledger.actions', { limit: 1000 })).items.map((entry) => (entry.value as { action: string }).action)

async function refusedWithoutWrites(run: () => ReturnType<typeof create>, tag: string) {
  const before = await storeSnapshot(world.deps)
  expect(await run()).toEqual(E.left(expect.objectContaining({ _tag: tag })))
  expect(await storeSnapshot(world.deps)).toBe(before)
}

describe('agent tokens', () => {
  it('creates a token shown once and stored only as its SHA-256, with owner, client, scopes, labels and expiry', async () => {
    const reply = await create({ clientId: 'ci', scopes: ['cairn:record', 'cairn:verify'], label: 'nightly build', auditLabels: { repo: 'cairn/main' }, expiresIn: 3600 })
    const body = bodyOf<Created>(reply)
    expect(body).toEqual({
      ok: true, tokenId: expect.stringMatching(/^agt_/), clientId: 'ci', accessToken: expect.stringMatching(/^cairn_at_[A-Za-z0-9_-]{43}$/), tokenType: 'Bearer',
      scopes: ['cairn:record', 'cairn:verify'], label: 'nightly build', auditLabels: { repo: 'cairn/main' }, expiresAt: '2026-06-25T01:00:00.000Z',
    })
    expect(E.isRight(reply) && reply.right.kind === 'json' && reply.right.headers).toMatchObject({ 'cache-control': 'no-store' })
    const stored = await world.deps.store.get(AGENT_TOKENS, sha256Hex(body.accessToken))
    expect(stored?.value).toEqual({
      tokenId: body.tokenId, userId: ada.userId, clientId: 'ci', scopes: ['cairn:record', 'cairn:verify'], label: 'nightly build', auditLabels: { repo: 'cairn/main' },
      createdAtMs: world.clock.now(), expiresAtMs: world.clock.now() + 3_600_000, revokedAtMs: null,
    })
    expect(await storeSnapshot(world.deps)).not.toContain(body.accessToken)
    expect(await ledgerActions()).toEqual(['agent_token_created'])
  })

  it('is honoured by verifyAccessToken until it expires', async () => {
    const { accessToken, tokenId } = bodyOf<Created>(await create({ clientId: 'ci', scopes: ['cairn:record'], expiresIn: 60 }))
    expect(await verifyAccessToken(accessToken, world.deps)).toEqual(E.right({ subject: ada.userId, clientId: 'ci', scopes: ['cairn:record'], tokenId, actsAsClient: false }))
    world.clock.advance(60_000)
    expect(await verifyAccessToken(accessToken, world.deps)).toEqual(E.left(expect.objectContaining({ message: 'The access token has expired' })))
  })

  it('serves userinfo when it carries openid', async () => {
    const { accessToken } = bodyOf<Created>(await create({ clientId: 'mcp', scopes: ['openid', 'profile'] }))
    expect(bodyOf(await world.call('getUserinfo', { credentials: { bearerToken: accessToken } }))).toMatchObject({ sub: ada.userId, preferred_username: 'ada' })
  })

  it('refuses bad requests, writing nothing', async () => {
    await refusedWithoutWrites(() => create({ clientId: 'ci', scopes: ['cairn:nope'] }), 'InvalidInput')
    await refusedWithoutWrites(() => create({ clientId: 'ci' }), 'InvalidInput')
    await refusedWithoutWrites(() => create({ scopes: ['cairn:record'] }), 'InvalidInput')
    await refusedWithoutWrites(() => create({ clientId: 'ci', scopes: ['cairn:record'], expiresIn: 10 }), 'InvalidInput')
    await refusedWithoutWrites(() => create({ clientId: 'ci', scopes: ['cairn:production'] }), 'Forbidden')
    await refusedWithoutWrites(() => create({ clientId: 'partner', scopes: ['cairn:wallet.read'] }), 'Forbidden')
    await refusedWithoutWrites(() => create({ clientId: 'ci', scopes: ['cairn:record'] }, 'anonymous'), 'Unauthenticated')
  })

  it('lets a Business-tier account delegate cairn:production', async () => {
    const boss = await world.signIn('boss')
    expect(bodyOf(await create({ clientId: 'ci', scopes: ['cairn:production'] }, boss))).toMatchObject({ ok: true, scopes: ['cairn:production'] })
  })

  it('revokes one token by tokenId; the owner only', async () => {
    const first = bodyOf<Created>(await create({ clientId: 'ci', scopes: ['cairn:record'] }))
    const second = bodyOf<Created>(await create({ clientId: 'ci', scopes: ['cairn:record'] }))
    const mallory = await world.signIn('mallory')
    await refusedWithoutWrites(() => revoke({ clientId: 'ci', tokenId: first.tokenId }, mallory), 'NotFound')
    await refusedWithoutWrites(() => revoke({ clientId: 'other', tokenId: first.tokenId }), 'NotFound')
    expect(bodyOf(await revoke({ clientId: 'ci', tokenId: first.tokenId }))).toEqual({ ok: true, clientId: 'ci', tokenId: first.tokenId, revoked: 1 })
    expect(await verifyAccessToken(first.accessToken, world.deps)).toEqual(E.left(expect.objectContaining({ message: 'The access token has been revoked' })))
    expect(E.isRight(await verifyAccessToken(second.accessToken, world.deps))).toBe(true)
    expect(bodyOf(await revoke({ clientId: 'ci', tokenId: first.tokenId }))).toMatchObject({ revoked: 0 })
  })

  it('revokes every token of a client the user made, and no one else\'s', async () => {
    const mine = [bodyOf<Created>(await create({ clientId: 'ci', scopes: ['cairn:record'] })), bodyOf<Created>(await create({ clientId: 'ci', scopes: ['cairn:verify'] }))]
    const otherClient = bodyOf<Created>(await create({ clientId: 'mcp', scopes: ['cairn:record'] }))
    const bob = await world.signIn('bob')
    const bobs = bodyOf<Created>(await create({ clientId: 'ci', scopes: ['cairn:record'] }, bob))
    expect(bodyOf(await revoke({ clientId: 'ci' }))).toEqual({ ok: true, clientId: 'ci', revoked: 2 })
    for (const token of mine) expect(E.isLeft(await verifyAccessToken(token.accessToken, world.deps))).toBe(true)
    for (const token of [otherClient, bobs]) expect(E.isRight(await verifyAccessToken(token.accessToken, world.deps))).toBe(true)
    expect(await ledgerActions()).toEqual(['agent_token_created', 'agent_token_created', 'agent_token_created', 'agent_token_created', 'agent_token_revoked', 'agent_token_revoked'])
  })

  it('can be revoked at the RFC 7009 endpoint by the registered client it names', async () => {
    const { accessToken } = bodyOf<Created>(await create({ clientId: 'backend', scopes: ['cairn:record'] }))
    expect(bodyOf(await world.call('introspectToken', { body: { token: accessToken }, credentials: clientCredentials('backend', 'backend-secret') }))).toMatchObject({ active: true, client_id: 'backend', sub: ada.userId })
    expect(bodyOf(await world.call('revokeToken', { body: { token: accessToken }, credentials: clientCredentials('web', 'web-secret') }))).toEqual({ ok: true })
    expect(E.isRight(await verifyAccessToken(accessToken, world.deps))).toBe(true)
    await world.call('revokeToken', { body: { token: accessToken }, credentials: clientCredentials('backend', 'backend-secret') })
    expect(E.isLeft(await verifyAccessToken(accessToken, world.deps))).toBe(true)
  })
})
