import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describeEnv, memoryDeps } from '../../hosts/http/describe-env.js'
import { createCairnAuthenticator } from '../auth/cairn-authenticator.js'
import { unauthenticated } from '../errors/domain-error.js'
import { identityCollections, identityUseCases } from './index.js'
import { signIdContinueRequest } from './sign-id-proof.js'

function identityEnv(baseUrl: string) {
  const deps = memoryDeps({ baseUrl })
  const noBearer = async () => E.left(unauthenticated('no tokens in this test'))
  return { deps, authenticator: createCairnAuthenticator({ deps, verifyBearer: noBearer }), useCases: identityUseCases, ready: deps.store.declare(identityCollections) }
}

describeEnv('GET /api/connect/login/bootstrap/{username}', () => identityEnv('https://cairn.example/cairn'), ({ request, env }) => {
  it('answers the OIDC launch configuration under the base URL, for a username that exists', async () => {
    const body = signIdContinueRequest({ username: 'ada', displayName: 'Ada', localUid: 'l1' }, {
      privateKey: generateKeyPairSync('ed25519').privateKey, challenge: randomBytes(16), createdAt: new Date(env().deps.clock.now()).toISOString(), audience: env().deps.config.baseUrl,
    })
    expect((await request('/api/auth/cairn-id/continue', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status).toBe(200)

    const response = await request('/api/connect/login/bootstrap/Ada')
    expect(response.status).toBe(200)
    const bootstrap = (await response.json()) as Record<string, unknown>
    expect(bootstrap).toMatchObject({
      ok: true,
      username: 'ada',
      exists: true,
      issuer: 'https://cairn.example/cairn',
      authorization_endpoint: 'https://cairn.example/cairn/api/oidc/authorize',
      token_endpoint: 'https://cairn.example/cairn/api/oidc/token',
      userinfo_endpoint: 'https://cairn.example/cairn/api/oidc/userinfo',
      jwks_uri: 'https://cairn.example/cairn/api/oidc/jwks',
      discovery_uri: 'https://cairn.example/cairn/.well-known/openid-configuration',
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
    })
    expect(bootstrap.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'cairn:record', 'cairn:production']))
  })

  it('answers 200 with exists: false for a username nobody holds yet', async () => {
    const response = await request('/api/connect/login/bootstrap/nobody-yet')
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ ok: true, username: 'nobody-yet', exists: false })
  })

  it('refuses a string that cannot be a username (400)', async () => {
    const response = await request('/api/connect/login/bootstrap/a%20b')
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ ok: false, error: expect.stringContaining('username') })
  })
})
