/**
 * Fault injection at every Store call of every runtime use case that writes, before the call
 * reaches the store and after it did its work but the reply was lost: after each fault nothing is
 * half written (each scenario's invariant ties the records one commit writes together), and the
 * same request made again afterwards either completes or is refused for the first attempt's
 * success — never half of both.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { InjectedFaultError, withFaults, type StoreMethod } from '../../conformance/fault-injection.js'
import { APP, createRuntimeTestWorld, runtimeDeployment, type IdentityHolder, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import type { Principal } from '../auth/principal.js'
import { ACTION_LEDGER_STREAM } from '../ledger/action-ledger.js'
import { GRANTS } from '../oidc/collections.js'
import type { Store } from '../../ports/store.js'
import type { CoreDeps, UseCase } from '../usecases/use-case.js'
import { runtimeUseCases } from './index.js'
import { AUTHORITY_SESSIONS, RECIPIENT_LOCATORS, RUNTIME_CHALLENGES, SUBJECT_SOURCES } from './runtime-collections.js'
import { subjectStreamOf } from './subject-namespaces.js'
import { revocationHeadOf, revocationStreamOf } from './revocation-head.js'
import type { PortableArtifact } from '../../hosts/http/runtime-test-support.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')
const METHODS: readonly StoreMethod[] = ['get', 'getByUnique', 'query', 'commit', 'streamHead', 'readStream']

let runtime: RuntimeTestWorld
let ada: IdentityHolder
let source: PortableArtifact
beforeAll(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0), deployment: { ...runtimeDeployment(), runtime: { recipientResolutionsPerMinute: 1_000_000 } } })
  ada = await runtime.identityHolder('ada')
  source = await ada.seal('notes.json', 'application/json', new TextEncoder().encode('{"namespaces":{"profile":{"name":"Ada"}}}'))
  const bob = await runtime.identityHolder('bob')
  for (const [holder, alias] of [[ada, 'ada'], [bob, 'bob']] as const) {
    const body = {
      applicationId: APP, actorSubjectId: holder.userId, artifact: { exactBytesB64u: holder.identityArtifact.exactBytesB64u, digest: holder.identityArtifact.artifactSha256 },
      subjectSourceArtifact: holder.identityArtifact, signedChallenge: holder.challenge({ audience: AUDIENCE, scopes: SESSION_SCOPES }), requestedRails: [], requiredNamespaces: [], audience: AUDIENCE,
    }
    const opened = await runtimeUseCases.openAuthoritySession({ params: {}, query: {}, body, principal: bearer(SESSION_SCOPES, holder.userId) }, runtime.deps)
    if (E.isLeft(opened) || opened.right.kind !== 'json') throw new Error('open refused')
    const handle = (opened.right.body as { wire: { authoritySessionHandle: string } }).wire.authoritySessionHandle
    if (holder === ada) adaHandle = handle
    const jwk = await crypto.subtle.exportKey('jwk', (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']) as CryptoKeyPair).publicKey)
    const consent = { namespaces: { 'public-recipient': { alias, display: alias, purposes: ['payment'], encryptionKeyJwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } } } }
    const sourceArtifact = await holder.seal(`${alias}.json`, 'application/json', new TextEncoder().encode(JSON.stringify(consent)))
    const published = await runtimeUseCases.publishSealedSource({ params: {}, query: {}, body: { applicationId: APP, authoritySessionHandle: handle, sourceArtifact }, principal: bearer(SESSION_SCOPES, holder.userId) }, runtime.deps)
    if (E.isLeft(published)) throw new Error(published.left.message)
  }
})
let adaHandle = ''
let resolutions = 0

const SESSION_SCOPES = ['cairn:runtime.session', 'cairn:runtime.publish', 'cairn:runtime.read']
const AUDIENCE = 'https://notes.example'
const identity = () => ({ exactBytesB64u: ada.identityArtifact.exactBytesB64u, digest: ada.identityArtifact.artifactSha256 })
const openBody = () => ({
  applicationId: APP, actorSubjectId: ada.userId, artifact: identity(), subjectSourceArtifact: source,
  signedChallenge: ada.challenge({ audience: AUDIENCE, scopes: SESSION_SCOPES }), requestedRails: ['notes.sync'], requiredNamespaces: [], audience: AUDIENCE,
})

/** Opens a session on the clean store and answers its wire. */
async function openSession(): Promise<Record<string, unknown> & { authoritySessionHandle: string; sessionBindingDigest: string }> {
  const reply = await runtimeUseCases.openAuthoritySession({ params: {}, query: {}, body: openBody(), principal: bearer(SESSION_SCOPES) }, runtime.deps)
  if (E.isLeft(reply) || reply.right.kind !== 'json') throw new Error('open refused')
  return (reply.right.body as { wire: Record<string, unknown> & { authoritySessionHandle: string; sessionBindingDigest: string } }).wire
}

/** Sessions and what wrote them: one nonce per open or refresh, one revocation per close. */
async function sessionInvariant(store: Store): Promise<void> {
  const sessions = (await all(store, AUTHORITY_SESSIONS, 'byExpiresAt')).map((doc) => (doc.value as { status: string }).status)
  const nonces = (await all(store, RUNTIME_CHALLENGES, 'byExpiresAt')).map((doc) => (doc.value as { operation: string }).operation)
  const revocations = (await store.readStream(revocationStreamOf(APP), { limit: 1000 })).items.length
  expect(sessions.length).toBe(nonces.filter((op) => op === 'openAuthoritySession' || op === 'refreshAuthoritySession').length)
  expect(sessions.filter((status) => status === 'refreshed').length).toBe(nonces.filter((op) => op === 'refreshAuthoritySession').length)
  expect(sessions.filter((status) => status === 'closed').length).toBe(revocations)
}

function bearer(scopes: readonly string[], subject = 'usr_ada'): Principal {
  return { kind: 'bearer', actsAsClient: true, subject, clientId: APP, scopes, tokenId: 'tok', businessTier: false }
}

interface Scenario {
  readonly name: string
  /** A fresh request (its own nonce, handle…), prepared on the clean store. */
  prepare(): Promise<{ readonly body: unknown; readonly principal: Principal }>
  readonly operation: keyof typeof runtimeUseCases
  /** What must hold after any fault: records one commit writes exist together or not at all. */
  invariant(store: Store): Promise<void>
}

const all = async (store: Store, collection: string, index: string) => (await store.query(collection, { index, limit: 1000 })).items
const ledgerActions = async (store: Store, action: string) =>
  (await store.readStream(ACTION_LEDGER_STREAM, { limit: 1000 })).items.filter((entry) => (entry.value as { action?: string }).action === action).length

const scenarios: Scenario[] = [
  {
    name: 'proof-authority exchange',
    operation: 'exchangeProofAuthority',
    prepare: async () => ({
      body: { artifact: ada.identityArtifact, challenge: ada.challenge({ audience: APP, scopes: ['cairn:runtime.read'] }), applicationId: APP, scopes: ['cairn:runtime.read'] },
      principal: { kind: 'client', clientId: APP }, // the application, authenticated by its secret at the boundary
    }),
    invariant: async (store) => {
      const grants = (await all(store, GRANTS, 'byUserClient')).filter((doc) => (doc.value as { clientId: string }).clientId === APP)
      const nonces = (await all(store, RUNTIME_CHALLENGES, 'byExpiresAt')).filter((doc) => (doc.value as { operation: string }).operation === 'exchangeProofAuthority')
      expect(grants.length).toBe(nonces.length)
      expect(await ledgerActions(store, 'proof_authority_exchanged')).toBe(grants.length)
    },
  },
  {
    name: 'authority session open',
    operation: 'openAuthoritySession',
    prepare: async () => ({ body: openBody(), principal: bearer(SESSION_SCOPES) }),
    invariant: sessionInvariant,
  },
  {
    name: 'authority session refresh',
    operation: 'refreshAuthoritySession',
    prepare: async () => {
      const { authoritySessionHandle, schema: _s, status: _st, applicationId: _a, audience: _au, runtimeReceiptDigest: _r, authority: _auth, ...expectedPriorSession } = await openSession()
      return {
        body: {
          applicationId: APP, authoritySessionHandle, artifact: identity(), signedChallenge: ada.challenge({ audience: AUDIENCE, scopes: SESSION_SCOPES }),
          requestedRails: ['notes.sync'], requiredNamespaces: [], audience: AUDIENCE, expectedPriorSession,
        },
        principal: bearer(SESSION_SCOPES),
      }
    },
    invariant: sessionInvariant,
  },
  {
    name: 'authority session close',
    operation: 'closeAuthoritySession',
    prepare: async () => {
      const session = await openSession()
      return {
        body: { applicationId: APP, authoritySessionHandle: session.authoritySessionHandle, expectedPriorRevocationHead: await revocationHeadOf(runtime.deps, APP), expectedPriorSessionBindingDigest: session.sessionBindingDigest },
        principal: bearer(SESSION_SCOPES),
      }
    },
    invariant: sessionInvariant,
  },
  {
    name: 'sealed source publication',
    operation: 'publishSealedSource',
    prepare: async () => {
      const session = await openSession()
      const sourceArtifact = await ada.seal(`source-${++sources}.json`, 'application/json', new TextEncoder().encode(JSON.stringify({ namespaces: { profile: { n: sources } } })))
      return { body: { applicationId: APP, authoritySessionHandle: session.authoritySessionHandle, sourceArtifact }, principal: bearer(SESSION_SCOPES) }
    },
    invariant: async (store) => {
      const published = (await store.readStream(subjectStreamOf(ada.userId), { limit: 1000 })).items.length
      expect((await all(store, SUBJECT_SOURCES, 'bySubject')).filter((doc) => (doc.value as { subjectId: string }).subjectId === ada.userId).length).toBe(published)
    },
  },
  {
    name: 'public recipient resolution',
    operation: 'resolvePublicRecipient',
    prepare: async () => ({
      body: { applicationId: APP, authoritySessionHandle: adaHandle, expectedRequesterSubjectId: ada.userId, normalizedAlias: 'bob', purpose: 'payment', operationNonce: `fault-nonce-${String(++resolutions).padStart(8, '0')}` },
      principal: bearer(SESSION_SCOPES),
    }),
    invariant: async (store) => {
      const claimed = (await all(store, RUNTIME_CHALLENGES, 'byExpiresAt')).map((doc) => (doc.value as { locatorDigest?: string | null }).locatorDigest).filter((digest): digest is string => typeof digest === 'string')
      expect((await all(store, RECIPIENT_LOCATORS, 'byExpiresAt')).map((doc) => doc.key).sort()).toEqual(claimed.sort())
    },
  },
]
let sources = 0

const run = (scenario: Scenario, request: { body: unknown; principal: Principal }, deps: CoreDeps) =>
  (runtimeUseCases[scenario.operation] as unknown as UseCase)({ params: {}, query: {}, body: request.body, principal: request.principal }, deps)

describe('runtime use cases under a Store fault at every call', () => {
  for (const scenario of scenarios) {
    it(`${scenario.name}: all or nothing, and a retry completes or is refused for the first attempt`, async () => {
      const counter = withFaults(runtime.deps.store, [])
      const clean = await run(scenario, await scenario.prepare(), { ...runtime.deps, store: counter })
      expect(E.isRight(clean)).toBe(true)
      let faults = 0
      for (const method of METHODS) {
        for (let call = 1; call <= counter.callsOf(method); call++) {
          for (const when of ['before', 'after'] as const) {
            const request = await scenario.prepare()
            const faulty = withFaults(runtime.deps.store, [{ method, call, when }])
            const attempt = await run(scenario, request, { ...runtime.deps, store: faulty }).catch((error: unknown) => error)
            if (attempt instanceof Error) expect(attempt).toBeInstanceOf(InjectedFaultError)
            faults += 1
            await scenario.invariant(runtime.deps.store)
            const retry = await run(scenario, request, runtime.deps)
            if (E.isLeft(retry)) expect(retry.left._tag).toMatch(/Unauthenticated|Conflict|NotFound|Forbidden/)
            await scenario.invariant(runtime.deps.store)
          }
        }
      }
      expect(faults).toBeGreaterThan(4)
    })
  }
})
