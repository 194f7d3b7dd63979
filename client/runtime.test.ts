/**
 * The runtime part of `cairn/client` against a real Cairn over HTTP: authority sessions opened,
 * refreshed and closed with challenges signed by non-extractable WebCrypto ID keys; plans and
 * delegated capability chains built from plain inputs and executed; a lost answer (the request
 * reached the server, its answer never came back) recovered by the plan's idempotency
 * coordinates with exactly one execution; refusals answered as values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCairn, type Cairn } from '../hosts/library/create-cairn.js'
import { PINNED_TIME, pinnedOptions } from '../hosts/http/test-support.js'
import { startHttpServer, type RunningServer } from '../hosts/http/start-http-server.js'
import { APP, runtimeDeployment } from '../hosts/http/runtime-test-support.js'
import {
  closeAuthoritySession, createCairnClient, executePlan, genesisParticipantHead, loadOrCreateIdKey, openAuthoritySession, portableArtifactOf, refreshAuthoritySession,
  resolveExecution, sealFile, signExecutionPlan, signIn, stagePlan, unwrap,
  type AuthoritySession, type CairnClient, type SigningPlanKey,
} from './index.js'

const AUDIENCE = 'https://notes.example'
const SCOPES = ['cairn:runtime.session', 'cairn:runtime.execute', 'cairn:runtime.read']
const EXECUTE_PATH = '/api/sdk/v1/execution/execute'

/** A person as the client holds them: a signed-in client, a runtime client with the application's token, their plan key and sealed files. */
interface Person {
  readonly runtime: CairnClient
  readonly key: SigningPlanKey
  seal(name: string, value: unknown): Promise<ReturnType<typeof portableArtifactOf>>
  openSession(): Promise<AuthoritySession>
}

let cairn: Cairn
let server: RunningServer
let ada: Person
let bob: Person
/** Execute and stage requests that reached the server, and how many of the next ones to drop (the request, or its answer). */
const wire = { executes: 0, dropExecuteAnswers: 0, dropExecuteRequests: 0, dropStageAnswers: 0, stages: 0 }

/** A fetch that performs the request and then loses the answer, as a dropped connection does. */
async function faultyFetch(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname
  if (path === EXECUTE_PATH && wire.dropExecuteRequests > 0) {
    wire.dropExecuteRequests--
    throw new TypeError('fetch failed: connection reset before the request was sent')
  }
  const answer = await fetch(request)
  if (path === EXECUTE_PATH) wire.executes++
  if (path === '/api/sdk/v1/execution/stage') wire.stages++
  if (path === EXECUTE_PATH && wire.dropExecuteAnswers > 0) {
    wire.dropExecuteAnswers--
    throw new TypeError('fetch failed: connection reset after the request was sent')
  }
  if (path === '/api/sdk/v1/execution/stage' && wire.dropStageAnswers > 0) {
    wire.dropStageAnswers--
    throw new TypeError('fetch failed: connection reset after the request was sent')
  }
  return answer
}

async function person(username: string): Promise<Person> {
  const web = createCairnClient({ baseUrl: server.url, now: () => PINNED_TIME })
  const idKey = await loadOrCreateIdKey()
  const userId = unwrap(await signIn(web, idKey, { username, displayName: username, localUid: `${username}-laptop` })).session.uid
  const seal = async (name: string, value: unknown) =>
    portableArtifactOf(unwrap(await sealFile(web, { bytes: new TextEncoder().encode(JSON.stringify(value)), filename: name, mimeType: 'application/json' }, { owned: true })))
  const identityArtifact = await seal(`${username}-identity.json`, { schema: 'cairn.identity_card.v1', username })
  const token = unwrap(await web.call('createAgentToken', { body: { clientId: APP, scopes: SCOPES, label: 'runtime client test' } }))
  const runtime = createCairnClient({ baseUrl: server.url, now: () => PINNED_TIME, fetch: faultyFetch, retry: { baseDelayMs: 1 } })
  runtime.credentials.accessToken = token.accessToken
  const key: SigningPlanKey = { keyId: idKey.keyId, alg: idKey.alg, sign: idKey.sign, userId, identityArtifact }
  return {
    runtime, key, seal,
    openSession: async () => unwrap(await openAuthoritySession(runtime, idKey, { applicationId: APP, audience: AUDIENCE, actorSubjectId: userId, identityArtifact }, {
      scopes: SCOPES, statement: `Allow Notes to write for ${username}`,
    })),
  }
}

/** Ada's one-participant plan: `participantId` moves from genesis to a new note. */
async function plan(owner: Person, participantId: string, key: string) {
  const predecessor = owner.key.identityArtifact
  const candidate = await owner.seal(`${participantId}.json`, { note: key })
  return signExecutionPlan({
    applicationId: APP, domainId: 'notes', operationKind: 'append', semanticIdempotencyKey: key, audience: AUDIENCE,
    participants: [{ participantId, expectedHead: genesisParticipantHead(APP, participantId), predecessor, candidate, owner: owner.key }],
  }, PINNED_TIME)
}

/** Ada opens a session and runs a fresh plan for `participantId` through `executePlan` with `faults` armed (the wire counters reset). */
async function runWithFaults(participantId: string, faults: Partial<Pick<typeof wire, 'dropExecuteAnswers' | 'dropExecuteRequests' | 'dropStageAnswers'>> = {}) {
  const session = await ada.openSession()
  const built = await plan(ada, participantId, `k-${participantId}`)
  Object.assign(wire, { executes: 0, stages: 0, ...faults })
  return { run: unwrap(await executePlan(ada.runtime, { ...built, session })), ...built }
}

beforeAll(async () => {
  let handler: Cairn['nodeHandler'] | undefined
  server = await startHttpServer((req, res) => handler!(req, res), { host: '127.0.0.1', port: 0 })
  // Agent tokens of this test act as the runtime application only because its client opts in.
  const deployment = runtimeDeployment({ agentTokensActAsApplication: true })
  cairn = createCairn(pinnedOptions({ baseUrl: server.url, deployment }))
  handler = cairn.nodeHandler
  ada = await person('ada')
  bob = await person('bob')
})
afterAll(async () => {
  await server?.close()
  await cairn?.close()
})

describe('authority sessions from cairn/client', () => {
  it('opens a session with a challenge its ID key signs, refreshes it with the same bindings, and closes it', async () => {
    const session = await ada.openSession()
    expect(session).toMatchObject({ status: 'active', applicationId: APP, audience: AUDIENCE, actorSubjectId: ada.key.userId, identityKeyId: ada.key.keyId, grantedScopes: SCOPES })
    const refreshed = unwrap(await refreshAuthoritySession(ada.runtime, ada.key, session, { identityArtifact: ada.key.identityArtifact, statement: 'Keep Notes writing for ada' }))
    expect(refreshed.authoritySessionHandle).not.toBe(session.authoritySessionHandle)
    expect(refreshed).toMatchObject({ status: 'active', audience: AUDIENCE, grantedScopes: SCOPES, identityArtifactSha256: session.identityArtifactSha256 })
    // The refreshed-away session cannot be refreshed or closed again.
    expect(await refreshAuthoritySession(ada.runtime, ada.key, session, { identityArtifact: ada.key.identityArtifact, statement: 'again' })).toMatchObject({ ok: false })
    const closed = unwrap(await closeAuthoritySession(ada.runtime, refreshed))
    expect(closed).toMatchObject({ status: 'closed', authoritySessionHandle: refreshed.authoritySessionHandle, sessionBindingDigest: refreshed.sessionBindingDigest })
    expect(closed.revocationHead).not.toBe(refreshed.revocationHead)
    expect(await closeAuthoritySession(ada.runtime, refreshed)).toMatchObject({ ok: false, error: { _tag: 'Conflict', status: 409 } })
  })

  it('closes a session after another close moved the revocation head, reading the current head', async () => {
    const [first, second] = [await ada.openSession(), await ada.openSession()]
    unwrap(await closeAuthoritySession(ada.runtime, first))
    // `second` was bound to the head before that close; the client reads the new one and closes.
    const closed = unwrap(await closeAuthoritySession(ada.runtime, second))
    expect(closed.authoritySessionHandle).toBe(second.authoritySessionHandle)
  })

  it('refuses, as a value, a challenge signed by a key not bound to the person', async () => {
    const stranger = await loadOrCreateIdKey()
    const refused = await openAuthoritySession(ada.runtime, stranger, { applicationId: APP, audience: AUDIENCE, actorSubjectId: ada.key.userId, identityArtifact: ada.key.identityArtifact }, { scopes: SCOPES, statement: 'x' })
    expect(refused).toEqual({ ok: false, error: expect.objectContaining({ _tag: 'Unauthenticated', status: 401, message: expect.stringContaining('not signed by an ID key bound') }) })
  })
})

describe('execution plans from cairn/client', () => {
  it('stages and executes a signed plan: one compare-and-swap to the proposed head', async () => {
    const { run, plan: built, transitionSet } = await runWithFaults('doc-plain')
    expect(run.recovered).toBe(false)
    expect(run.outcome).toMatchObject({ status: 'committed', committedHeads: transitionSet.proposedParticipantHeads })
    expect(unwrap(await resolveExecution(ada.runtime, built))).toMatchObject({ status: 'committed', executionId: run.handle.executionId })
  })

  it('recovers a lost execute answer by the idempotency coordinates: exactly one execution, never a second execute', async () => {
    const { run, plan: built, transitionSet } = await runWithFaults('doc-lost', { dropExecuteAnswers: 1 })
    expect(run).toMatchObject({ recovered: true, outcome: { status: 'committed', committedHeads: transitionSet.proposedParticipantHeads } })
    // The execute reached the server once; the outcome came from the lookup, not from a second execute.
    expect(wire.executes).toBe(1)
    // One move: the committed head is the one proposed from genesis.
    expect(unwrap(await resolveExecution(ada.runtime, built))).toMatchObject({ status: 'committed', committedHeads: { 'doc-lost': transitionSet.proposedParticipantHeads['doc-lost'] } })
  })

  it('executes again when the lost execute never reached the server (the plan is still staged)', async () => {
    const { run } = await runWithFaults('doc-unsent', { dropExecuteRequests: 1 })
    expect(run).toMatchObject({ recovered: true, outcome: { status: 'committed' } })
    expect(wire.executes).toBe(1)
  })

  it('re-stages when the stage answer is lost: the same plan answers the same handle', async () => {
    const { run, plan: built } = await runWithFaults('doc-restage', { dropStageAnswers: 1 })
    expect(wire.stages).toBe(2)
    expect(run.outcome).toMatchObject({ status: 'committed', executionId: run.handle.executionId })
    expect(unwrap(await stagePlan(ada.runtime, built))).toEqual(run.handle)
  })

  it('answers an execute under a closed session as the zero-write authority-invalid value, not a retry', async () => {
    const session = await ada.openSession()
    unwrap(await closeAuthoritySession(ada.runtime, session))
    const built = await plan(ada, 'doc-closed', 'k-closed')
    wire.executes = 0
    const run = unwrap(await executePlan(ada.runtime, { ...built, session }))
    expect(run).toMatchObject({ recovered: false, outcome: { schema: 'cairn.v124.execution_zero_write_failure', reasonCode: 'authority-invalid', writes: 0 } })
    expect(wire.executes).toBe(1)
    expect(unwrap(await resolveExecution(ada.runtime, built.plan))).toMatchObject({ status: 'staged' })
  })

  it("answers executing someone else's staged plan as a zero-write handle-invalid value, and writes nothing", async () => {
    const { plan: built, transitionSet } = await plan(ada, 'doc-theft', 'k-theft')
    const handle = unwrap(await stagePlan(ada.runtime, built))
    const bobSession = await bob.openSession()
    const stolen = await bob.runtime.call('executeExecution', { body: { applicationId: APP, handle, authoritySession: bobSession, transitionSet }, expectAudience: [AUDIENCE, APP] })
    expect(stolen).toMatchObject({ ok: true, value: { wire: { schema: 'cairn.v124.execution_zero_write_failure', reasonCode: 'handle-invalid', writes: 0 } } })
    expect(unwrap(await resolveExecution(ada.runtime, built))).toMatchObject({ status: 'staged' })
    // Bob cannot even see Ada's coordinates.
    expect(await resolveExecution(bob.runtime, built)).toMatchObject({ ok: false, error: { _tag: 'NotFound', status: 404 } })
  })

  it('signs a delegated chain with WebCrypto keys: ada owns and delegates, bob acts and commits', async () => {
    const candidate = await ada.seal('doc-shared.json', { note: 'by bob' })
    const { plan: built, transitionSet } = await signExecutionPlan({
      applicationId: APP, domainId: 'notes', operationKind: 'append', semanticIdempotencyKey: 'k-shared', audience: AUDIENCE,
      participants: [{
        participantId: 'doc-shared', expectedHead: genesisParticipantHead(APP, 'doc-shared'), predecessor: ada.key.identityArtifact, candidate,
        owner: ada.key, actor: bob.key, delegation: [{ grantee: bob.key }],
      }],
    }, PINNED_TIME)
    const member = transitionSet.members[0]!
    expect(member.parentCapabilities).toHaveLength(1)
    expect([member.parentCapabilities![0]!.alg, member.signedCapability.alg, member.identityProof.alg]).toEqual(['ES256', 'ES256', 'ES256'])
    expect(member.signedCapability.payload).toMatchObject({ issuerKeyId: bob.key.keyId, actorId: bob.key.userId, delegationDepth: 1 })
    const handle = unwrap(await stagePlan(ada.runtime, built))
    const executed = await bob.runtime.call('executeExecution', { body: { applicationId: APP, handle, authoritySession: await bob.openSession(), transitionSet }, expectAudience: AUDIENCE })
    expect(executed).toMatchObject({ ok: true, value: { wire: { status: 'committed', committedHeads: transitionSet.proposedParticipantHeads } } })
  })
})
