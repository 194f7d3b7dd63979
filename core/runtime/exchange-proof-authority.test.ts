/**
 * Proof-authority exchange (ProofConsent): a sealed identity proof object plus a challenge its
 * owner's ID key signed buys a five-minute, non-refreshable token for exactly the scopes asked,
 * honoured by the real bearer boundary. Every refusal — replay, expiry, scopes beyond the consent,
 * another audience, a proof that does not verify, a key that is not the owner's — writes nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { bodyOf } from '../../hosts/http/oidc-test-support.js'
import { APP, appBasicAuthorization, appCredentials, createRuntimeTestWorld, OTHER_APP, type IdentityHolder, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { GRANTS } from '../oidc/collections.js'
import { toBase64Url, fromBase64Url } from '../encoding/base64url.js'
import { sha256Hex } from '../digest/sha256.js'
import { RUNTIME_CHALLENGES } from './runtime-collections.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')
const READ = ['cairn:runtime.read']

let runtime: RuntimeTestWorld
let ada: IdentityHolder
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  ada = await runtime.identityHolder('ada')
})

const exchangeBody = (overrides: Record<string, unknown> = {}) => ({
  artifact: ada.identityArtifact,
  challenge: ada.challenge({ audience: APP, scopes: ['cairn:runtime.read', 'cairn:runtime.session'] }),
  applicationId: APP,
  scopes: READ,
  ...overrides,
})

/** The exchange as the application calls it: authenticated as its client (OTHER_APP's credentials when it names OTHER_APP). */
const exchange = (body: Record<string, unknown>) =>
  runtime.call('exchangeProofAuthority', { body, credentials: appCredentials(body.applicationId === OTHER_APP ? OTHER_APP : APP) })

interface Exchanged { accessToken: string; expiresIn: number; refreshable: boolean; grantedScopes: string[]; artifactDigest: string; authorityDigest: string }

describe('POST /api/sdk/v1/identity/proof-authority/exchange', () => {
  it('answers a five-minute, non-refreshable token for exactly the scopes asked, honoured by the bearer boundary', async () => {
    const reply = await exchange(exchangeBody())
    const answer = bodyOf<Exchanged>(reply)
    expect(answer).toMatchObject({
      schema: 'cairn.proof_authority_exchange.v1', applicationId: APP, audience: APP, grantedScopes: READ, expiresIn: 300, refreshable: false, tokenType: 'Bearer',
      artifactDigest: ada.identityArtifact.artifactSha256, authority: { role: 'coordination', proofAuthority: false, heldBytesWin: true },
    })
    expect(answer).not.toHaveProperty('refreshToken')
    const scopes = bodyOf(await runtime.call('getGrantedScopes', { token: answer.accessToken }))
    expect(scopes).toEqual({ ok: true, schema: 'cairn.granted_scopes.v1', applicationId: APP, grantedScopes: READ })
    // minimum scope: the consent also covered sessions, the token does not
    expect(await runtime.call('openAuthoritySession', { body: {}, token: answer.accessToken })).toEqual(E.left(expect.objectContaining({ _tag: 'Forbidden' })))
    // the grant backs nothing after five minutes
    runtime.world.clock.advance(301_000)
    expect(await runtime.call('getGrantedScopes', { token: answer.accessToken })).toEqual(E.left(expect.objectContaining({ _tag: 'Unauthenticated' })))
    const grants = (await runtime.deps.store.query(GRANTS, { index: 'byUserClient', equals: [ada.userId, APP], limit: 10 })).items
    expect(grants).toHaveLength(1)
    expect(grants[0]!.value).toMatchObject({ scopes: READ, expiresAtMs: T0 + 300_000, revokedAtMs: null })
  })

  it('refuses a replayed challenge, even after the first use, and writes nothing the second time', async () => {
    const body = exchangeBody()
    expect(E.isRight(await exchange(body))).toBe(true)
    const before = await runtime.snapshot()
    expect(await exchange(body)).toEqual(E.left(expect.objectContaining({ _tag: 'Unauthenticated', message: expect.stringContaining('used already') })))
    expect(await runtime.snapshot()).toBe(before)
  })

  it('lets only one of two racing uses of one challenge win', async () => {
    const body = exchangeBody()
    const results = await Promise.all([exchange(body), exchange(body)])
    expect(results.filter(E.isRight)).toHaveLength(1)
    expect((await runtime.deps.store.query(RUNTIME_CHALLENGES, { index: 'byExpiresAt', limit: 10 })).items).toHaveLength(1)
  })

  describe('refusals write nothing', () => {
    const refusals: [string, () => Promise<Record<string, unknown>>, string][] = [
      ['an expired challenge', async () => exchangeBody({ challenge: ada.challenge({ audience: APP, scopes: READ, issuedAtMs: T0 - 600_000, expiresAtMs: T0 - 1 }) }), 'Unauthenticated'],
      ['a challenge issued in the future', async () => exchangeBody({ challenge: ada.challenge({ audience: APP, scopes: READ, issuedAtMs: T0 + 120_000, expiresAtMs: T0 + 240_000 }) }), 'Unauthenticated'],
      ['a window longer than ten minutes', async () => exchangeBody({ challenge: ada.challenge({ audience: APP, scopes: READ, expiresAtMs: T0 + 3_600_000 }) }), 'InvalidInput'],
      ['scopes beyond the consent', async () => exchangeBody({ challenge: ada.challenge({ audience: APP, scopes: READ }), scopes: ['cairn:runtime.read', 'cairn:runtime.publish'] }), 'Forbidden'],
      ['another audience', async () => exchangeBody({ challenge: ada.challenge({ audience: 'org.example.other', scopes: READ }) }), 'Forbidden'],
      ['a challenge for another application', async () => exchangeBody({ challenge: ada.challenge({ audience: 'org.example.other', scopes: READ }), applicationId: 'org.example.other', audience: APP }), 'Forbidden'],
      ['an application this deployment does not register', async () => exchangeBody({ applicationId: 'org.unknown.app', challenge: ada.challenge({ audience: 'org.unknown.app', scopes: READ }) }), 'Forbidden'],
      ['a consent statement changed after signing', async () => {
        const challenge = ada.challenge({ audience: APP, scopes: READ })
        return exchangeBody({ challenge: { ...challenge, consent: { ...challenge.consent, statement: 'Something else' } } })
      }, 'InvalidInput'],
      ['a signature that does not cover the challenge', async () => {
        const challenge = ada.challenge({ audience: APP, scopes: READ })
        const other = ada.challenge({ audience: APP, scopes: READ })
        return exchangeBody({ challenge: { ...challenge, proof: { ...challenge.proof, signatureB64Url: other.proof.signatureB64Url } } })
      }, 'Unauthenticated'],
      ['a challenge signed by someone else\'s key', async () => {
        const bob = await runtime.identityHolder('bob')
        return exchangeBody({ challenge: bob.challenge({ audience: APP, scopes: READ }) })
      }, 'Unauthenticated'],
      ['an artifact whose bytes were altered', async () => {
        const bytes = fromBase64Url(ada.identityArtifact.exactBytesB64u)!
        const altered = new Uint8Array(bytes)
        altered[altered.length - 3] = altered[altered.length - 3]! ^ 1
        return exchangeBody({ artifact: { ...ada.identityArtifact, exactBytesB64u: toBase64Url(altered), artifactSha256: sha256Hex(altered) } })
      }, 'Unprocessable'],
      ['an artifact digest that is not of its bytes', async () => exchangeBody({ artifact: { ...ada.identityArtifact, artifactSha256: 'a'.repeat(64) } }), 'InvalidInput'],
      ['a payload digest that is not the proof\'s', async () => exchangeBody({ artifact: { ...ada.identityArtifact, payloadSha256: 'b'.repeat(64) } }), 'Unprocessable'],
      ['an unknown scope', async () => exchangeBody({ challenge: ada.challenge({ audience: APP, scopes: ['cairn:nothing'] }), scopes: ['cairn:nothing'] }), 'InvalidInput'],
    ]
    for (const [name, body, tag] of refusals) {
      it(`refuses ${name}`, async () => {
        const request = await body()
        const before = await runtime.snapshot()
        expect(await exchange(request)).toEqual(E.left(expect.objectContaining({ _tag: tag })))
        expect(await runtime.snapshot()).toBe(before)
      })
    }
  })

  it('works over HTTP with the application\'s HTTP Basic client authentication, and refuses a bad body with 400', async () => {
    const response = await runtime.http('POST', '/api/sdk/v1/identity/proof-authority/exchange', { body: exchangeBody(), authorization: appBasicAuthorization() })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const answer = (await response.json()) as Exchanged
    const scopes = await runtime.http('GET', '/api/sdk/v1/auth/granted-scopes', { token: answer.accessToken })
    expect(await scopes.json()).toMatchObject({ grantedScopes: READ })
    const bad = await runtime.http('POST', '/api/sdk/v1/identity/proof-authority/exchange', { body: { applicationId: APP }, authorization: appBasicAuthorization() })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ ok: false })
  })
})
