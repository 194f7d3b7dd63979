/**
 * Public recipient resolution: a consented alias resolves, for a consented purpose, to a locator
 * encrypted (ECDH-ES P-256, A256GCM) to the requester's own published key; the locator and the
 * operation nonce are one-use; unknown, unconsented, keyless and rate-limited resolutions answer
 * one identical reason-free failure wire with the same writes. Envelopes pass the client verifier.
 */
import * as E from 'fp-ts/lib/Either.js'
import { compactDecrypt } from 'jose'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { bodyOf } from '../../hosts/http/oidc-test-support.js'
import { APP, createRuntimeTestWorld, runtimeDeployment, type IdentityHolder, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { canonicalJson } from '../digest/canonical-json.js'
import { sha256Hex } from '../digest/sha256.js'
import { fromBase64Url } from '../encoding/base64url.js'
import { sweepExpired } from '../retention/sweep-expired.js'
import { redeemRecipientLocator } from './resolve-public-recipient.js'
import { RECIPIENT_LOCATORS } from './runtime-collections.js'
import { verifyRuntimeEnvelope } from './verify-envelope.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')
const AUDIENCE = 'https://notes.example'
const SCOPES = ['cairn:runtime.session', 'cairn:runtime.publish', 'cairn:runtime.read']
const RESOLVE = '/api/sdk/v1/identity/public-recipient/resolve'
const FAILED = { schema: 'cairn.v124.public_recipient_resolution_failure_wire', status: 'failed' }

let runtime: RuntimeTestWorld
let ada: IdentityHolder
let adaToken: string
let adaSession: { authoritySessionHandle: string }
let adaPrivateKey: CryptoKey
let nonces = 0

async function tokenOf(username: string): Promise<string> {
  return runtime.tokenFor(SCOPES, APP, await runtime.world.signIn(username))
}

async function sessionOf(holder: IdentityHolder, token: string) {
  const body = {
    applicationId: APP, actorSubjectId: holder.userId, artifact: { exactBytesB64u: holder.identityArtifact.exactBytesB64u, digest: holder.identityArtifact.artifactSha256 },
    subjectSourceArtifact: holder.identityArtifact, signedChallenge: holder.challenge({ audience: AUDIENCE, scopes: SCOPES }), requestedRails: [], requiredNamespaces: [], audience: AUDIENCE,
  }
  return bodyOf<{ wire: { authoritySessionHandle: string } }>(await runtime.call('openAuthoritySession', { body, token })).wire
}

/** Publishes the holder's recipient consent; answers the private half of the key locators are encrypted to. */
async function consent(holder: IdentityHolder, token: string, session: { authoritySessionHandle: string }, alias: string, purposes: string[]): Promise<CryptoKey> {
  const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']) as CryptoKeyPair
  const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey)
  const value = { namespaces: { 'public-recipient': { alias, display: `${holder.username} (public)`, purposes, encryptionKeyJwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } } } }
  const sourceArtifact = await holder.seal(`${alias}.json`, 'application/json', new TextEncoder().encode(JSON.stringify(value)))
  const published = await runtime.call('publishSealedSource', { body: { applicationId: APP, authoritySessionHandle: session.authoritySessionHandle, sourceArtifact }, token })
  expect(E.isRight(published)).toBe(true)
  return pair.privateKey
}

async function setUp(deployment = runtimeDeployment()) {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0), deployment })
  ada = await runtime.identityHolder('ada')
  const bob = await runtime.identityHolder('bob')
  adaToken = await tokenOf('ada')
  adaSession = await sessionOf(ada, adaToken)
  adaPrivateKey = await consent(ada, adaToken, adaSession, 'ada', ['payment'])
  const bobToken = await tokenOf('bob')
  await consent(bob, bobToken, await sessionOf(bob, bobToken), 'bob.pay', ['payment', 'invoice'])
}
beforeEach(() => setUp())

const resolveBody = (overrides: Record<string, unknown> = {}) => ({
  applicationId: APP, authoritySessionHandle: adaSession.authoritySessionHandle, expectedRequesterSubjectId: ada.userId,
  normalizedAlias: 'bob.pay', purpose: 'payment', operationNonce: `nonce-${String(++nonces).padStart(12, '0')}`, ...overrides,
})

interface Success { status: string; display: string; encryptedLocatorB64u: string; locatorDigest: string; purpose: string; operationNonce: string; expiresAtKaiUPulse: number }

async function resolve(body: Record<string, unknown>): Promise<Success | typeof FAILED> {
  const envelope = bodyOf<{ wire: Success }>(await runtime.call('resolvePublicRecipient', { body, token: adaToken }))
  const verdict = await verifyRuntimeEnvelope(envelope, { method: 'POST', path: RESOLVE, body, applicationId: APP, audience: AUDIENCE, domain: 'cairn.test' }, { jwks: await runtime.jwks(), now: runtime.world.clock.now() })
  expect(verdict).toMatchObject({ ok: true })
  return envelope.wire
}

async function decrypt(wire: Success): Promise<Record<string, unknown>> {
  const jwe = new TextDecoder().decode(fromBase64Url(wire.encryptedLocatorB64u))
  const { plaintext, protectedHeader } = await compactDecrypt(jwe, adaPrivateKey)
  expect(protectedHeader).toMatchObject({ alg: 'ECDH-ES', enc: 'A256GCM' })
  return JSON.parse(new TextDecoder().decode(plaintext)) as Record<string, unknown>
}

describe('POST /api/sdk/v1/identity/public-recipient/resolve', () => {
  it('resolves a consented alias to a locator only the requester can decrypt, bound to purpose and nonce, redeemable once', async () => {
    const body = resolveBody()
    const wire = await resolve(body) as Success
    expect(wire).toMatchObject({ schema: 'cairn.v124.public_recipient_resolution_success_wire', status: 'succeeded', applicationId: APP, normalizedAlias: 'bob.pay', purpose: 'payment', operationNonce: body.operationNonce, display: 'bob (public)' })
    const locator = await decrypt(wire)
    expect(locator).toMatchObject({ schema: 'cairn.v124.recipient_locator', requesterSubjectId: ada.userId, recipientSubjectId: 'usr_bob', purpose: 'payment', operationNonce: body.operationNonce, expiresAtKaiUPulse: wire.expiresAtKaiUPulse })
    expect(sha256Hex(canonicalJson(locator))).toBe(wire.locatorDigest)
    const use = { locatorDigest: wire.locatorDigest, applicationId: APP, requesterSubjectId: ada.userId, purpose: 'payment' }
    expect(await redeemRecipientLocator(runtime.deps, { ...use, purpose: 'invoice' })).toEqual(E.left(expect.objectContaining({ _tag: 'Forbidden' })))
    expect(E.isRight(await redeemRecipientLocator(runtime.deps, use))).toBe(true)
    expect(await redeemRecipientLocator(runtime.deps, use)).toEqual(E.left(expect.objectContaining({ message: expect.stringContaining('used already') })))
  })

  it('refuses a second use of the operation nonce with the failure wire and no locator', async () => {
    const body = resolveBody()
    expect(await resolve(body)).toMatchObject({ status: 'succeeded' })
    const locators = (await runtime.deps.store.query(RECIPIENT_LOCATORS, { index: 'byExpiresAt', limit: 10 })).items.length
    expect(await resolve(body)).toEqual(FAILED)
    expect((await runtime.deps.store.query(RECIPIENT_LOCATORS, { index: 'byExpiresAt', limit: 10 })).items.length).toBe(locators)
  })

  it('answers unknown, unconsented and keyless resolutions with one identical failure wire and the same kinds of writes', async () => {
    const changed = async (body: Record<string, unknown>) => {
      const before = JSON.parse(await runtime.snapshot()) as unknown[]
      expect(await resolve(body)).toEqual(FAILED)
      const after = JSON.parse(await runtime.snapshot()) as unknown[]
      const names: string[] = []
      for (let i = 0; i < after.length; i += 2) if (JSON.stringify(after[i + 1]) !== JSON.stringify(before[i + 1])) names.push(after[i] as string)
      return names
    }
    const unknown = await changed(resolveBody({ normalizedAlias: 'nobody' }))
    const unconsented = await changed(resolveBody({ purpose: 'marketing' }))
    expect(unknown).toEqual(['rate_limit_counters', 'runtime_challenges'])
    expect(unconsented).toEqual(unknown)
    // a requester who never published a recipient key gets the same answer
    const carol = await runtime.identityHolder('carol')
    const carolToken = await tokenOf('carol')
    const carolSession = await sessionOf(carol, carolToken)
    const body = resolveBody({ authoritySessionHandle: carolSession.authoritySessionHandle, expectedRequesterSubjectId: carol.userId })
    const envelope = bodyOf<{ wire: unknown }>(await runtime.call('resolvePublicRecipient', { body, token: carolToken }))
    expect(envelope.wire).toEqual(FAILED)
  })

  it('rate-limits per application and requester with the configured limit, answering the same failure wire', async () => {
    await setUp({ ...runtimeDeployment(), runtime: { recipientResolutionsPerMinute: 2 } })
    expect(await resolve(resolveBody())).toMatchObject({ status: 'succeeded' })
    expect(await resolve(resolveBody({ normalizedAlias: 'nobody' }))).toEqual(FAILED)
    const before = (await runtime.deps.store.query(RECIPIENT_LOCATORS, { index: 'byExpiresAt', limit: 10 })).items.length
    expect(await resolve(resolveBody())).toEqual(FAILED) // an existing alias, but over the limit
    expect((await runtime.deps.store.query(RECIPIENT_LOCATORS, { index: 'byExpiresAt', limit: 10 })).items.length).toBe(before)
    runtime.world.clock.advance(60_000)
    expect(await resolve(resolveBody())).toMatchObject({ status: 'succeeded' })
  })

  it('refuses a locator past its expiry, and the sweeper removes it', async () => {
    const wire = await resolve(resolveBody()) as Success
    runtime.world.clock.advance(10 * 60_000)
    expect(await redeemRecipientLocator(runtime.deps, { locatorDigest: wire.locatorDigest, applicationId: APP, requesterSubjectId: ada.userId, purpose: 'payment' })).toEqual(E.left(expect.objectContaining({ _tag: 'Forbidden' })))
    expect((await sweepExpired(runtime.deps, { graceMs: 0 }))['recipient locators']).toBe(1)
  })

  describe('errors of the caller\'s own request write nothing', () => {
    const cases: [string, () => Record<string, unknown>, string, string[]?][] = [
      ['another requester than the session\'s subject', () => resolveBody({ expectedRequesterSubjectId: 'usr_bob' }), 'Conflict'],
      ['an unknown session handle', () => resolveBody({ authoritySessionHandle: 'D'.repeat(43) }), 'Forbidden'],
      ['another application', () => resolveBody({ applicationId: 'org.example.other' }), 'Forbidden'],
      ['a malformed alias', () => resolveBody({ normalizedAlias: 'Not Normal' }), 'InvalidInput'],
    ]
    for (const [name, body, tag] of cases) {
      it(`refuses ${name}`, async () => {
        const before = await runtime.snapshot()
        expect(await runtime.call('resolvePublicRecipient', { body: body(), token: adaToken })).toEqual(E.left(expect.objectContaining({ _tag: tag })))
        expect(await runtime.snapshot()).toBe(before)
      })
    }
  })

  it('works over HTTP', async () => {
    const body = resolveBody()
    const response = await runtime.http('POST', RESOLVE, { body, token: adaToken })
    expect(response.status).toBe(200)
    const envelope = (await response.json()) as { wire: Success }
    expect(await verifyRuntimeEnvelope(envelope, { method: 'POST', path: RESOLVE, body, applicationId: APP, audience: AUDIENCE, domain: 'cairn.test' }, { jwks: await runtime.jwks(), now: T0 })).toMatchObject({ ok: true })
    expect(envelope.wire.status).toBe('succeeded')
  })
})
