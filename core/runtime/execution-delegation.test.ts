/**
 * Delegated capability chains through the execute pipeline: the owner (ada) delegates to bob, bob
 * perhaps to carol, and the last delegate issues grace's capability; grace commits. Each broken
 * link is a zero-write `capability-invalid` with the whole store unchanged, and its refusal names
 * the link (the wire carries only the reason code, so the sentence is read from core). One
 * delegated execute goes over HTTP through the real h3 host.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import {
  currentHeads, draftExecution, EXECUTION_SCOPES, openExecutionSession, SESSION_AUDIENCE, type DelegationDraft, type ExecutionDraft, type MemberDraft,
} from '../../hosts/http/execution-test-support.js'
import { APP, createRuntimeTestWorld, type IdentityHolder, type PortableArtifact, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import type { ComponentType } from '../contract/components.js'
import { sha256Hex } from '../digest/sha256.js'
import { kaiMomentAt } from '../time/kai.js'
import { MAXIMUM_CAPABILITY_CHAIN_LENGTH } from './capability-chain.js'
import { parsePlanBytes, type PlanBody } from './execution-plan.js'
import { verifyTransitionSet } from './verify-transition-set.js'
import { verifyRuntimeEnvelope } from './verify-envelope.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')
const STAGE = '/api/sdk/v1/execution/stage'
const EXECUTE = '/api/sdk/v1/execution/execute'

let runtime: RuntimeTestWorld
let ada: IdentityHolder
let bob: IdentityHolder
let carol: IdentityHolder
let grace: IdentityHolder
let token: string
let session: ComponentType<'V124AuthoritySession'>
let artifacts: PortableArtifact[]
let keys = 0
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  ada = await runtime.identityHolder('ada')
  bob = await runtime.identityHolder('bob')
  carol = await runtime.identityHolder('carol')
  grace = await runtime.identityHolder('grace')
  token = await runtime.tokenFor(EXECUTION_SCOPES)
  session = await openExecutionSession(runtime.deps, APP, ada)
  artifacts = [await ada.seal('doc-0.json', 'application/json', new TextEncoder().encode('{"doc":0}')), await ada.seal('doc-1.json', 'application/json', new TextEncoder().encode('{"doc":1}'))]
})

/** grace acting on ada's doc-a at its current head, under `delegation` (ada's root first). */
async function draft(delegation: readonly DelegationDraft[], member: Partial<MemberDraft> = {}): Promise<ExecutionDraft> {
  const expectedHead = (await currentHeads(runtime.deps, APP, ['doc-a'])).get('doc-a')!.head
  const doc: MemberDraft = { participantId: 'doc-a', expectedHead, predecessor: artifacts[0]!, candidate: artifacts[1]!, owner: ada, actor: grace, delegation, ...member }
  return draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: `k${++keys}`, members: [doc] })
}

/** The sentence a refusal gives (the wire carries only its reason code). */
async function refusalOf(execution: ExecutionDraft) {
  const verdict = await verifyTransitionSet(runtime.deps, { plan: execution.plan, planBody: parsePlanBytes(execution.plan) as PlanBody, transitionSet: execution.transitionSet, audience: SESSION_AUDIENCE })
  return E.isLeft(verdict) ? verdict.left : undefined
}

async function stageAndExecute(execution: ExecutionDraft) {
  const staged = await runtime.call('stageExecution', { body: { applicationId: APP, plan: execution.plan }, token })
  if (E.isLeft(staged) || staged.right.kind !== 'json') throw new Error('stage refused')
  const handle = (staged.right.body as { wire: unknown }).wire
  const before = await runtime.snapshot()
  const executed = await runtime.call('executeExecution', { body: { applicationId: APP, handle, authoritySession: session, transitionSet: execution.transitionSet }, token })
  if (E.isLeft(executed) || executed.right.kind !== 'json') throw new Error('execute refused')
  return { wire: (executed.right.body as { wire: Record<string, unknown> }).wire, unchanged: (await runtime.snapshot()) === before }
}

describe('delegated capability chains in execute', () => {
  it('commits under a 2-link chain (ada → bob, bob → grace) and a 3-link chain (ada → bob → carol → grace)', async () => {
    const two = await draft([{ grantee: bob }])
    expect(two.transitionSet.members[0]!.parentCapabilities).toHaveLength(1)
    expect(two.transitionSet.members[0]!.operationPlan.actorConstraint).toBe('delegate')
    expect((await stageAndExecute(two)).wire).toMatchObject({ status: 'committed', committedHeads: two.transitionSet.proposedParticipantHeads })

    const three = await draft([{ grantee: bob }, { grantee: carol }], { predecessor: artifacts[1]!, candidate: artifacts[0]! })
    expect(three.transitionSet.members[0]!.parentCapabilities).toHaveLength(2)
    expect((await stageAndExecute(three)).wire).toMatchObject({ status: 'committed', committedHeads: three.transitionSet.proposedParticipantHeads })
    expect((await currentHeads(runtime.deps, APP, ['doc-a'])).get('doc-a')).toEqual({ head: three.transitionSet.proposedParticipantHeads['doc-a'], artifactSha256: artifacts[0]!.artifactSha256 })
  })

  it('refuses each broken link as capability-invalid naming the link, and writes nothing', async () => {
    const now = runtime.world.clock.now()
    const otherPlan = { planDigest: { algorithm: 'sha-256' as const, binds: 'artifact-append-plan' as const, value: sha256Hex('another plan') }, commitDomain: { scheme: 'artifact', value: 'doc-a' } }
    const tooLong = Array.from({ length: MAXIMUM_CAPABILITY_CHAIN_LENGTH }, (_, i) => ({ grantee: i % 2 === 0 ? bob : carol }))
    const cases: [string, () => Promise<ExecutionDraft>, RegExp][] = [
      ['wrong parentDigest', async () => (await draft([{ grantee: bob }, { grantee: carol }], { capability: { parentDigest: { algorithm: 'sha-256', binds: 'verified-capability', value: sha256Hex('p') } } })), /link 2 of 3 .*parentDigest/],
      ['depth skip', async () => (await draft([{ grantee: bob }, { grantee: carol }], { capability: { delegationDepth: 3, maximumDelegationDepth: 3 } })), /link 2 of 3 .*delegationDepth is 3/],
      ['raised maximum', async () => (await draft([{ grantee: bob }, { grantee: carol, capability: { maximumDelegationDepth: 5 } }])), /link 1 of 3 .*raises/],
      ['widened operations', async () => (await draft([{ grantee: bob }, { grantee: carol, capability: { operations: ['artifact.append', 'artifact.delete'] } }])), /link 1 of 3 .*operation its parent does not/],
      ['widened effects', async () => (await draft([{ grantee: bob }, { grantee: carol }], { capability: { maximumEffects: 2 } })), /link 2 of 3 .*more effects/],
      ['widened scopes', async () => (await draft([{ grantee: bob, capability: { resourceScopes: [] } }, { grantee: carol }])), /link 1 of 3 .*resource scope/],
      ['window outside the parent', async () => (await draft([{ grantee: bob }, { grantee: carol, capability: { expiresAtKai: kaiMomentAt(now + 2 * 60 * 60_000).uPulse } }])), /link 1 of 3 .*outside its parent's window/],
      ['expired link', async () => (await draft([{ grantee: bob }, { grantee: carol, capability: { expiresAtKai: kaiMomentAt(now - 1000).uPulse } }])), /link 1 of 3 .*not valid at this Kai moment/],
      ['wrong signer for a link', async () => (await draft([{ grantee: bob }, { grantee: carol, signer: grace }])), /link 1 of 3 .*not signed by an ID key bound to its parent's actor \(usr_bob\)/],
      ['root not issued by the owner', async () => (await draft([{ grantee: bob, signer: carol }])), /link 0 of 2 \(the root\): not signed by an ID key bound to the artifacts' owner/],
      ['parent chain too long', async () => (await draft(tooLong)), /holds 9 links; at most 8/],
      ['ancestor constraints for another plan', async () => (await draft([{ grantee: bob, capability: { operationConstraints: otherPlan } }, { grantee: carol, capability: { operationConstraints: otherPlan } }])), /link 2 of 3 .*operation constraints/],
      ['delegated without its parent chain', async () => {
        const execution = structuredClone(await draft([{ grantee: bob }]))
        delete execution.transitionSet.members[0]!.parentCapabilities
        return execution
      }, /link 0 of 1 .*delegationDepth is 1/],
      ['tampered parent signature', async () => {
        const execution = structuredClone(await draft([{ grantee: bob }, { grantee: carol }]))
        const parents = execution.transitionSet.members[0]!.parentCapabilities!
        parents[0]!.signatureB64u = parents[1]!.signatureB64u
        return execution
      }, /link 0 of 3 \(the root\): not signed/],
      ['a parent altered after signing', async () => {
        const execution = structuredClone(await draft([{ grantee: bob }, { grantee: carol }]))
        execution.transitionSet.members[0]!.parentCapabilities![1]!.payload.capabilityId = 'cap-swapped'
        return execution
      }, /link 2 of 3 .*parentDigest/],
    ]
    for (const [what, broken, message] of cases) {
      const execution = await broken()
      expect(await refusalOf(execution), what).toEqual({ reason: 'capability-invalid', message: expect.stringMatching(message) })
      const answer = await stageAndExecute(execution)
      expect(answer.wire, what).toMatchObject({ schema: 'cairn.v124.execution_zero_write_failure', reasonCode: 'capability-invalid', writes: 0 })
      expect(answer.unchanged, `${what}: nothing written`).toBe(true)
    }
  })

  it('refuses an ancestor naming another registry as registry-mismatch, writing nothing', async () => {
    const execution = await draft([{ grantee: bob, capability: { registryDigest: { algorithm: 'sha-256', binds: 'registry', value: sha256Hex('other') } } }])
    const answer = await stageAndExecute(execution)
    expect(answer.wire).toMatchObject({ reasonCode: 'registry-mismatch', writes: 0 })
    expect(answer.unchanged).toBe(true)
  })

  it('commits a delegated execute over HTTP through the h3 host, with an envelope the client verifier accepts', async () => {
    const execution = await draft([{ grantee: bob }, { grantee: carol }])
    const staged = await runtime.http('POST', STAGE, { body: { applicationId: APP, plan: execution.plan }, token })
    expect(staged.status).toBe(200)
    const handle = ((await staged.json()) as { wire: unknown }).wire
    const body = { applicationId: APP, handle, authoritySession: session, transitionSet: execution.transitionSet }
    const response = await runtime.http('POST', EXECUTE, { body, token })
    expect(response.status).toBe(200)
    const envelope = (await response.json()) as { wire: Record<string, unknown> }
    expect(envelope.wire).toMatchObject({ status: 'committed', committedHeads: execution.transitionSet.proposedParticipantHeads })
    expect(await verifyRuntimeEnvelope(envelope, { method: 'POST', path: EXECUTE, body, applicationId: APP, audience: SESSION_AUDIENCE, domain: 'cairn.test' }, { jwks: await runtime.jwks(), now: T0 })).toMatchObject({ ok: true })
  })
})
