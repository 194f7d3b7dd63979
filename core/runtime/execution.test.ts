/**
 * Staged execution through the full operation pipeline (bearer boundary, codecs, use cases):
 * stage is idempotent on exact bytes and refuses another plan under the same coordinates; execute
 * moves every participant head in one commit or records / answers a zero write with its reason;
 * cancel only while uncommitted; both lookups answer the state with its recovery step. Every
 * refusal writes nothing (the whole store read back), and every envelope decodes with its contract
 * codec and passes the client verifier.
 */
import * as E from 'fp-ts/lib/Either.js'
import { isRight } from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { currentHeads, draftExecution, EXECUTION_SCOPES, openExecutionSession, SESSION_AUDIENCE, type MemberDraft } from '../../hosts/http/execution-test-support.js'
import { APP, createRuntimeTestWorld, type IdentityHolder, type PortableArtifact, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { components } from '../contract/components.js'
import { toBase64Url } from '../encoding/base64url.js'
import { sha256Hex } from '../digest/sha256.js'
import { kaiMomentAt } from '../time/kai.js'
import { STAGING_WINDOW_MS } from './execution.js'
import { revocationHeadOf } from './revocation-head.js'
import { genesisParticipantHead } from './participant-heads.js'
import { verifyRuntimeEnvelope } from './verify-envelope.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')

let runtime: RuntimeTestWorld
let ada: IdentityHolder
let grace: IdentityHolder
let token: string
let artifacts: PortableArtifact[]
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  ada = await runtime.identityHolder('ada')
  grace = await runtime.identityHolder('grace')
  token = await runtime.tokenFor(EXECUTION_SCOPES)
  artifacts = []
  for (let i = 0; i < 3; i++) artifacts.push(await ada.seal(`doc-${i}.json`, 'application/json', new TextEncoder().encode(JSON.stringify({ doc: i }))))
})

const PATHS = {
  stageExecution: '/api/sdk/v1/execution/stage',
  executeExecution: '/api/sdk/v1/execution/execute',
  cancelExecution: '/api/sdk/v1/execution/cancel',
} as const
const CODECS = {
  stageExecution: components.V124SignedExecutionStageEnvelope,
  executeExecution: components.V124SignedExecutionResolutionEnvelope,
  cancelExecution: components.V124SignedExecutionCancelEnvelope,
  getExecution: components.V124SignedExecutionResolutionEnvelope,
  getExecutionByIdempotency: components.V124SignedExecutionResolutionEnvelope,
} as const

type Wire = Record<string, unknown> & { status?: string; reasonCode?: string; executionId: string; handleDigest?: string; committedHeads?: Record<string, string> }

/** Calls through the pipeline; checks the envelope's codec and signature; answers wire and headers. */
async function call(operation: keyof typeof CODECS, input: { body?: unknown; params?: Record<string, string> }, audience = APP) {
  const reply = await runtime.call(operation, { ...input, token })
  if (E.isLeft(reply) || reply.right.kind !== 'json') throw new Error(`${operation} refused: ${JSON.stringify(reply)}`)
  const envelope = reply.right.body as { wire: Wire }
  expect(isRight((CODECS[operation] as { decode(u: unknown): E.Either<unknown, unknown> }).decode(envelope)), `${operation} envelope decodes`).toBe(true)
  const path = operation in PATHS ? PATHS[operation as keyof typeof PATHS] : operation === 'getExecution'
    ? `/api/sdk/v1/execution/${input.params!.applicationId}/${input.params!.executionId}`
    : `/api/sdk/v1/execution/by-idempotency/${input.params!.applicationId}/${input.params!.domainId}/${input.params!.operationKind}/${input.params!.semanticIdempotencyKey}`
  const verdict = await verifyRuntimeEnvelope(envelope, { method: operation in PATHS ? 'POST' : 'GET', path, body: input.body ?? null, applicationId: APP, audience, domain: 'cairn.test' }, { jwks: await runtime.jwks(), now: runtime.world.clock.now() })
  expect(verdict, `${operation} envelope verifies`).toMatchObject({ ok: true })
  return { wire: envelope.wire, headers: reply.right.headers ?? {} }
}

const members = async (ids: readonly string[], overrides: Partial<MemberDraft> = {}): Promise<MemberDraft[]> => {
  const heads = await currentHeads(runtime.deps, APP, ids)
  return ids.map((participantId) => {
    const current = heads.get(participantId)!
    const predecessor = artifacts.find((a) => a.artifactSha256 === current.artifactSha256) ?? artifacts[0]!
    const candidate = artifacts.find((a) => a !== predecessor)!
    return { participantId, expectedHead: current.head, predecessor, candidate, owner: ada, ...overrides }
  })
}

const stage = (plan: unknown) => call('stageExecution', { body: { applicationId: APP, plan } })
const byId = (executionId: string) => call('getExecution', { params: { applicationId: APP, executionId } })
const byKey = (key: string) => call('getExecutionByIdempotency', { params: { applicationId: APP, domainId: 'notes', operationKind: 'append', semanticIdempotencyKey: key } })

async function refusedWithoutWrites(operation: 'stageExecution' | 'executeExecution' | 'cancelExecution', body: unknown, tag: string) {
  const before = await runtime.snapshot()
  expect(await runtime.call(operation, { body, token })).toEqual(E.left(expect.objectContaining({ _tag: tag })))
  expect(await runtime.snapshot()).toBe(before)
}

describe('POST /api/sdk/v1/execution/stage', () => {
  it('persists one canonical plan; a byte-identical retry answers the same handle and writes nothing', async () => {
    const { plan } = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: await members(['doc-a', 'doc-b']) })
    const first = await stage(plan)
    expect(first.wire).toMatchObject({ schema: 'cairn.v124.durable_execution_handle', applicationId: APP, exactPlanDigest: plan.exactPlanDigest, semanticIdempotencyKey: 'k1', attemptId: 'a1' })
    const before = await runtime.snapshot()
    runtime.world.clock.advance(1000)
    const again = await stage(JSON.parse(JSON.stringify(plan)))
    expect(again.wire).toEqual(first.wire)
    expect(await runtime.snapshot()).toBe(before)
    const staged = await byKey('k1')
    expect(staged.wire).toMatchObject({ status: 'staged', executionId: first.wire.executionId, plan })
    expect(staged.headers['cairn-execution-recovery']).toBe('execute-staged')
  })

  it('refuses a different plan under the same idempotency coordinates, for the same attempt or a new one while staged', async () => {
    const { plan } = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: await members(['doc-a']) })
    await stage(plan)
    const other = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: await members(['doc-b']) }).plan
    await refusedWithoutWrites('stageExecution', { applicationId: APP, plan: other }, 'Conflict')
    const otherAttempt = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k1', attemptId: 'a2', members: await members(['doc-b']) }).plan
    await refusedWithoutWrites('stageExecution', { applicationId: APP, plan: otherAttempt }, 'Conflict')
  })

  it('refuses plan bytes that are not canonical, not the digest, or name other participants (400, nothing written)', async () => {
    const { plan } = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: await members(['doc-a']) })
    const spaced = new TextEncoder().encode(' {"participants":{}}')
    await refusedWithoutWrites('stageExecution', { applicationId: APP, plan: { ...plan, exactPlanBytesB64u: toBase64Url(spaced), exactPlanDigest: sha256Hex(spaced) } }, 'InvalidInput')
    await refusedWithoutWrites('stageExecution', { applicationId: APP, plan: { ...plan, exactPlanDigest: sha256Hex('other') } }, 'InvalidInput')
    await refusedWithoutWrites('stageExecution', { applicationId: APP, plan: { ...plan, expectedParticipantHeads: { 'doc-z': plan.expectedParticipantHeads['doc-a'] } } }, 'InvalidInput')
    await refusedWithoutWrites('stageExecution', { applicationId: APP, plan: { ...plan, applicationId: 'org.example.other' } }, 'Forbidden')
  })
})

describe('POST /api/sdk/v1/execution/execute', () => {
  it('moves every participant head in one commit; a retry answers the same outcome; lookups answer committed', async () => {
    const ids = ['doc-a', 'doc-b', 'doc-c']
    const { plan, transitionSet } = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: await members(ids) })
    const handle = (await stage(plan)).wire
    const session = await openExecutionSession(runtime.deps, APP, ada)
    const body = { applicationId: APP, handle, authoritySession: session, transitionSet }
    const done = await call('executeExecution', { body }, SESSION_AUDIENCE)
    expect(done.wire).toMatchObject({ schema: 'cairn.v124.committed_execution_outcome', status: 'committed', committedHeads: transitionSet.proposedParticipantHeads })
    expect(done.headers['cairn-execution-recovery']).toBe('none')
    const heads = await currentHeads(runtime.deps, APP, ids)
    for (const id of ids) expect(heads.get(id)).toEqual({ head: transitionSet.proposedParticipantHeads[id], artifactSha256: transitionSet.members.find((m) => m.participantId === id)!.candidate.artifactSha256 })
    const before = await runtime.snapshot()
    expect((await call('executeExecution', { body }, SESSION_AUDIENCE)).wire).toEqual(done.wire)
    expect(await runtime.snapshot()).toBe(before)
    expect((await byId(handle.executionId)).wire).toEqual(done.wire)
    expect((await byKey('k1')).wire).toEqual(done.wire)
    const cancel = await call('cancelExecution', { body: { applicationId: APP, handle, authoritySession: session } }, SESSION_AUDIENCE)
    expect(cancel.wire).toMatchObject({ schema: 'cairn.v124.execution_zero_write_failure', reasonCode: 'already-terminal', writes: 0 })
    expect(await runtime.snapshot()).toBe(before)
  })

  it('records a stale head as the terminal zero-write head-mismatch; restaging with a new attempt is allowed then', async () => {
    const session = await openExecutionSession(runtime.deps, APP, ada)
    const first = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: await members(['doc-a', 'doc-b']) })
    const second = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k2', members: await members(['doc-b', 'doc-c']) })
    const h1 = (await stage(first.plan)).wire
    const h2 = (await stage(second.plan)).wire
    await call('executeExecution', { body: { applicationId: APP, handle: h1, authoritySession: session, transitionSet: first.transitionSet } }, SESSION_AUDIENCE)
    const headsBefore = await currentHeads(runtime.deps, APP, ['doc-b', 'doc-c'])
    const stale = await call('executeExecution', { body: { applicationId: APP, handle: h2, authoritySession: session, transitionSet: second.transitionSet } }, SESSION_AUDIENCE)
    expect(stale.wire).toMatchObject({ schema: 'cairn.v124.noncommitted_execution_outcome', status: 'zero-write', reasonCode: 'head-mismatch', writes: 0 })
    expect(await currentHeads(runtime.deps, APP, ['doc-b', 'doc-c'])).toEqual(headsBefore)
    expect((await byKey('k2')).headers['cairn-execution-recovery']).toBe('restage')
    const retry = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k2', attemptId: 'a2', members: await members(['doc-b', 'doc-c']) })
    const h3 = (await stage(retry.plan)).wire
    expect(h3.executionId).not.toBe(h2.executionId)
    expect((await byKey('k2')).wire).toMatchObject({ status: 'staged', attemptId: 'a2' })
    expect((await call('executeExecution', { body: { applicationId: APP, handle: h3, authoritySession: session, transitionSet: retry.transitionSet } }, SESSION_AUDIENCE)).wire).toMatchObject({ status: 'committed' })
    expect((await byId(h2.executionId)).wire).toMatchObject({ status: 'zero-write', reasonCode: 'head-mismatch' })
  })

  it('answers each refusal as a zero-write failure with its reason and writes nothing', async () => {
    const session = await openExecutionSession(runtime.deps, APP, ada)
    const base = await members(['doc-a', 'doc-b'])
    const good = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: base })
    const handle = (await stage(good.plan)).wire
    const otherPlan = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: base.map((m) => ({ ...m, event: { other: true } })) })
    const tamperedCandidate = structuredClone(good.transitionSet)
    tamperedCandidate.members[0]!.candidate.payloadSha256 = sha256Hex('x')
    const wrongSigner = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: base.map((m) => ({ ...m, owner: grace })) })
    const badSignature = structuredClone(good.transitionSet)
    badSignature.members[1]!.signedCapability.payload.maximumEffects = 2
    const badProof = structuredClone(good.transitionSet)
    badProof.members[0]!.identityProof.signatureB64Url = badProof.members[1]!.identityProof.signatureB64Url
    const cases: [unknown, string][] = [
      [otherPlan.transitionSet, 'plan-mismatch'],
      [{ ...good.transitionSet, proposedParticipantHeads: { ...good.transitionSet.proposedParticipantHeads, 'doc-a': sha256Hex('h') } }, 'plan-mismatch'],
      [{ ...good.transitionSet, members: good.transitionSet.members.slice(1) }, 'plan-mismatch'],
      [tamperedCandidate, 'proof-invalid'],
      [badProof, 'proof-invalid'],
      [{ ...wrongSigner.transitionSet, exactPlanDigest: good.plan.exactPlanDigest }, 'plan-mismatch'],
      [badSignature, 'capability-invalid'],
    ]
    for (const [transitionSet, reason] of cases) {
      const before = await runtime.snapshot()
      const answer = await call('executeExecution', { body: { applicationId: APP, handle, authoritySession: session, transitionSet } }, SESSION_AUDIENCE)
      expect(answer.wire, reason).toMatchObject({ schema: 'cairn.v124.execution_zero_write_failure', reasonCode: reason, writes: 0 })
      expect(await runtime.snapshot()).toBe(before)
    }
    expect((await byId(handle.executionId)).wire).toMatchObject({ status: 'staged' })
  })

  it('verifies capabilities: issuer bound to the owner, Kai window, delegation depth, constraints bound to the append plan', async () => {
    const session = await openExecutionSession(runtime.deps, APP, ada)
    const now = runtime.world.clock.now()
    const variants: [Partial<MemberDraft>, string, string][] = [
      [{ owner: ada, capability: { expiresAtKai: kaiMomentAt(now - 1000).uPulse } }, 'capability-invalid', 'expired'],
      [{ capability: { validFromKai: kaiMomentAt(now + 60_000).uPulse } }, 'capability-invalid', 'not yet valid'],
      [{ capability: { delegationDepth: 2, maximumDelegationDepth: 1, parentDigest: { algorithm: 'sha-256', binds: 'verified-capability', value: sha256Hex('p') } } }, 'capability-invalid', 'depth over maximum'],
      [{ capability: { delegationDepth: 1, maximumDelegationDepth: 3, parentDigest: { algorithm: 'sha-256', binds: 'verified-capability', value: sha256Hex('p') } } }, 'capability-invalid', 'delegated without its parent chain'],
      [{ capability: { operationConstraints: null } }, 'capability-invalid', 'unconstrained'],
      [{ capability: { operationConstraints: { planDigest: { algorithm: 'sha-256', binds: 'artifact-append-plan', value: sha256Hex('other plan') }, commitDomain: { scheme: 'artifact', value: 'doc-a' } } } }, 'capability-invalid', 'bound to another plan'],
      [{ capability: { operations: ['artifact.delete'] } }, 'capability-invalid', 'other operation'],
      [{ capability: { audience: 'https://elsewhere.example' } }, 'capability-invalid', 'other audience'],
      [{ capability: { registryDigest: { algorithm: 'sha-256', binds: 'registry', value: sha256Hex('other registry') } } }, 'registry-mismatch', 'other registry'],
      [{ actor: grace }, 'committed', 'a delegate (grace) acting under the owner\'s capability for her'],
    ]
    let n = 0
    for (const [override, reason, what] of variants) {
      const draft = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: `cap-${++n}`, members: await members(['doc-a'], override) })
      const handle = (await stage(draft.plan)).wire
      const before = await runtime.snapshot()
      const answer = await call('executeExecution', { body: { applicationId: APP, handle, authoritySession: session, transitionSet: draft.transitionSet } }, SESSION_AUDIENCE)
      if (reason === 'committed') {
        expect(answer.wire, what).toMatchObject({ status: 'committed' })
        continue
      }
      expect(answer.wire, what).toMatchObject({ reasonCode: reason, writes: 0 })
      expect(await runtime.snapshot()).toBe(before)
    }
  })

  it('requires a live authority session of this application consented for executing, and the exact handle', async () => {
    const { plan, transitionSet } = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: await members(['doc-a']) })
    const handle = (await stage(plan)).wire
    const readOnly = await openExecutionSession(runtime.deps, APP, ada, ['cairn:runtime.session', 'cairn:runtime.read'])
    const session = await openExecutionSession(runtime.deps, APP, ada)
    const closed = await openExecutionSession(runtime.deps, APP, ada)
    expect(isRight(await runtime.call('closeAuthoritySession', {
      body: { applicationId: APP, authoritySessionHandle: closed.authoritySessionHandle, expectedPriorRevocationHead: await revocationHeadOf(runtime.deps, APP), expectedPriorSessionBindingDigest: closed.sessionBindingDigest }, token,
    }))).toBe(true)
    const cases: [Record<string, unknown>, string][] = [
      [{ authoritySession: readOnly }, 'authority-invalid'],
      [{ authoritySession: closed }, 'authority-invalid'],
      [{ authoritySession: { ...session, sessionBindingDigest: sha256Hex('other') } }, 'authority-invalid'],
      [{ handle: { ...handle, handleDigest: sha256Hex('other') } }, 'handle-invalid'],
      [{ handle: { ...handle, executionId: 'exe_unknown' } }, 'handle-invalid'],
    ]
    for (const [change, reason] of cases) {
      const before = await runtime.snapshot()
      const answer = await call('executeExecution', { body: { applicationId: APP, handle, authoritySession: session, transitionSet, ...change } })
      expect(answer.wire).toMatchObject({ reasonCode: reason, writes: 0 })
      expect(await runtime.snapshot()).toBe(before)
    }
    await refusedWithoutWrites('executeExecution', { applicationId: 'org.example.other', handle, authoritySession: session, transitionSet }, 'Forbidden')
    expect((await byId(handle.executionId)).wire).toMatchObject({ status: 'staged' })
  })

  it('a plan past its staging window is the terminal zero-write plan-expired, derived by lookups and recorded by execute', async () => {
    const { plan, transitionSet } = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: await members(['doc-a']) })
    const handle = (await stage(plan)).wire
    runtime.world.clock.advance(STAGING_WINDOW_MS)
    token = await runtime.tokenFor(EXECUTION_SCOPES) // a day later the application holds a fresh token; the plan is what expired
    const session = await openExecutionSession(runtime.deps, APP, ada)
    const derived = (await byId(handle.executionId)).wire
    expect(derived).toMatchObject({ status: 'zero-write', reasonCode: 'plan-expired' })
    const executed = await call('executeExecution', { body: { applicationId: APP, handle, authoritySession: session, transitionSet } }, SESSION_AUDIENCE)
    expect(executed.wire).toEqual(derived)
    expect((await currentHeads(runtime.deps, APP, ['doc-a'])).get('doc-a')!.head).toBe(genesisParticipantHead(APP, 'doc-a'))
  })
})

describe('POST /api/sdk/v1/execution/cancel', () => {
  it('cancels a staged plan without touching a participant head; a cancelled plan cannot execute; cancel again answers the same', async () => {
    const { plan, transitionSet } = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: await members(['doc-a']) })
    const handle = (await stage(plan)).wire
    const session = await openExecutionSession(runtime.deps, APP, ada)
    const cancelled = await call('cancelExecution', { body: { applicationId: APP, handle, authoritySession: session } }, SESSION_AUDIENCE)
    expect(cancelled.wire).toMatchObject({ schema: 'cairn.v124.noncommitted_execution_outcome', status: 'cancelled', reasonCode: 'cancelled', writes: 0 })
    expect((await currentHeads(runtime.deps, APP, ['doc-a'])).get('doc-a')!.head).toBe(genesisParticipantHead(APP, 'doc-a'))
    const before = await runtime.snapshot()
    expect((await call('cancelExecution', { body: { applicationId: APP, handle, authoritySession: session } }, SESSION_AUDIENCE)).wire).toEqual(cancelled.wire)
    expect((await call('executeExecution', { body: { applicationId: APP, handle, authoritySession: session, transitionSet } }, SESSION_AUDIENCE)).wire).toEqual(cancelled.wire)
    expect(await runtime.snapshot()).toBe(before)
    const lookup = await byKey('k1')
    expect(lookup.wire).toEqual(cancelled.wire)
    expect(lookup.headers['cairn-execution-recovery']).toBe('restage')
  })
})

describe('GET /api/sdk/v1/execution lookups', () => {
  it('answer 404 for an unknown execution or coordinates, and for another application\'s id', async () => {
    expect(await runtime.call('getExecution', { params: { applicationId: APP, executionId: 'exe_none' }, token })).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
    expect(await runtime.call('getExecutionByIdempotency', { params: { applicationId: APP, domainId: 'notes', operationKind: 'append', semanticIdempotencyKey: 'none' }, token }))
      .toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
    const { plan } = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: await members(['doc-a']) })
    const handle = (await stage(plan)).wire
    const other = await runtime.tokenFor(EXECUTION_SCOPES, 'org.example.other')
    expect(await runtime.call('getExecution', { params: { applicationId: APP, executionId: handle.executionId }, token: other })).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
    expect(await runtime.call('getExecutionByIdempotency', { params: { applicationId: APP, domainId: 'notes', operationKind: 'append', semanticIdempotencyKey: 'k1' }, token: other }))
      .toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
  })
})
