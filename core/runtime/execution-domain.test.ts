/**
 * A committed plan appends its events to its domain in the same commit that moves its heads, and
 * nothing else does: verified replay answers exactly the committed plans' events (exact RFC 8785
 * bytes whose digest is the transition's `eventDigest`), in commit order; zero-write, cancelled and
 * refused plans append nothing; the first commit creates the domain with its first member's
 * candidate as source artifact, owned by that candidate's owner.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { draftExecution, EXECUTION_SCOPES, membersAtCurrentHeads, openExecutionSession, type MemberDraft } from '../../hosts/http/execution-test-support.js'
import { bodyOf } from '../../hosts/http/oidc-test-support.js'
import { APP, createRuntimeTestWorld, type IdentityHolder, type PortableArtifact, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import { sha256Hex } from '../digest/sha256.js'
import { fromBase64Url, toBase64Url } from '../encoding/base64url.js'
import { DOMAIN_REDUCER_DIGEST, DOMAIN_REGISTRY, DOMAIN_REGISTRY_DIGEST } from './domains/index.js'
import { domainKeyOf, RUNTIME_DOMAINS, type DomainRecord } from './domains/domain-records.js'
import { executionAdditions, privatePayloadCommitmentOf } from './execution-domain.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')
type Wire = Record<string, unknown> & { status?: string; reasonCode?: string; executionId: string }
type Replay = { status: string; head: string | null; additions: { appendId: string; eventDigest: string; exactEventBytesB64u: string }[] }

let runtime: RuntimeTestWorld
let ada: IdentityHolder
let token: string
let artifacts: PortableArtifact[]
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  ada = await runtime.identityHolder('ada')
  token = await runtime.tokenFor(EXECUTION_SCOPES)
  artifacts = []
  for (let i = 0; i < 2; i++) artifacts.push(await ada.seal(`doc-${i}.json`, 'application/json', new TextEncoder().encode(JSON.stringify({ doc: i }))))
})

const wireOf = <W>(reply: Awaited<ReturnType<RuntimeTestWorld['call']>>): W => (bodyOf(reply) as { wire: W }).wire

const members = async (ids: readonly string[], overrides: Partial<MemberDraft> = {}): Promise<MemberDraft[]> =>
  (await membersAtCurrentHeads({ deps: runtime.deps, owner: ada, pool: artifacts }, ids)).map((member) => ({ ...member, ...overrides }))

/** Stages and executes a plan over `ids` (each member's event names its key); answers the execute wire and the draft. */
async function run(key: string, ids: readonly string[], overrides: Partial<MemberDraft> = {}) {
  const draft = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: key, members: await members(ids, overrides) })
  const handle = wireOf<Wire>(await runtime.call('stageExecution', { body: { applicationId: APP, plan: draft.plan }, token }))
  const session = await openExecutionSession(runtime.deps, APP, ada)
  const executed = await runtime.call('executeExecution', { body: { applicationId: APP, handle, authoritySession: session, transitionSet: draft.transitionSet }, token })
  return { draft, handle, session, wire: wireOf<Wire>(executed) }
}

async function replay(): Promise<Replay | undefined> {
  const reply = await runtime.call('replayDomain', {
    body: { applicationId: APP, domainId: 'notes', afterHead: null, expectedRegistryDigest: DOMAIN_REGISTRY_DIGEST, expectedReducerDigest: DOMAIN_REDUCER_DIGEST }, token,
  })
  return E.isLeft(reply) ? undefined : wireOf<Replay>(reply)
}

describe('execute appends the plan\'s events to its domain', () => {
  it('in the commit that moves the heads: exact event bytes, the transition\'s event digests, commit order; the first commit creates the domain', async () => {
    expect(await replay()).toBeUndefined()
    const first = await run('k1', ['doc-b', 'doc-a'])
    expect(first.wire.status).toBe('committed')
    const second = await run('k2', ['doc-a'])
    expect(second.wire.status).toBe('committed')

    const domain = (await replay())!
    expect(domain.status).toBe('complete')
    const record = await runtime.deps.store.get(RUNTIME_DOMAINS, domainKeyOf({ applicationId: APP, domainId: 'notes' }))
    expect((record!.value as unknown as DomainRecord).sourceArtifact.artifactSha256).toBe(first.draft.transitionSet.members.find((m) => m.participantId === 'doc-a')!.candidate.artifactSha256)
    // The domain belongs to its source artifact's owner.
    expect((record!.value as unknown as DomainRecord).ownerSubjectId).toBe(ada.userId)
    expect(domain.additions.map((a) => a.appendId)).toEqual([`${first.wire.executionId}.0`, `${first.wire.executionId}.1`, `${second.wire.executionId}.0`])
    const planned = [...first.draft.transitionSet.members].sort((a, b) => a.participantId.localeCompare(b.participantId)).concat(second.draft.transitionSet.members)
    domain.additions.forEach((addition, i) => {
      const member = planned[i]!
      expect(fromBase64Url(addition.exactEventBytesB64u)).toEqual(canonicalJsonBytes(member.planning.event))
      expect(addition.eventDigest).toBe(member.operationPlan.transition.eventDigest.value)
    })
  })

  it('appends nothing for a zero-write, a cancelled plan or a refused execute', async () => {
    await run('k1', ['doc-a'])
    const before = await replay()
    const stale = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k2', members: await members(['doc-a']) })
    await run('k3', ['doc-a'])
    const afterCommit = await replay()
    const handle = wireOf<Wire>(await runtime.call('stageExecution', { body: { applicationId: APP, plan: stale.plan }, token }))
    const session = await openExecutionSession(runtime.deps, APP, ada)
    expect(wireOf<Wire>(await runtime.call('executeExecution', { body: { applicationId: APP, handle, authoritySession: session, transitionSet: stale.transitionSet }, token }))).toMatchObject({ reasonCode: 'head-mismatch' })
    expect(await replay()).toEqual(afterCommit)
    expect(afterCommit!.additions).toHaveLength(before!.additions.length + 1)

    const cancelled = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k4', members: await members(['doc-a']) })
    const cancelHandle = wireOf<Wire>(await runtime.call('stageExecution', { body: { applicationId: APP, plan: cancelled.plan }, token }))
    expect(wireOf<Wire>(await runtime.call('cancelExecution', { body: { applicationId: APP, handle: cancelHandle, authoritySession: session }, token }))).toMatchObject({ status: 'cancelled' })
    expect(await replay()).toEqual(afterCommit)
  })

  it('refuses, as plan-mismatch and writing nothing, an event whose namespace is not a domain namespace', async () => {
    const draft = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k1', members: await members(['doc-a']) })
    const handle = wireOf<Wire>(await runtime.call('stageExecution', { body: { applicationId: APP, plan: draft.plan }, token }))
    const session = await openExecutionSession(runtime.deps, APP, ada)
    const set = structuredClone(draft.transitionSet)
    const bad = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'k2', members: await members(['doc-a']), namespace: { scheme: 'subject', value: 'Profile!' } })
    const badHandle = wireOf<Wire>(await runtime.call('stageExecution', { body: { applicationId: APP, plan: bad.plan }, token }))
    const before = await runtime.snapshot()
    const refused = wireOf<Wire>(await runtime.call('executeExecution', { body: { applicationId: APP, handle: badHandle, authoritySession: session, transitionSet: bad.transitionSet }, token }))
    expect(refused).toMatchObject({ schema: 'cairn.v124.execution_zero_write_failure', reasonCode: 'plan-mismatch', writes: 0 })
    expect(await runtime.snapshot()).toBe(before)
    expect(wireOf<Wire>(await runtime.call('executeExecution', { body: { applicationId: APP, handle, authoritySession: session, transitionSet: set }, token })).status).toBe('committed')
  })

  it('maps members to additions in participant order, refusing oversized events (pure)', () => {
    const member = (participantId: string, event: Record<string, unknown>) => ({ participantId, planning: { namespace: { scheme: 'subject', value: 'notes' }, event } }) as never
    const by = (...ids: string[]) => ids.map((participantId) => ({ participantId, ownerUserId: 'usr_ada', actorId: 'usr_ada' }))
    const additions = executionAdditions('exe_1', [member('b', { n: 2 }), member('a', { n: 1 })], by('a', 'b'))
    expect(E.isRight(additions) && additions.right.map((a) => [a.appendId, sha256Hex(a.eventBytes)])).toEqual([
      ['exe_1.0', sha256Hex(canonicalJsonBytes({ n: 1 }))], ['exe_1.1', sha256Hex(canonicalJsonBytes({ n: 2 }))],
    ])
    const big = executionAdditions('exe_1', [member('a', { text: 'x'.repeat(DOMAIN_REGISTRY.maxEventBytes) })], by('a'))
    expect(E.isLeft(big) && big.left.reason).toBe('plan-mismatch')
  })

  it('a private payload belongs to the member\'s verified actor: one naming another owner is refused (pure)', () => {
    const privatePayload = { visibility: 'grant' as const, ownerSubjectId: 'usr_ada', saltB64u: toBase64Url(new Uint8Array(32).fill(7)), payloadB64u: toBase64Url(new TextEncoder().encode('mine')) }
    const member = { participantId: 'a', planning: { namespace: { scheme: 'domain', value: 'secret' }, event: { privatePayloadCommitment: privatePayloadCommitmentOf(privatePayload) }, privatePayload } } as never
    const written = executionAdditions('exe_1', [member], [{ participantId: 'a', ownerUserId: 'usr_ada', actorId: 'usr_ada' }])
    expect(E.isRight(written) && written.right[0]!.private?.ownerSubjectId).toBe('usr_ada')
    const claimed = executionAdditions('exe_1', [member], [{ participantId: 'a', ownerUserId: 'usr_ada', actorId: 'usr_grace' }])
    expect(E.isLeft(claimed) && claimed.left).toMatchObject({ reason: 'capability-invalid', message: expect.stringMatching(/verified actor/) })
  })
})
