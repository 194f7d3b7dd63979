/**
 * Sealed source publication under an authority session: the proof is verified before custody, the
 * exact bytes land content-addressed in the BlobStore, the subject's head moves with the
 * namespaces the source defines, and the same bytes again are `already-published` with no write.
 * Every refusal writes nothing (store and blobs read back) and every envelope passes the client
 * verifier.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { bodyOf } from '../../hosts/http/oidc-test-support.js'
import { APP, createRuntimeTestWorld, type IdentityHolder, type PortableArtifact, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { fromBase64Url, toBase64Url } from '../encoding/base64url.js'
import { sha256Hex } from '../digest/sha256.js'
import { genesisRevocationHead } from './revocation-head.js'
import { subjectProjection, subjectStreamOf } from './subject-namespaces.js'
import { verifyRuntimeEnvelope } from './verify-envelope.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')
const AUDIENCE = 'https://notes.example'
const SCOPES = ['cairn:runtime.session', 'cairn:runtime.publish']
const PUBLISH = '/api/sdk/v1/sources/publish'

let runtime: RuntimeTestWorld
let ada: IdentityHolder
let token: string
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  ada = await runtime.identityHolder('ada')
  token = await runtime.tokenFor([...SCOPES, 'cairn:runtime.read'])
})

const jsonSource = (holder: IdentityHolder, value: unknown, name = 'source.json') => holder.seal(name, 'application/json', new TextEncoder().encode(JSON.stringify(value)))

interface SessionWire { authoritySessionHandle: string; sessionBindingDigest: string; namespaces: { name: string; head: string; digest: string }[] }

async function openSession(input: { scopes?: string[]; requiredNamespaces?: string[]; holder?: IdentityHolder; callToken?: string } = {}): Promise<SessionWire> {
  const holder = input.holder ?? ada
  const body = {
    applicationId: APP, actorSubjectId: holder.userId,
    artifact: { exactBytesB64u: holder.identityArtifact.exactBytesB64u, digest: holder.identityArtifact.artifactSha256 },
    subjectSourceArtifact: holder.identityArtifact,
    signedChallenge: holder.challenge({ audience: AUDIENCE, scopes: input.scopes ?? SCOPES }),
    requestedRails: [], requiredNamespaces: input.requiredNamespaces ?? [], audience: AUDIENCE,
  }
  return bodyOf<{ wire: SessionWire }>(await runtime.call('openAuthoritySession', { body, token: input.callToken ?? token })).wire
}

interface Result { status: string; sourceKind: string; artifactSha256: string; sourceBindingDigest: string }

async function publish(session: SessionWire, sourceArtifact: PortableArtifact): Promise<Result> {
  const body = { applicationId: APP, authoritySessionHandle: session.authoritySessionHandle, sourceArtifact }
  const envelope = bodyOf<{ wire: Result }>(await runtime.call('publishSealedSource', { body, token }))
  const verdict = await verifyRuntimeEnvelope(envelope, { method: 'POST', path: PUBLISH, body, applicationId: APP, audience: AUDIENCE, domain: 'cairn.test' }, { jwks: await runtime.jwks(), now: runtime.world.clock.now() })
  expect(verdict).toMatchObject({ ok: true })
  return envelope.wire
}

async function refusedWithoutWrites(body: unknown, tag: string, callToken = token) {
  const before = await runtime.snapshot()
  expect(await runtime.call('publishSealedSource', { body, token: callToken })).toEqual(E.left(expect.objectContaining({ _tag: tag })))
  expect(await runtime.snapshot()).toBe(before)
}

describe('POST /api/sdk/v1/sources/publish', () => {
  it('puts the exact bytes into content-addressed custody and moves the subject\'s head with its namespaces', async () => {
    const session = await openSession()
    const source = await jsonSource(ada, { namespaces: { profile: { name: 'Ada' }, settings: { theme: 'dark' } } })
    const result = await publish(session, source)
    expect(result).toMatchObject({ schema: 'cairn.v124.sealed_source_publication_result', status: 'published', sourceKind: 'sealed-json', artifactSha256: source.artifactSha256, authority: { proofAuthority: false } })
    expect(await runtime.deps.blobs.get(source.artifactSha256)).toEqual(fromBase64Url(source.exactBytesB64u))
    const projection = await subjectProjection(runtime.deps, ada.userId)
    expect([...projection!.namespaces.keys()].sort()).toEqual(['profile', 'settings'])
    expect(new TextDecoder().decode(fromBase64Url(projection!.namespaces.get('profile')!.exactBytesB64u))).toBe('{"name":"Ada"}')
  })

  it('is idempotent: the same bytes again are already-published and write nothing', async () => {
    const session = await openSession()
    const source = await jsonSource(ada, { namespaces: { profile: { name: 'Ada' } } })
    const first = await publish(session, source)
    const before = await runtime.snapshot()
    const again = await publish(session, source)
    expect(again).toEqual({ ...first, status: 'already-published' })
    expect(await runtime.snapshot()).toBe(before)
    expect((await runtime.deps.store.readStream(subjectStreamOf(ada.userId))).items).toHaveLength(1)
  })

  it('keeps a non-JSON sealed file as a source that defines no namespace', async () => {
    const session = await openSession()
    const source = await ada.seal('notes.txt', 'text/plain', new TextEncoder().encode('plain notes'))
    expect(await publish(session, source)).toMatchObject({ status: 'published', sourceKind: 'sealed-file' })
  })

  it('lets a session require the namespaces a publication defined, and refuses a refresh once one moved', async () => {
    const first = await openSession()
    await publish(first, await jsonSource(ada, { namespaces: { profile: { name: 'Ada' } } }))
    const bound = await openSession({ requiredNamespaces: ['profile'] })
    const head = (await runtime.deps.store.streamHead(subjectStreamOf(ada.userId)))!.head
    expect(bound.namespaces).toEqual([{ name: 'profile', head, digest: sha256Hex('{"name":"Ada"}') }])
    await publish(first, await jsonSource(ada, { namespaces: { profile: { name: 'Ada L.' } } }, 'second.json'))
    const { authoritySessionHandle, schema: _s, status: _st, applicationId: _a, audience: _au, runtimeReceiptDigest: _r, authority: _auth, ...expectedPriorSession } = bound as unknown as Record<string, unknown> & { authoritySessionHandle: string }
    const refresh = {
      applicationId: APP, authoritySessionHandle, artifact: { exactBytesB64u: ada.identityArtifact.exactBytesB64u, digest: ada.identityArtifact.artifactSha256 },
      signedChallenge: ada.challenge({ audience: AUDIENCE, scopes: SCOPES }), requestedRails: [], requiredNamespaces: ['profile'], audience: AUDIENCE, expectedPriorSession,
    }
    expect(await runtime.call('refreshAuthoritySession', { body: refresh, token })).toEqual(E.left(expect.objectContaining({ _tag: 'Conflict', message: expect.stringContaining('namespace') })))
  })

  describe('refusals write nothing', () => {
    it('refuses altered bytes before custody', async () => {
      const session = await openSession()
      const source = await jsonSource(ada, { a: 1 })
      const altered = new Uint8Array(fromBase64Url(source.exactBytesB64u)!)
      altered[5] = altered[5]! ^ 1
      const sha = sha256Hex(altered)
      await refusedWithoutWrites({ applicationId: APP, authoritySessionHandle: session.authoritySessionHandle, sourceArtifact: { ...source, exactBytesB64u: toBase64Url(altered), artifactSha256: sha } }, 'Unprocessable')
      expect(await runtime.deps.blobs.has(sha)).toBe(false)
    })

    const cases: [string, (session: SessionWire) => Promise<unknown>, string][] = [
      ['bytes sealed for another person', async (s) => {
        const bob = await runtime.identityHolder('bob')
        return { applicationId: APP, authoritySessionHandle: s.authoritySessionHandle, sourceArtifact: await jsonSource(bob, { b: 1 }) }
      }, 'Forbidden'],
      ['a digest that is not of the bytes', async (s) => ({ applicationId: APP, authoritySessionHandle: s.authoritySessionHandle, sourceArtifact: { ...(await jsonSource(ada, { c: 1 })), artifactSha256: 'f'.repeat(64) } }), 'InvalidInput'],
      ['a payload digest that is not the proof\'s', async (s) => ({ applicationId: APP, authoritySessionHandle: s.authoritySessionHandle, sourceArtifact: { ...(await jsonSource(ada, { c: 2 })), payloadSha256: 'f'.repeat(64) } }), 'Unprocessable'],
      ['malformed namespaces', async (s) => ({ applicationId: APP, authoritySessionHandle: s.authoritySessionHandle, sourceArtifact: await jsonSource(ada, { namespaces: { 'Bad Name': 1 } }) }), 'Unprocessable'],
      ['a malformed recipient consent', async (s) => ({ applicationId: APP, authoritySessionHandle: s.authoritySessionHandle, sourceArtifact: await jsonSource(ada, { namespaces: { 'public-recipient': { alias: 'ada', display: 'Ada', purposes: ['pay'], encryptionKeyJwk: { kty: 'RSA' } } } }) }), 'Unprocessable'],
      ['an unknown handle', async () => ({ applicationId: APP, authoritySessionHandle: 'C'.repeat(43), sourceArtifact: await jsonSource(ada, { d: 1 }) }), 'Forbidden'],
      ['a closed session', async (s) => {
        const closed = await runtime.call('closeAuthoritySession', { body: { applicationId: APP, authoritySessionHandle: s.authoritySessionHandle, expectedPriorRevocationHead: genesisRevocationHead(APP), expectedPriorSessionBindingDigest: s.sessionBindingDigest }, token })
        expect(E.isRight(closed)).toBe(true)
        return { applicationId: APP, authoritySessionHandle: s.authoritySessionHandle, sourceArtifact: await jsonSource(ada, { e: 1 }) }
      }, 'Forbidden'],
    ]
    for (const [name, body, tag] of cases) {
      it(`refuses ${name}`, async () => {
        const session = await openSession()
        await refusedWithoutWrites(await body(session), tag)
      })
    }

    it('refuses a session whose consent does not cover publishing', async () => {
      const session = await openSession({ scopes: ['cairn:runtime.session'] })
      await refusedWithoutWrites({ applicationId: APP, authoritySessionHandle: session.authoritySessionHandle, sourceArtifact: await jsonSource(ada, { f: 1 }) }, 'Forbidden')
    })

    it('refuses a token without cairn:runtime.publish', async () => {
      const session = await openSession()
      await refusedWithoutWrites({ applicationId: APP, authoritySessionHandle: session.authoritySessionHandle, sourceArtifact: await jsonSource(ada, { g: 1 }) }, 'Forbidden', await runtime.tokenFor(['cairn:runtime.session']))
    })
  })

  it('works over HTTP', async () => {
    const session = await openSession()
    const body = { applicationId: APP, authoritySessionHandle: session.authoritySessionHandle, sourceArtifact: await jsonSource(ada, { namespaces: { profile: { name: 'Ada' } } }) }
    const response = await runtime.http('POST', PUBLISH, { body, token })
    expect(response.status).toBe(200)
    const envelope = await response.json()
    expect(await verifyRuntimeEnvelope(envelope, { method: 'POST', path: PUBLISH, body, applicationId: APP, audience: AUDIENCE, domain: 'cairn.test' }, { jwks: await runtime.jwks(), now: T0 })).toMatchObject({ ok: true })
    expect((await runtime.http('POST', PUBLISH, { body: { applicationId: APP }, token })).status).toBe(400)
  })
})
