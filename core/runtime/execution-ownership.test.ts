/**
 * A staged plan belongs to the person who staged it. Each attack is made by grace, a second user
 * of the same application with her own token and authority session, against a plan ada staged:
 * reading it by id or coordinates, cancelling or executing it with its exact handle (as if rebuilt
 * from a lookup), and squatting its idempotency coordinates. Each is refused with the answer an
 * unknown execution gets, the Store unchanged; in process and over the h3 host. A delegate whose
 * capability chain is rooted in the stager may execute (not cancel or read) the plan.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { draftExecution, EXECUTION_SCOPES, membersAtCurrentHeads, openExecutionSession, type ExecutionDraft, type MemberDraft } from '../../hosts/http/execution-test-support.js'
import { bodyOf } from '../../hosts/http/oidc-test-support.js'
import { APP, createRuntimeTestWorld, type IdentityHolder, type PortableArtifact, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import type { ComponentType } from '../contract/components.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')
type Session = ComponentType<'V124AuthoritySession'>
type Handle = ComponentType<'V124DurableExecutionHandle'>
type Wire = Record<string, unknown> & { status?: string; reasonCode?: string; executionId: string }

/** One person of the application: identity, token and execution session. */
interface Person { readonly holder: IdentityHolder; readonly token: string; readonly session: Session }

let runtime: RuntimeTestWorld
let ada: Person
let grace: Person
let artifacts: PortableArtifact[]
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  const person = async (username: string): Promise<Person> => {
    const holder = await runtime.identityHolder(username)
    return { holder, token: await runtime.tokenFor(EXECUTION_SCOPES, APP, username), session: await openExecutionSession(runtime.deps, APP, holder) }
  }
  ada = await person('ada')
  grace = await person('grace')
  artifacts = [await ada.holder.seal('doc-0.json', 'application/json', new TextEncoder().encode('{"doc":0}')), await ada.holder.seal('doc-1.json', 'application/json', new TextEncoder().encode('{"doc":1}'))]
})

const wireOf = (reply: Awaited<ReturnType<RuntimeTestWorld['call']>>): Wire => bodyOf<{ wire: Wire }>(reply).wire

/** A plan over ada's `doc-a` (actor ada unless `member` says otherwise). */
async function adaPlan(key: string, member: Partial<MemberDraft> = {}): Promise<ExecutionDraft> {
  const [doc] = await membersAtCurrentHeads({ deps: runtime.deps, owner: ada.holder, pool: artifacts }, ['doc-a'])
  return draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: key, members: [{ ...doc!, ...member }] })
}

const stage = async (who: Person, draft: ExecutionDraft): Promise<Handle> =>
  wireOf(await runtime.call('stageExecution', { body: { applicationId: APP, plan: draft.plan }, token: who.token })) as unknown as Handle
const byId = (who: Person, executionId: string) => runtime.call('getExecution', { params: { applicationId: APP, executionId }, token: who.token })
const byKey = (who: Person, key: string) =>
  runtime.call('getExecutionByIdempotency', { params: { applicationId: APP, domainId: 'notes', operationKind: 'append', semanticIdempotencyKey: key }, token: who.token })
const cancel = (who: Person, handle: Handle) => runtime.call('cancelExecution', { body: { applicationId: APP, handle, authoritySession: who.session }, token: who.token })
const execute = (who: Person, handle: Handle, draft: ExecutionDraft, session = who.session) =>
  runtime.call('executeExecution', { body: { applicationId: APP, handle, authoritySession: session, transitionSet: draft.transitionSet }, token: who.token })

/** The answer to a handle naming no execution: the same coordinates, an execution id nothing was staged under. */
const unknownHandle = (handle: Handle): Handle => ({ ...handle, executionId: `exe_${'0'.repeat(64)}` })
const refusal = (wire: Wire) => ({ schema: wire.schema, reasonCode: wire.reasonCode, writes: wire.writes })

describe('a staged plan belongs to the user who staged it', () => {
  it('another user of the application cannot read it: by id and by coordinates she gets what an unknown execution gets', async () => {
    const handle = await stage(ada, await adaPlan('k1'))
    const before = await runtime.snapshot()
    const unknownId = await byId(grace, `exe_${'0'.repeat(64)}`)
    expect(unknownId).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
    expect(await byId(grace, handle.executionId)).toEqual(unknownId)
    expect(await byKey(grace, 'k1')).toEqual(await byKey(grace, 'never-staged'))
    expect(await runtime.snapshot()).toBe(before)
    // The stager still reads it.
    expect(wireOf(await byKey(ada, 'k1'))).toMatchObject({ status: 'staged', executionId: handle.executionId })

    // Over HTTP: the same 404 bodies, byte for byte.
    const get = (path: string) => runtime.http('GET', path, { token: grace.token })
    const foreign = await get(`/api/sdk/v1/execution/${APP}/${handle.executionId}`)
    const nothing = await get(`/api/sdk/v1/execution/${APP}/exe_${'0'.repeat(64)}`)
    expect([foreign.status, await foreign.text()]).toEqual([404, await nothing.text()])
    const foreignKey = await get(`/api/sdk/v1/execution/by-idempotency/${APP}/notes/append/k1`)
    const nothingKey = await get(`/api/sdk/v1/execution/by-idempotency/${APP}/notes/append/never-staged`)
    expect([foreignKey.status, await foreignKey.text()]).toEqual([404, await nothingKey.text()])
  })

  it('another user cannot cancel it with its exact handle, even with the stager\'s session: handle-invalid, as for an unknown handle, nothing written', async () => {
    const draft = await adaPlan('k1')
    const handle = await stage(ada, draft)
    const before = await runtime.snapshot()
    const unknown = refusal(wireOf(await cancel(grace, unknownHandle(handle))))
    expect(unknown).toEqual({ schema: 'cairn.v124.execution_zero_write_failure', reasonCode: 'handle-invalid', writes: 0 })
    expect(refusal(wireOf(await cancel(grace, handle)))).toEqual(unknown)
    // A session she cannot use (ada's) still tells her nothing more than handle-invalid.
    expect(refusal(wireOf(await runtime.call('cancelExecution', { body: { applicationId: APP, handle, authoritySession: ada.session }, token: grace.token })))).toEqual(unknown)
    expect(await runtime.snapshot()).toBe(before)

    const overHttp = await runtime.http('POST', '/api/sdk/v1/execution/cancel', { body: { applicationId: APP, handle, authoritySession: grace.session }, token: grace.token })
    expect(overHttp.status).toBe(200)
    expect(refusal(((await overHttp.json()) as { wire: Wire }).wire)).toEqual(unknown)
    expect(await runtime.snapshot()).toBe(before)
    // The plan is still ada's to execute.
    expect(wireOf(await execute(ada, handle, draft))).toMatchObject({ status: 'committed' })
  })

  it('another user cannot execute it, even holding its whole transition set: handle-invalid, nothing written', async () => {
    const draft = await adaPlan('k1')
    const handle = await stage(ada, draft)
    const before = await runtime.snapshot()
    const unknown = refusal(wireOf(await execute(grace, unknownHandle(handle), draft)))
    expect(unknown).toMatchObject({ reasonCode: 'handle-invalid', writes: 0 })
    expect(refusal(wireOf(await execute(grace, handle, draft)))).toEqual(unknown)
    expect(refusal(wireOf(await execute(grace, handle, draft, ada.session)))).toEqual(unknown)
    expect(await runtime.snapshot()).toBe(before)

    const overHttp = await runtime.http('POST', '/api/sdk/v1/execution/execute', { body: { applicationId: APP, handle, authoritySession: grace.session, transitionSet: draft.transitionSet }, token: grace.token })
    expect(refusal(((await overHttp.json()) as { wire: Wire }).wire)).toEqual(unknown)
    expect(await runtime.snapshot()).toBe(before)
    expect(wireOf(await byKey(ada, 'k1'))).toMatchObject({ status: 'staged' })
  })

  it('another user cannot squat its idempotency coordinates: each person\'s coordinates are their own', async () => {
    // grace stages first under the key ada will use, even the byte-identical plan.
    const draft = await adaPlan('k1')
    const squatted = await stage(grace, draft)
    const before = await runtime.snapshot()
    const own = await stage(ada, draft)
    expect(own.executionId).not.toBe(squatted.executionId)
    expect(await runtime.snapshot()).not.toBe(before)
    expect(wireOf(await byKey(ada, 'k1'))).toMatchObject({ status: 'staged', executionId: own.executionId })
    expect(wireOf(await byKey(grace, 'k1'))).toMatchObject({ status: 'staged', executionId: squatted.executionId })
    expect(wireOf(await execute(ada, own, draft))).toMatchObject({ status: 'committed' })

    // Over HTTP: grace's plan under ada's next key does not make ada's stage a 409.
    const next = await adaPlan('k2')
    expect((await runtime.http('POST', '/api/sdk/v1/execution/stage', { body: { applicationId: APP, plan: next.plan }, token: grace.token })).status).toBe(200)
    const staged = await runtime.http('POST', '/api/sdk/v1/execution/stage', { body: { applicationId: APP, plan: next.plan }, token: ada.token })
    expect(staged.status).toBe(200)
  })

  it('a delegate whose capability chain is rooted in the stager executes it; nobody else, and not a chain rooted elsewhere', async () => {
    // ada stages a plan grace acts in, under ada's capability: grace executes it with her own session.
    const delegated = await adaPlan('k1', { actor: grace.holder })
    const handle = await stage(ada, delegated)
    const carol = { holder: await runtime.identityHolder('carol'), token: await runtime.tokenFor(EXECUTION_SCOPES, APP, 'carol') }
    const carolPerson = { ...carol, session: await openExecutionSession(runtime.deps, APP, carol.holder) }
    const before = await runtime.snapshot()
    expect(refusal(wireOf(await execute(carolPerson, handle, delegated)))).toMatchObject({ reasonCode: 'handle-invalid', writes: 0 })
    // grace may execute but not cancel or read it.
    expect(refusal(wireOf(await cancel(grace, handle)))).toMatchObject({ reasonCode: 'handle-invalid', writes: 0 })
    expect(await byId(grace, handle.executionId)).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
    expect(await runtime.snapshot()).toBe(before)
    expect(wireOf(await execute(grace, handle, delegated))).toMatchObject({ status: 'committed' })
    expect(wireOf(await byKey(ada, 'k1'))).toMatchObject({ status: 'committed' })

    // carol stages a plan over ada's artifacts in which grace acts under ada's chain: rooted in ada, not in carol.
    const elsewhere = await adaPlan('k2', { actor: grace.holder })
    const carolsHandle = await stage(carolPerson, elsewhere)
    const unchanged = await runtime.snapshot()
    expect(refusal(wireOf(await execute(grace, carolsHandle, elsewhere)))).toMatchObject({ reasonCode: 'handle-invalid', writes: 0 })
    expect(await runtime.snapshot()).toBe(unchanged)
  })
})
