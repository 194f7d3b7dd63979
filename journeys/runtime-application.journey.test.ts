/**
 * Journey 4, a runtime application (the Notes app, a registered client): its user opens an
 * authority session with a challenge signed by her ID key, the app stages a plan and executes it
 * with her signed transition set, and reads the domain back through verified replay — every answer
 * checked with `cairn/runtime-verify` against the JWKS the server publishes. Over HTTP only, on
 * `cairn serve --data-dir`; the plan is built client-side as an SDK would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { genesisParticipantHead } from '../core/runtime/participant-heads.js'
import { verifyRuntimeEnvelope } from '../core/runtime/verify-envelope.js'
import { DOMAIN_REDUCER_DIGEST, DOMAIN_REGISTRY_DIGEST } from '../core/runtime/domains/domain-records.js'
import { draftExecution, EXECUTION_SCOPES, SESSION_AUDIENCE } from '../hosts/http/execution-test-support.js'
import { APP, openSessionBody } from '../hosts/http/runtime-test-support.js'
import { identityHolder, sealOwn } from './authority-session.js'
import { applicationToken, call, expectConserved, registeredApplication, signIn, startJourneyServer, type JourneyApplication, type JourneyServer } from './journey-server.js'

/** A confidential application: its tokens come from its own code + PKCE flow, redeemed with its secret. */
const NOTES: JourneyApplication = { clientId: APP, secret: 'notes-journey-secret', redirectUri: 'https://notes.example/callback' }
let server: JourneyServer
beforeAll(async () => {
  server = await startJourneyServer({ clients: [registeredApplication(NOTES, 'Notes')] })
}, 60_000)
afterAll(async () => server?.stop())

describe('journey 4: a runtime application stages, executes and replays, verifying every envelope', () => {
  it('authority session → stage → execute → verified replay checked with cairn/runtime-verify', async () => {
    const ada = await signIn(server, 'ada')
    const token = await applicationToken(server, ada, EXECUTION_SCOPES, NOTES)
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

    const holder = await identityHolder(server, ada)
    const [first, second] = [await sealOwn(server, ada, 'note-0.json', { note: 'first draft' }), await sealOwn(server, ada, 'note-1.json', { note: 'second draft' })]

    const session = await verified('/api/sdk/v1/runtime/authority-sessions/open', openSessionBody(holder, { applicationId: APP, audience: SESSION_AUDIENCE, consent: EXECUTION_SCOPES }), SESSION_AUDIENCE)
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
