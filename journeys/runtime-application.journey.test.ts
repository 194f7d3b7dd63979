/**
 * Journey 4, a runtime application (the Notes app, a registered client): its user opens an
 * authority session with a challenge signed by her ID key, the app stages a plan and executes it
 * with her signed transition set, and reads the domain back through verified replay — every answer
 * checked with `cairn/runtime-verify` against the JWKS the server publishes. Over HTTP only, on
 * `cairn serve --data-dir`; the plan is built client-side as an SDK would.
 */
import { createPublicKey, sign as signBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256Hex } from '../core/digest/sha256.js'
import { jwkThumbprint } from '../core/identity/public-key.js'
import { genesisParticipantHead } from '../core/runtime/participant-heads.js'
import { verifyRuntimeEnvelope } from '../core/runtime/verify-envelope.js'
import { toBase64Url } from '../core/encoding/base64url.js'
import { DOMAIN_REDUCER_DIGEST, DOMAIN_REGISTRY_DIGEST } from '../core/runtime/domains/domain-records.js'
import { draftExecution, EXECUTION_SCOPES, SESSION_AUDIENCE } from '../hosts/http/execution-test-support.js'
import { APP, signedChallengeWith, type IdentityHolder, type PortableArtifact } from '../hosts/http/runtime-test-support.js'
import { agentToken, call, expectConserved, signIn, startJourneyServer, type JourneyServer, type Person } from './journey-server.js'

let server: JourneyServer
beforeAll(async () => {
  server = await startJourneyServer({ clients: [{ clientId: APP, name: 'Notes', redirectUris: [] }] })
}, 60_000)
afterAll(async () => server?.stop())

/** Seals a JSON file as the person's own proof object, and carries it as the runtime does. */
async function sealOwn(person: Person, filename: string, value: unknown): Promise<PortableArtifact> {
  const form = new FormData()
  form.append('file', new Blob([JSON.stringify(value)], { type: 'application/json' }), filename)
  const sealed = await fetch(`${server.url}/api/sdk/v1/assets/seal`, { method: 'POST', body: form, headers: { cookie: person.cookie } })
  expect(sealed.status).toBe(200)
  const body = (await sealed.json()) as { sealedBytesB64u: string; sourceSha256: string }
  const bytes = Buffer.from(body.sealedBytesB64u, 'base64url')
  return { schema: 'cairn.v124.portable_sealed_artifact', exactBytesB64u: body.sealedBytesB64u, filename, mimeType: 'application/json', artifactSha256: sha256Hex(bytes), payloadSha256: body.sourceSha256 }
}

describe('journey 4: a runtime application stages, executes and replays, verifying every envelope', () => {
  it('authority session → stage → execute → verified replay checked with cairn/runtime-verify', async () => {
    const ada = await signIn(server, 'ada')
    const token = await agentToken(server, ada, EXECUTION_SCOPES, APP)
    const jwks = await (await fetch(`${server.url}/api/oidc/jwks`)).json()
    const domain = new URL(server.url).host
    /** Posts to a runtime route and verifies the signed envelope as the application must. */
    const verified = async (path: string, body: Record<string, unknown>, audience = APP) => {
      const answer = await call(server, 'POST', path, { token, body })
      expect(answer.body.error).toBeUndefined()
      expect(answer.status).toBe(200)
      const verdict = await verifyRuntimeEnvelope<Record<string, any>>(answer.body, { method: 'POST', path, body, applicationId: APP, audience, domain }, { jwks })
      if (!verdict.ok) throw new Error(verdict.errors.join('; '))
      return verdict.wire
    }

    const keyId = jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: createPublicKey(ada.privateKey).export({ format: 'jwk' }).x! })
    const identityArtifact = await sealOwn(ada, 'ada-identity.json', { schema: 'cairn.identity_card.v1', username: 'ada' })
    const holder: IdentityHolder = {
      userId: ada.userId, username: 'ada', keyId, identityArtifact,
      seal: (filename, _mimeType, bytes) => sealOwn(ada, filename, JSON.parse(new TextDecoder().decode(bytes))),
      sign: (bytes) => toBase64Url(signBytes(null, bytes, ada.privateKey)),
      challenge: (input) => signedChallengeWith(ada.privateKey, keyId, 'ada', Date.now(), input),
    }
    const [first, second] = [await sealOwn(ada, 'note-0.json', { note: 'first draft' }), await sealOwn(ada, 'note-1.json', { note: 'second draft' })]

    const session = await verified('/api/sdk/v1/runtime/authority-sessions/open', {
      applicationId: APP, actorSubjectId: ada.userId, artifact: { exactBytesB64u: identityArtifact.exactBytesB64u, digest: identityArtifact.artifactSha256 },
      subjectSourceArtifact: identityArtifact, signedChallenge: holder.challenge({ audience: SESSION_AUDIENCE, scopes: EXECUTION_SCOPES }), requestedRails: [], requiredNamespaces: [], audience: SESSION_AUDIENCE,
    }, SESSION_AUDIENCE)
    expect(session).toMatchObject({ authoritySessionHandle: expect.any(String) })

    const draft = draftExecution({ clock: { now: () => Date.now() } }, {
      applicationId: APP, semanticIdempotencyKey: 'journey-note-1',
      members: [{ participantId: 'note-1', expectedHead: genesisParticipantHead(APP, 'note-1'), predecessor: first, candidate: second, owner: holder }],
    })
    const handle = await verified('/api/sdk/v1/execution/stage', { applicationId: APP, plan: draft.plan })
    // Executing happens under the authority session, so its answer is bound to the session's audience.
    const executed = await verified('/api/sdk/v1/execution/execute', { applicationId: APP, handle, authoritySession: session, transitionSet: draft.transitionSet }, SESSION_AUDIENCE)
    expect(executed).toMatchObject({ status: 'committed' })

    const replay = await verified('/api/sdk/v1/domains/verified-replay', { applicationId: APP, domainId: 'notes', afterHead: null, expectedRegistryDigest: DOMAIN_REGISTRY_DIGEST, expectedReducerDigest: DOMAIN_REDUCER_DIGEST })
    expect(replay).toMatchObject({ status: 'complete', afterHead: null })
    expect(replay.additions).toHaveLength(1)
    expect(replay.head).toBe(replay.additions[0].newHead)
    // The domain holds exactly the event ada's plan carried, byte for byte.
    expect(JSON.parse(Buffer.from(replay.additions[0].exactEventBytesB64u, 'base64url').toString())).toEqual({ set: { participant: 'note-1', key: 'journey-note-1' } })

    // A tampered answer fails the application's verifier.
    const answer = await call(server, 'POST', '/api/sdk/v1/domains/verified-replay', { token, body: { applicationId: APP, domainId: 'notes', afterHead: null, expectedRegistryDigest: DOMAIN_REGISTRY_DIGEST, expectedReducerDigest: DOMAIN_REDUCER_DIGEST } })
    const tampered = JSON.parse(JSON.stringify(answer.body).replace(replay.head, '0'.repeat(64)))
    const refused = await verifyRuntimeEnvelope(tampered, { method: 'POST', path: '/api/sdk/v1/domains/verified-replay', body: { applicationId: APP, domainId: 'notes', afterHead: null, expectedRegistryDigest: DOMAIN_REGISTRY_DIGEST, expectedReducerDigest: DOMAIN_REDUCER_DIGEST }, applicationId: APP, audience: APP, domain }, { jwks })
    expect(refused.ok).toBe(false)

    // No value moved on this journey.
    await expectConserved(server, [])
  }, 120_000)
})
