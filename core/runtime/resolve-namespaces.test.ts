/**
 * Namespace resolution, both routes: named namespaces at one exact head of the subject's
 * publications, with pinned registry and reducer (and, in the V124 form, admitted proof and
 * ownership head); any mismatch is refused and nothing is resolved at another head. The V124 form's
 * envelope passes the client verifier and carries byte-exact projections and the source's bytes.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { bodyOf } from '../../hosts/http/oidc-test-support.js'
import { APP, createRuntimeTestWorld, type IdentityHolder, type PortableArtifact, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { sha256Hex, sha256OfJson } from '../digest/sha256.js'
import { fromBase64Url } from '../encoding/base64url.js'
import { ownershipHeadOf } from './resolve-namespaces.js'
import { genesisSubjectHead, REDUCER_DIGEST, REGISTRY_DIGEST, subjectStreamOf } from './subject-namespaces.js'
import { verifyRuntimeEnvelope } from './verify-envelope.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')
const AUDIENCE = 'https://notes.example'
const SCOPES = ['cairn:runtime.session', 'cairn:runtime.publish', 'cairn:runtime.read']
const V124 = '/api/sdk/v1/subjects/namespaces/resolve'

let runtime: RuntimeTestWorld
let ada: IdentityHolder
let token: string
let first: PortableArtifact
let second: PortableArtifact
let head1: string
let head2: string

beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  ada = await runtime.identityHolder('ada')
  token = await runtime.tokenFor(SCOPES)
  const open = {
    applicationId: APP, actorSubjectId: ada.userId, artifact: { exactBytesB64u: ada.identityArtifact.exactBytesB64u, digest: ada.identityArtifact.artifactSha256 },
    subjectSourceArtifact: ada.identityArtifact, signedChallenge: ada.challenge({ audience: AUDIENCE, scopes: SCOPES }), requestedRails: [], requiredNamespaces: [], audience: AUDIENCE,
  }
  const handle = bodyOf<{ wire: { authoritySessionHandle: string } }>(await runtime.call('openAuthoritySession', { body: open, token })).wire.authoritySessionHandle
  const publish = async (artifact: PortableArtifact) => {
    expect(E.isRight(await runtime.call('publishSealedSource', { body: { applicationId: APP, authoritySessionHandle: handle, sourceArtifact: artifact }, token }))).toBe(true)
    return (await runtime.deps.store.streamHead(subjectStreamOf(ada.userId)))!.head
  }
  first = await ada.seal('one.json', 'application/json', new TextEncoder().encode(JSON.stringify({ namespaces: { profile: { name: 'Ada' }, settings: { theme: 'dark' } } })))
  second = await ada.seal('two.json', 'application/json', new TextEncoder().encode(JSON.stringify({ namespaces: { profile: { name: 'Ada L.' } } })))
  head1 = await publish(first)
  head2 = await publish(second)
})

const text = (b64u: string) => new TextDecoder().decode(fromBase64Url(b64u))

interface Projection { name: string; exactBytesB64u: string; digest: string; head: string }

describe('POST /api/sdk/v1/subjects/{subjectId}/namespaces/resolve', () => {
  const resolve = (body: Record<string, unknown>, subjectId = ada.userId) => runtime.call('resolveSubjectNamespaces', { body, params: { subjectId }, token })

  it('answers the named namespaces exactly as they were at the head asked for', async () => {
    const at1 = bodyOf<{ namespaces: Projection[]; authenticationDigest: string; registryDigest: string; reducerDigest: string }>(await resolve({ atHead: head1, names: ['profile', 'settings'], expectedRegistryDigest: REGISTRY_DIGEST, expectedReducerDigest: REDUCER_DIGEST }))
    expect(at1.namespaces.map((ns) => [ns.name, text(ns.exactBytesB64u), ns.head])).toEqual([['profile', '{"name":"Ada"}', head1], ['settings', '{"theme":"dark"}', head1]])
    const at2 = bodyOf<{ ok: true; subjectId: string; atHead: string; namespaces: Projection[]; authenticationDigest: string; registryDigest: string; reducerDigest: string }>(await resolve({ atHead: head2, names: ['profile', 'settings'] }))
    expect(at2.namespaces.map((ns) => [ns.name, text(ns.exactBytesB64u), ns.head])).toEqual([['profile', '{"name":"Ada L."}', head2], ['settings', '{"theme":"dark"}', head1]])
    expect(at2.namespaces[0]!.digest).toBe(sha256Hex('{"name":"Ada L."}'))
    const { ok: _ok, authenticationDigest, authority: _a, ...bound } = at2 as typeof at2 & { authority: unknown }
    expect(authenticationDigest).toBe(sha256OfJson({ schema: 'cairn.v124.subject_namespace_authentication', ...bound }))
  })

  describe('refuses, writing nothing', () => {
    const cases: [string, () => [Record<string, unknown>, string?], string][] = [
      ['a head the subject never had', () => [{ atHead: 'a'.repeat(64), names: ['profile'] }], 'Conflict'],
      ['another registry', () => [{ atHead: head2, names: ['profile'], expectedRegistryDigest: 'b'.repeat(64) }], 'Conflict'],
      ['another reducer', () => [{ atHead: head2, names: ['profile'], expectedReducerDigest: 'c'.repeat(64) }], 'Conflict'],
      ['a name not defined at that head', () => [{ atHead: genesisSubjectHead(ada.userId), names: ['profile'] }], 'Unprocessable'],
      ['a name that is not a namespace name', () => [{ atHead: head2, names: ['Profile!'] }], 'InvalidInput'],
      ['another person\'s subject', () => [{ atHead: head2, names: ['profile'] }, 'usr_bob'], 'Forbidden'],
      ['another application', () => [{ atHead: head2, names: ['profile'], applicationId: 'org.example.other' }], 'Forbidden'],
    ]
    for (const [name, input, tag] of cases) {
      it(`refuses ${name}`, async () => {
        const [body, subject] = input()
        const before = await runtime.snapshot()
        expect(await resolve(body, subject)).toEqual(E.left(expect.objectContaining({ _tag: tag })))
        expect(await runtime.snapshot()).toBe(before)
      })
    }
  })

  it('works over HTTP', async () => {
    const response = await runtime.http('POST', `/api/sdk/v1/subjects/${ada.userId}/namespaces/resolve`, { body: { atHead: head1, names: ['settings'] }, token })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ ok: true, atHead: head1, namespaces: [{ name: 'settings' }] })
    expect((await runtime.http('POST', `/api/sdk/v1/subjects/${ada.userId}/namespaces/resolve`, { body: { atHead: 'f'.repeat(64), names: ['settings'] }, token })).status).toBe(409)
  })
})

describe('POST /api/sdk/v1/subjects/namespaces/resolve', () => {
  const v124Body = (overrides: Record<string, unknown> = {}) => ({
    applicationId: APP, subjectId: ada.userId, atHead: head2, names: ['profile', 'settings'],
    expectedAdmittedProofDigest: second.artifactSha256, expectedOwnershipHead: ownershipHeadOf(ada.userId, ada.userId),
    expectedRegistryDigest: REGISTRY_DIGEST, expectedReducerDigest: REDUCER_DIGEST, ...overrides,
  })

  interface Wire { namespaces: Projection[]; sourceArtifact: PortableArtifact; admittedProofDigest: string; resolutionDigest: string; [k: string]: unknown }

  async function resolved(body: Record<string, unknown>): Promise<Wire> {
    const envelope = bodyOf<{ wire: Wire }>(await runtime.call('resolveNamespaces', { body, token }))
    expect(await verifyRuntimeEnvelope(envelope, { method: 'POST', path: V124, body, applicationId: APP, audience: APP, domain: 'cairn.test' }, { jwks: await runtime.jwks(), now: T0 })).toMatchObject({ ok: true })
    return envelope.wire
  }

  it('answers byte-exact projections at the head with the admitted source\'s exact bytes from custody', async () => {
    const wire = await resolved(v124Body())
    expect(wire).toMatchObject({ schema: 'cairn.v124.namespace_resolution_wire', subjectId: ada.userId, atHead: head2, admittedProofDigest: second.artifactSha256, registryDigest: REGISTRY_DIGEST, reducerDigest: REDUCER_DIGEST })
    expect(wire.namespaces.map((ns) => text(ns.exactBytesB64u))).toEqual(['{"name":"Ada L."}', '{"theme":"dark"}'])
    expect(wire.sourceArtifact).toEqual(second)
    const { resolutionDigest, ...unsigned } = wire
    expect(resolutionDigest).toBe(sha256OfJson(unsigned))
    const older = await resolved(v124Body({ atHead: head1, expectedAdmittedProofDigest: first.artifactSha256 }))
    expect(older.sourceArtifact).toEqual(first)
    expect(older.namespaces.map((ns) => text(ns.exactBytesB64u))).toEqual(['{"name":"Ada"}', '{"theme":"dark"}'])
  })

  describe('refuses, writing nothing', () => {
    const cases: [string, () => Record<string, unknown>, string][] = [
      ['another admitted proof (the source of another head)', () => v124Body({ expectedAdmittedProofDigest: first.artifactSha256 }), 'Conflict'],
      ['another ownership head', () => v124Body({ expectedOwnershipHead: 'd'.repeat(64) }), 'Conflict'],
      ['another registry', () => v124Body({ expectedRegistryDigest: 'e'.repeat(64) }), 'Conflict'],
      ['another reducer', () => v124Body({ expectedReducerDigest: 'e'.repeat(64) }), 'Conflict'],
      ['an unknown head', () => v124Body({ atHead: '0'.repeat(64) }), 'Conflict'],
      ['the genesis head (no admitted source)', () => v124Body({ atHead: genesisSubjectHead(ada.userId), names: [] }), 'Conflict'],
      ['another person\'s subject', () => v124Body({ subjectId: 'usr_bob' }), 'Forbidden'],
    ]
    for (const [name, body, tag] of cases) {
      it(`refuses ${name}`, async () => {
        const before = await runtime.snapshot()
        expect(await runtime.call('resolveNamespaces', { body: body(), token })).toEqual(E.left(expect.objectContaining({ _tag: tag })))
        expect(await runtime.snapshot()).toBe(before)
      })
    }
  })

  it('works over HTTP', async () => {
    const body = v124Body()
    const response = await runtime.http('POST', V124, { body, token })
    expect(response.status).toBe(200)
    const envelope = await response.json()
    expect(await verifyRuntimeEnvelope(envelope, { method: 'POST', path: V124, body, applicationId: APP, audience: APP, domain: 'cairn.test' }, { jwks: await runtime.jwks(), now: T0 })).toMatchObject({ ok: true })
    expect((await runtime.http('POST', V124, { body: v124Body({ expectedReducerDigest: 'e'.repeat(64) }), token })).status).toBe(409)
  })
})

describe('registry and reducer digests', () => {
  it('are the SHA-256 of the descriptions docs/runtime.md publishes', () => {
    expect(REGISTRY_DIGEST).toBe(sha256Hex('{"maxNamespacesPerSource":64,"names":"^[a-z][a-z0-9._-]{0,127}$","schema":"cairn.v124.namespace_registry","sourceKinds":["sealed-json","sealed-file"],"version":"cairn.v124.registry.1"}'))
    expect(REDUCER_DIGEST).toBe(sha256Hex('{"rule":"newest publication wins per name; namespace bytes are the RFC 8785 JSON of payload.namespaces[name]","schema":"cairn.v124.namespace_reducer","version":"cairn.v124.reducer.1"}'))
  })
})
