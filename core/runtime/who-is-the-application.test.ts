/**
 * Who is the application (docs/runtime.md): a runtime call acts for the token's client only when
 * that client obtained the token itself — its own authorization-code + PKCE flow, or the
 * ProofConsent exchange authenticated by its secret. A signed-in user cannot become an application
 * by minting an agent token naming it, nor by calling the exchange for it; each attack is refused
 * over HTTP and the Store is unchanged.
 */
import { createHash } from 'node:crypto'
import { calculateJwkThumbprint, decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { currentDpopNonce } from '../auth/dpop.js'
import {
  APP, OTHER_APP, appBasicAuthorization, createRuntimeTestWorld, openSessionBody, runtimeDeployment, type IdentityHolder, type PortableArtifact, type RuntimeTestWorld,
} from '../../hosts/http/runtime-test-support.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')
const AUDIENCE = 'https://notes.example'
const SCOPES = ['cairn:runtime.session', 'cairn:runtime.read', 'cairn:value.read']
const OPEN = '/api/sdk/v1/runtime/authority-sessions/open'
const GRANTED = '/api/sdk/v1/auth/granted-scopes'
const EXCHANGE = '/api/sdk/v1/identity/proof-authority/exchange'

let runtime: RuntimeTestWorld
let ada: IdentityHolder
let source: PortableArtifact
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  ada = await runtime.identityHolder('ada')
  source = await ada.seal('notes.json', 'application/json', new TextEncoder().encode('{"notes":[]}'))
})

const openBody = (applicationId: string) => openSessionBody(ada, { applicationId, audience: AUDIENCE, consent: ['cairn:runtime.session'], subjectSource: source })

/** The HTTP answer, with the Store read back before and after to show a refusal wrote nothing. */
async function refusedOverHttp(path: string, input: { body?: unknown; token?: string; authorization?: string }, status: number) {
  const before = await runtime.snapshot()
  const response = await runtime.http(input.body === undefined ? 'GET' : 'POST', path, input)
  expect(response.status).toBe(status)
  expect(await response.json()).toMatchObject({ ok: false, error: expect.any(String) })
  expect(await runtime.snapshot()).toBe(before)
  return response
}

describe('a runtime application is the client that obtained the token', () => {
  it('refuses an agent token a signed-in user minted naming a registered application, writing nothing', async () => {
    for (const named of [APP, OTHER_APP]) {
      const minted = await runtime.agentTokenFor(SCOPES, named)
      await refusedOverHttp(OPEN, { body: openBody(named), token: minted }, 403)
      await refusedOverHttp(GRANTED, { token: minted }, 403)
      await refusedOverHttp('/api/sdk/v1/value/executions/by-idempotency/r-1', { token: minted }, 403)
    }
  })

  it('lets the same user act through the application\'s own authorization-code + PKCE flow', async () => {
    const token = await runtime.tokenFor(SCOPES)
    const opened = await runtime.http('POST', OPEN, { body: openBody(APP), token })
    expect(opened.status).toBe(200)
    expect(await (await runtime.http('GET', GRANTED, { token })).json()).toMatchObject({ applicationId: APP })
  })

  it('refuses an agent token naming a client that is not registered', async () => {
    await refusedOverHttp(GRANTED, { token: await runtime.agentTokenFor(SCOPES, 'ci') }, 403)
  })

  it('admits agent tokens only for a client whose configuration opts in', async () => {
    runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0), deployment: runtimeDeployment({ agentTokensActAsApplication: true }) })
    ada = await runtime.identityHolder('ada')
    source = await ada.seal('notes.json', 'application/json', new TextEncoder().encode('{"notes":[]}'))
    const minted = await runtime.agentTokenFor(SCOPES, APP)
    expect((await runtime.http('POST', OPEN, { body: openBody(APP), token: minted })).status).toBe(200)
    // the opt-in is per client: web (registered, no opt-in) still refuses its agent tokens
    await refusedOverHttp(GRANTED, { token: await runtime.agentTokenFor(['cairn:runtime.read'], 'web') }, 403)
  })
})

describe('the ProofConsent exchange binds to the application by its client secret', () => {
  const exchangeBody = (applicationId: string = APP) => ({
    artifact: ada.identityArtifact, challenge: ada.challenge({ audience: applicationId, scopes: ['cairn:runtime.read'] }), applicationId, scopes: ['cairn:runtime.read'],
  })

  it('refuses a caller without the application\'s client authentication (401, Basic challenge), writing nothing', async () => {
    const refused = await refusedOverHttp(EXCHANGE, { body: exchangeBody() }, 401)
    expect(refused.headers.get('www-authenticate')).toMatch(/^Basic/)
  })

  it('refuses a wrong secret, and another application\'s valid credentials naming this one', async () => {
    await refusedOverHttp(EXCHANGE, { body: exchangeBody(), authorization: appBasicAuthorization(APP, 'not-the-secret') }, 401)
    await refusedOverHttp(EXCHANGE, { body: exchangeBody(), authorization: appBasicAuthorization(OTHER_APP) }, 403)
  })

  it('refuses a public client, which holds nothing only it could present', async () => {
    await refusedOverHttp(EXCHANGE, { body: exchangeBody('spa'), authorization: appBasicAuthorization('spa', '') }, 403)
  })

  it('binds the token to the application\'s DPoP key when it sends a proof: the token alone is refused', async () => {
    const key = (await generateKeyPair('ES256')) as CryptoKeyPair
    const jwk = await exportJWK(key.publicKey)
    const proof = async (method: string, path: string, claims: Record<string, unknown> = {}) =>
      new SignJWT({ htm: method, htu: `https://cairn.test${path}`, nonce: await currentDpopNonce(runtime.deps), ...claims })
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk }).setIssuedAt(Math.floor(runtime.world.clock.now() / 1000)).setJti(crypto.randomUUID()).sign(key.privateKey)
    const response = await runtime.http('POST', EXCHANGE, { body: exchangeBody(), authorization: appBasicAuthorization(APP), dpop: await proof('POST', EXCHANGE) })
    expect(response.status).toBe(200)
    const { accessToken, tokenType } = (await response.json()) as { accessToken: string; tokenType: string }
    expect(tokenType).toBe('DPoP')
    expect(decodeJwt(accessToken).cnf).toEqual({ jkt: await calculateJwkThumbprint(jwk) })
    expect((await runtime.http('GET', GRANTED, { token: accessToken })).status).toBe(401)
    const ath = createHash('sha256').update(accessToken).digest('base64url')
    const bound = await runtime.http('GET', GRANTED, { authorization: `DPoP ${accessToken}`, dpop: await proof('GET', GRANTED, { ath }) })
    expect(await bound.json()).toMatchObject({ applicationId: APP })
  })

  it('answers the application that authenticated, and its token acts as it', async () => {
    const response = await runtime.http('POST', EXCHANGE, { body: exchangeBody(), authorization: appBasicAuthorization(APP) })
    expect(response.status).toBe(200)
    const { accessToken } = (await response.json()) as { accessToken: string }
    expect(await (await runtime.http('GET', GRANTED, { token: accessToken })).json()).toMatchObject({ applicationId: APP, grantedScopes: ['cairn:runtime.read'] })
  })
})
