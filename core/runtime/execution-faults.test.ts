/**
 * Fault injection at every Store call of stage, execute and cancel, before the call reaches the
 * store and after it did its work but the reply was lost. After each fault nothing is half
 * written (execution records, their idempotency coordinates, the participant heads and the plans'
 * domain agree), the
 * outcome is recoverable by the idempotency coordinates (unknown before the first commit, the
 * state reached after it), and the same request again completes. Execute is also run by a
 * delegate (grace, under the stager's capability), the other way a plan can be executed.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { MemoryStore } from '../../adapters/memory/index.js'
import { InjectedFaultError, withFaults, type StoreMethod } from '../../conformance/fault-injection.js'
import type { Principal } from '../auth/principal.js'
import type { ComponentType } from '../contract/components.js'
import {
  bearerOf, callRuntime, createExecutionWorld, draftExecution, membersAtCurrentHeads, openExecutionSession, stageDraft, type ExecutionOperation, type ExecutionWorld,
} from '../../hosts/http/execution-test-support.js'
import { APP, createIdentityHolder, type IdentityHolder } from '../../hosts/http/runtime-test-support.js'
import type { Store } from '../../ports/store.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { domainKeyOf, RUNTIME_DOMAINS, type DomainRecord } from './domains/domain-records.js'
import type { ExecutionRecord } from './execution.js'
import type { ParticipantHeadRecord } from './participant-heads.js'
import { EXECUTIONS, EXECUTION_COORDINATES, PARTICIPANT_HEADS } from './runtime-collections.js'

const METHODS: readonly StoreMethod[] = ['get', 'getByUnique', 'query', 'commit', 'streamHead', 'readStream']

let world: ExecutionWorld
let delegate: { holder: IdentityHolder; session: ComponentType<'V124AuthoritySession'>; principal: Principal }
beforeAll(async () => {
  world = await createExecutionWorld(new MemoryStore(), { seed: 'execution-faults' })
  const holder = await createIdentityHolder(world.deps, 'grace')
  delegate = { holder, session: await openExecutionSession(world.deps, APP, holder), principal: bearerOf(APP, holder) }
})

const all = async (store: Store, collection: string) => {
  const items = []
  for (let after: string | undefined; ;) {
    const page = await store.query(collection, { index: 'byApplication', limit: 1000, ...(after ? { after } : {}) })
    items.push(...page.items)
    if (!page.nextCursor) return items
    after = page.nextCursor
  }
}

/** Records one commit writes together exist together: coordinates ↔ executions, committed executions ↔ heads. */
async function invariant(store: Store): Promise<void> {
  const executions = new Map((await all(store, EXECUTIONS)).map((doc) => [(doc.value as unknown as ExecutionRecord).executionId, doc.value as unknown as ExecutionRecord]))
  for (const doc of await all(store, EXECUTION_COORDINATES)) expect(executions.has((doc.value as { executionId: string }).executionId)).toBe(true)
  const heads = (await all(store, PARTICIPANT_HEADS)).map((doc) => doc.value as unknown as ParticipantHeadRecord)
  for (const head of heads) {
    const mover = executions.get(head.movedBy)
    expect(mover?.status).toBe('committed')
    expect(mover?.outcome && 'committedHeads' in mover.outcome ? mover.outcome.committedHeads[head.participantId] : undefined).toBe(head.head)
  }
  const moves = [...executions.values()].filter((record) => record.status === 'committed').reduce((sum, record) => sum + Object.keys(record.plan.expectedParticipantHeads).length, 0)
  expect(heads.reduce((sum, head) => sum + head.sequence, 0)).toBe(moves)
  // Each committed member appended one addition to the plans' domain, in the same commit.
  const domain = await store.get(RUNTIME_DOMAINS, domainKeyOf({ applicationId: APP, domainId: 'notes' }))
  expect(domain ? (domain.value as unknown as DomainRecord).sequence + 1 : 0).toBe(moves)
}

let fresh = 0
interface Prepared { readonly body: unknown; readonly key: string }

const scenarios: { name: string; operation: ExecutionOperation; prepare(): Promise<Prepared>; reached: string; caller?: () => Principal }[] = [
  {
    name: 'stage', operation: 'stageExecution', reached: 'staged',
    prepare: async () => {
      const key = `fault-${++fresh}`
      const draft = draftExecution(world.deps, { applicationId: APP, semanticIdempotencyKey: key, members: await membersAtCurrentHeads(world, [`${key}-x`, `${key}-y`]) })
      return { key, body: { applicationId: APP, plan: draft.plan } }
    },
  },
  {
    name: 'execute', operation: 'executeExecution', reached: 'committed',
    prepare: async () => {
      const key = `fault-${++fresh}`
      const draft = draftExecution(world.deps, { applicationId: APP, semanticIdempotencyKey: key, members: await membersAtCurrentHeads(world, [`${key}-x`, `${key}-y`, 'shared']) })
      const handle = await stageDraft(world, draft)
      return { key, body: { applicationId: APP, handle, authoritySession: world.session, transitionSet: draft.transitionSet } }
    },
  },
  {
    name: 'execute by a delegate of the stager', operation: 'executeExecution', reached: 'committed', caller: () => delegate.principal,
    prepare: async () => {
      const key = `fault-${++fresh}`
      const members = (await membersAtCurrentHeads(world, [`${key}-x`, 'shared'])).map((member) => ({ ...member, actor: delegate.holder }))
      const draft = draftExecution(world.deps, { applicationId: APP, semanticIdempotencyKey: key, members })
      const handle = await stageDraft(world, draft)
      return { key, body: { applicationId: APP, handle, authoritySession: delegate.session, transitionSet: draft.transitionSet } }
    },
  },
  {
    name: 'cancel', operation: 'cancelExecution', reached: 'cancelled',
    prepare: async () => {
      const key = `fault-${++fresh}`
      const draft = draftExecution(world.deps, { applicationId: APP, semanticIdempotencyKey: key, members: await membersAtCurrentHeads(world, [`${key}-x`]) })
      const handle = await stageDraft(world, draft)
      return { key, body: { applicationId: APP, handle, authoritySession: world.session } }
    },
  },
]

const lookup = (deps: CoreDeps, key: string) =>
  callRuntime(deps, 'getExecutionByIdempotency', world.principal, { params: { applicationId: APP, domainId: 'notes', operationKind: 'append', semanticIdempotencyKey: key } })

describe('staged execution under a Store fault at every call', () => {
  for (const scenario of scenarios) {
    it(`${scenario.name}: nothing half written, the outcome recoverable by idempotency coordinates, and a retry completes`, async () => {
      const caller = scenario.caller?.() ?? world.principal
      const counter = withFaults(world.deps.store, [])
      const clean = await scenario.prepare()
      const answer = await callRuntime({ ...world.deps, store: counter }, scenario.operation, caller, { body: clean.body })
      expect(answer.ok && (answer.wire.status ?? 'staged')).toBe(scenario.reached)
      let faults = 0
      for (const method of METHODS) {
        for (let call = 1; call <= counter.callsOf(method); call++) {
          for (const when of ['before', 'after'] as const) {
            const request = await scenario.prepare()
            const before = await lookup(world.deps, request.key)
            const faulty = withFaults(world.deps.store, [{ method, call, when }])
            const attempt = await callRuntime({ ...world.deps, store: faulty }, scenario.operation, caller, { body: request.body }).catch((error: unknown) => error)
            if (attempt instanceof Error) expect(attempt).toBeInstanceOf(InjectedFaultError)
            faults += 1
            await invariant(world.deps.store)
            // Recoverable: the coordinates answer either the state before the call or the state it reached.
            const after = await lookup(world.deps, request.key)
            const state = (answer: Awaited<ReturnType<typeof lookup>>) => (answer.ok ? answer.wire.status : answer.error._tag)
            expect([state(before), scenario.reached]).toContain(state(after))
            const retry = await callRuntime(world.deps, scenario.operation, caller, { body: request.body })
            expect(retry.ok && (retry.wire.status ?? 'staged'), `${method} #${call} ${when}`).toBe(scenario.reached)
            expect(state(await lookup(world.deps, request.key))).toBe(scenario.reached)
            await invariant(world.deps.store)
          }
        }
      }
      expect(faults).toBeGreaterThan(4)
    }, 120_000)
  }
})
