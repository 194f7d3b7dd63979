/**
 * Authority sessions through the real bearer boundary: opened only after ProofConsent, exact scope
 * binding and head checks; refreshed only from a fresh challenge with identical bindings; closed by
 * appending a revocation, after which the handle is refused everywhere. Every envelope is checked
 * with the client verifier and every refusal is checked to write nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { bodyOf } from '../../hosts/http/oidc-test-support.js'
import { APP, createRuntimeTestWorld, type IdentityHolder, type PortableArtifact, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { AUTHORITY_SESSIONS } from './runtime-collections.js'
import { genesisRevocationHead, revocationStreamOf } from './revocation-head.js'
import { verifyRuntimeEnvelope } from './verify-envelope.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')
const AUDIENCE = 'https://notes.example'
const SCOPES = ['cairn:runtime.session', 'cairn:runtime.publish']
const OPEN = '/api/sdk/v1/runtime/authority-sessions/open'
const REFRESH = '/api/sdk/v1/runtime/authority-sessions/refresh'
const CLOSE = '/api/sdk/v1/runtime/authority-sessions/close'

let runtime: RuntimeTestWorld
let ada: IdentityHolder
let source: PortableArtifact
let token: string
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  ada = await runtime.identityHolder('ada')
  source = await ada.seal('notes.json', 'application/json', new TextEncoder().encode('{"notes":[]}'))
  token = await runtime.tokenFor([...SCOPES, 'cairn:runtime.read'])
})

interface Session {
  authoritySessionHandle: string; audience: string; actorSubjectId: string; subjectSourceArtifactSha256: string; identityArtifactSha256: string; identityKeyId: string
  grantedScopes: string[]; grantedRails: string[]; namespaces: unknown[]; revocationHead: string; issuedAtKaiUPulse: number; expiresAtKaiUPulse: number; sessionBindingDigest: string
}
interface Envelope<W> { wire: W; receipt: { revokedAtKaiUPulse: number | null }; transportBinding: { audience: string; revocationHead: string } }

const openBody = (overrides: Record<string, unknown> = {}) => ({
  applicationId: APP,
  actorSubjectId: ada.userId,
  artifact: { exactBytesB64u: ada.identityArtifact.exactBytesB64u, digest: ada.identityArtifact.artifactSha256 },
  subjectSourceArtifact: source,
  signedChallenge: ada.challenge({ audience: AUDIENCE, scopes: SCOPES }),
  requestedRails: ['notes.sync'],
  requiredNamespaces: [],
  audience: AUDIENCE,
  ...overrides,
})

async function verified<W>(reply: Awaited<ReturnType<RuntimeTestWorld['call']>>, path: string, body: unknown, audience = AUDIENCE): Promise<Envelope<W>> {
  const envelope = bodyOf<Envelope<W>>(reply)
  const verdict = await verifyRuntimeEnvelope(envelope, { method: 'POST', path, body, applicationId: APP, audience, domain: 'cairn.test' }, { jwks: await runtime.jwks(), now: runtime.world.clock.now() })
  expect(verdict).toMatchObject({ ok: true })
  return envelope
}

async function open(overrides: Record<string, unknown> = {}): Promise<Session> {
  const body = openBody(overrides)
  return (await verified<Session>(await runtime.call('openAuthoritySession', { body, token }), OPEN, body)).wire
}

const bindings = ({ authoritySessionHandle: _h, ...rest }: Session & Record<string, unknown>) => {
  const { schema: _s, status: _st, applicationId: _a, audience: _au, runtimeReceiptDigest: _r, authority: _auth, ...held } = rest
  return held
}

const refreshBody = (session: Session, overrides: Record<string, unknown> = {}) => ({
  applicationId: APP,
  authoritySessionHandle: session.authoritySessionHandle,
  artifact: { exactBytesB64u: ada.identityArtifact.exactBytesB64u, digest: ada.identityArtifact.artifactSha256 },
  signedChallenge: ada.challenge({ audience: AUDIENCE, scopes: SCOPES }),
  requestedRails: session.grantedRails,
  requiredNamespaces: [],
  audience: AUDIENCE,
  expectedPriorSession: bindings(session as Session & Record<string, unknown>),
  ...overrides,
})

const closeBody = (session: Session, overrides: Record<string, unknown> = {}) => ({
  applicationId: APP,
  authoritySessionHandle: session.authoritySessionHandle,
  expectedPriorRevocationHead: genesisRevocationHead(APP),
  expectedPriorSessionBindingDigest: session.sessionBindingDigest,
  ...overrides,
})

async function refusedWithoutWrites(operation: string, body: unknown, tag: string, callToken = token) {
  const before = await runtime.snapshot()
  expect(await runtime.call(operation, { body, token: callToken })).toEqual(E.left(expect.objectContaining({ _tag: tag })))
  expect(await runtime.snapshot()).toBe(before)
}

describe('POST /api/sdk/v1/runtime/authority-sessions/open', () => {
  it('opens a 15-minute session bound to the consent\'s exact scopes, the proof, the owner, the rails and the revocation head', async () => {
    const session = await open()
    expect(session).toMatchObject({
      schema: 'cairn.v124.authority_session', status: 'active', applicationId: APP, audience: AUDIENCE, actorSubjectId: ada.userId,
      identityArtifactSha256: ada.identityArtifact.artifactSha256, subjectSourceArtifactSha256: source.artifactSha256, identityKeyId: ada.keyId,
      grantedScopes: SCOPES, grantedRails: ['notes.sync'], namespaces: [], revocationHead: genesisRevocationHead(APP),
      authority: { role: 'coordination', proofAuthority: false, heldBytesWin: true },
    })
    expect(session.authoritySessionHandle).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // ~15 minutes of μpulses (a pulse is 5.236 s)
    expect((session.expiresAtKaiUPulse - session.issuedAtKaiUPulse) / 1e6).toBeCloseTo(900 / 5.2360679775, 1)
    const stored = (await runtime.deps.store.query(AUTHORITY_SESSIONS, { index: 'byExpiresAt', limit: 10 })).items
    expect(stored).toHaveLength(1)
    expect(JSON.stringify(stored[0]!.value)).not.toContain(session.authoritySessionHandle) // only its digest is the key
  })

  describe('refusals write nothing', () => {
    const cases: [string, () => Promise<Record<string, unknown>>, string, string[]?][] = [
      ['consent scopes the token does not hold', async () => openBody({ signedChallenge: ada.challenge({ audience: AUDIENCE, scopes: [...SCOPES, 'cairn:runtime.execute'] }) }), 'Forbidden'],
      ['a challenge for another audience than the body\'s', async () => openBody({ signedChallenge: ada.challenge({ audience: 'https://other.example', scopes: SCOPES }) }), 'Forbidden'],
      ['an identity of another person than the token\'s', async () => {
        const bob = await runtime.identityHolder('bob')
        const bobSource = await bob.seal('b.json', 'application/json', new TextEncoder().encode('{}'))
        return openBody({ actorSubjectId: bob.userId, artifact: { exactBytesB64u: bob.identityArtifact.exactBytesB64u, digest: bob.identityArtifact.artifactSha256 }, subjectSourceArtifact: bobSource, signedChallenge: bob.challenge({ audience: AUDIENCE, scopes: SCOPES }) })
      }, 'Forbidden'],
      ['an actor subject that is not the identity\'s owner', async () => openBody({ actorSubjectId: 'usr_bob' }), 'Forbidden'],
      ['a subject source sealed for someone else', async () => {
        const bob = await runtime.identityHolder('bob')
        return openBody({ subjectSourceArtifact: await bob.seal('b.json', 'application/json', new TextEncoder().encode('{}')) })
      }, 'Forbidden'],
      ['a required namespace the subject does not have', async () => openBody({ requiredNamespaces: ['profile'] }), 'Unprocessable'],
      ['an identity digest that is not of its bytes', async () => openBody({ artifact: { exactBytesB64u: ada.identityArtifact.exactBytesB64u, digest: 'c'.repeat(64) } }), 'InvalidInput'],
      ['an expired challenge', async () => openBody({ signedChallenge: ada.challenge({ audience: AUDIENCE, scopes: SCOPES, issuedAtMs: T0 - 400_000, expiresAtMs: T0 - 100_000 }) }), 'Unauthenticated'],
      ['another application in the body', async () => openBody({ applicationId: 'org.example.other' }), 'Forbidden'],
      ['a token without cairn:runtime.session', async () => openBody(), 'Forbidden', ['cairn:runtime.read']],
    ]
    for (const [name, body, tag, scopes] of cases) {
      it(`refuses ${name}`, async () => {
        const request = await body()
        await refusedWithoutWrites('openAuthoritySession', request, tag, scopes ? await runtime.tokenFor(scopes) : token)
      })
    }

    it('refuses a replayed challenge', async () => {
      const body = openBody()
      expect(E.isRight(await runtime.call('openAuthoritySession', { body, token }))).toBe(true)
      await refusedWithoutWrites('openAuthoritySession', body, 'Unauthenticated')
    })
  })

  it('works over HTTP with an envelope the client verifier accepts', async () => {
    const body = openBody()
    const response = await runtime.http('POST', OPEN, { body, token })
    expect(response.status).toBe(200)
    const envelope = await response.json()
    expect(await verifyRuntimeEnvelope(envelope, { method: 'POST', path: OPEN, body, applicationId: APP, audience: AUDIENCE, domain: 'cairn.test' }, { jwks: await runtime.jwks(), now: T0 })).toMatchObject({ ok: true })
    expect((await runtime.http('POST', OPEN, { body: openBody() })).status).toBe(401)
  })
})

describe('POST /api/sdk/v1/runtime/authority-sessions/refresh', () => {
  it('replaces the session with a fresh handle and identical bindings; the old handle is spent', async () => {
    const first = await open()
    runtime.world.clock.advance(60_000)
    const body = refreshBody(first)
    const second = (await verified<Session>(await runtime.call('refreshAuthoritySession', { body, token }), REFRESH, body)).wire
    expect(second.authoritySessionHandle).not.toBe(first.authoritySessionHandle)
    expect(second).toMatchObject({ grantedScopes: first.grantedScopes, grantedRails: first.grantedRails, identityArtifactSha256: first.identityArtifactSha256, revocationHead: first.revocationHead, audience: AUDIENCE })
    expect(second.issuedAtKaiUPulse).toBeGreaterThan(first.issuedAtKaiUPulse)
    await refusedWithoutWrites('refreshAuthoritySession', refreshBody(first), 'Forbidden')
    await refusedWithoutWrites('closeAuthoritySession', closeBody(first), 'Conflict')
  })

  describe('refusals write nothing', () => {
    const cases: [string, (session: Session) => Record<string, unknown>, string][] = [
      ['an expectedPriorSession that differs in any binding', (s) => refreshBody(s, { expectedPriorSession: { ...bindings(s as Session & Record<string, unknown>), grantedRails: [] } }), 'Conflict'],
      ['other scopes', (s) => refreshBody(s, { signedChallenge: ada.challenge({ audience: AUDIENCE, scopes: ['cairn:runtime.session'] }) }), 'Forbidden'],
      ['other rails', (s) => refreshBody(s, { requestedRails: ['other.rail'] }), 'Forbidden'],
      ['another audience', (s) => refreshBody(s, { audience: 'https://other.example', signedChallenge: ada.challenge({ audience: 'https://other.example', scopes: SCOPES }) }), 'Forbidden'],
      ['another identity artifact', (s) => refreshBody(s, { artifact: { exactBytesB64u: source.exactBytesB64u, digest: source.artifactSha256 } }), 'Forbidden'],
      ['an unknown handle', (s) => refreshBody(s, { authoritySessionHandle: 'A'.repeat(43) }), 'Forbidden'],
    ]
    for (const [name, body, tag] of cases) {
      it(`refuses ${name}`, async () => {
        const session = await open()
        await refusedWithoutWrites('refreshAuthoritySession', body(session), tag)
      })
    }

    it('refuses a session past its 15 minutes', async () => {
      const session = await open()
      runtime.world.clock.advance(15 * 60_000)
      token = await runtime.tokenFor([...SCOPES, 'cairn:runtime.read']) // the session expired, not the application's token
      await refusedWithoutWrites('refreshAuthoritySession', refreshBody(session), 'Forbidden')
    })

    it('refuses once the application\'s revocation head moved', async () => {
      const session = await open()
      const other = await open()
      expect(E.isRight(await runtime.call('closeAuthoritySession', { body: closeBody(other), token }))).toBe(true)
      await refusedWithoutWrites('refreshAuthoritySession', refreshBody(session), 'Conflict')
    })

    it('refuses a replayed challenge', async () => {
      const session = await open()
      const challenge = ada.challenge({ audience: AUDIENCE, scopes: SCOPES })
      const replayed = openBody({ signedChallenge: challenge })
      expect(E.isRight(await runtime.call('openAuthoritySession', { body: replayed, token }))).toBe(true)
      await refusedWithoutWrites('refreshAuthoritySession', refreshBody(session, { signedChallenge: challenge }), 'Unauthenticated')
    })
  })
})

describe('POST /api/sdk/v1/runtime/authority-sessions/close', () => {
  it('appends the revocation; the envelope carries the new head and the revocation time; the handle is refused afterwards', async () => {
    const session = await open()
    const body = closeBody(session)
    const envelope = await verified<{ status: string; revocationHead: string; closedAtKaiUPulse: number }>(await runtime.call('closeAuthoritySession', { body, token }), CLOSE, body)
    const head = await runtime.deps.store.streamHead(revocationStreamOf(APP))
    expect(envelope.wire).toMatchObject({ schema: 'cairn.v124.authority_session_closed', status: 'closed', revocationHead: head!.head, sessionBindingDigest: session.sessionBindingDigest })
    expect(envelope.transportBinding.revocationHead).toBe(head!.head)
    expect(envelope.receipt.revokedAtKaiUPulse).toBe(envelope.wire.closedAtKaiUPulse)
    await refusedWithoutWrites('refreshAuthoritySession', refreshBody(session), 'Forbidden')
    await refusedWithoutWrites('closeAuthoritySession', closeBody(session, { expectedPriorRevocationHead: head!.head }), 'Conflict')
    // later answers to the application carry the moved head
    const qualify = { applicationId: APP, operations: ['openAuthoritySession'] }
    const report = await verified<unknown>(await runtime.call('qualifyOperations', { body: qualify, token }), '/api/sdk/v1/runtime/qualify', qualify, APP)
    expect(report.transportBinding.revocationHead).toBe(head!.head)
  })

  describe('refusals write nothing', () => {
    const cases: [string, (session: Session) => Record<string, unknown>, string][] = [
      ['another expected revocation head', (s) => closeBody(s, { expectedPriorRevocationHead: 'd'.repeat(64) }), 'Conflict'],
      ['another expected session binding', (s) => closeBody(s, { expectedPriorSessionBindingDigest: 'e'.repeat(64) }), 'Conflict'],
      ['an unknown handle', (s) => closeBody(s, { authoritySessionHandle: 'B'.repeat(43) }), 'NotFound'],
      ['another application', (s) => closeBody(s, { applicationId: 'org.example.other' }), 'Forbidden'],
    ]
    for (const [name, body, tag] of cases) {
      it(`refuses ${name}`, async () => {
        const session = await open()
        await refusedWithoutWrites('closeAuthoritySession', body(session), tag)
      })
    }

    it('refuses a handle of another person\'s session', async () => {
      const session = await open()
      // a token of the same application acting for bob must not close ada's session
      const bobsToken = await runtime.tokenFor(SCOPES, APP, await runtime.world.signIn('bob'))
      await refusedWithoutWrites('closeAuthoritySession', closeBody(session), 'NotFound', bobsToken)
    })
  })

  it('works over HTTP', async () => {
    const session = await open()
    const response = await runtime.http('POST', CLOSE, { body: closeBody(session), token })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { wire: { status: string } }).wire.status).toBe('closed')
  })
})
