/**
 * Linearizability of staged execution on every store adapter: 100 clients run at once, each
 * executing a plan over an overlapping subset of 12 participant heads (reading the heads, staging,
 * executing, and restaging with a new attempt after a stale head). The history of every execute
 * call, with the final heads, goes through the checker (conformance/execution-history.ts): each
 * plan committed all its heads or none, the committed set has a serial order consistent with the
 * chains and real time, and every participant's heads chain from genesis without gaps. The store's
 * own execution records must agree with what the clients were told, and the plans' domain must list
 * exactly the committed plans' events in an order that is itself a serial history. On backends
 * several processes share (`multiProcess`), the clients are spread over two connections, as over
 * two hosts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { domainStreamOf } from '../core/runtime/domains/domain-records.js'
import { EXECUTIONS } from '../core/runtime/runtime-collections.js'
import { collections } from '../core/usecases/collections.js'
import type { ExecutionRecord } from '../core/runtime/execution.js'
import { genesisParticipantHead } from '../core/runtime/participant-heads.js'
import {
  createExecutionWorld, draftExecution, executeDraft, finalParticipantStates, membersAtCurrentHeads, seededRandom, stageDraft, type ExecutionWorld,
} from '../hosts/http/execution-test-support.js'
import { APP } from '../hosts/http/runtime-test-support.js'
import { checkDomainOrder, checkExecutionHistory, type ExecutionHistoryOperation } from './execution-history.js'
import { STORE_BACKENDS } from './matrix.js'
import { openStoreFixture, secondHost, type OpenStoreFixture } from './targets.js'

const CLIENTS = 100
const PARTICIPANTS = Array.from({ length: 12 }, (_, i) => `p${i}`)
/** A client gives up after this many stale heads (its last attempt stays a zero-write). */
const MAX_ATTEMPTS = 6
/** Every plan names this domain (the test support's default), so every commit appends to one chain. */
const DOMAIN = 'notes'

for (const backend of STORE_BACKENDS) {
  const run = backend.backend !== undefined && backend.skipReason === undefined ? describe : describe.skip
  run(`store=${backend.name} staged execution`, () => {
    let fixture: OpenStoreFixture
    let world: ExecutionWorld
    /** The world as each host sees it: one, or the same world over a second connection. */
    let hosts: ExecutionWorld[]
    beforeAll(async () => {
      fixture = await openStoreFixture(backend.backend!.store)
      world = await createExecutionWorld(fixture.store, { seed: `linearizability-${backend.name}` })
      hosts = [world]
      if (backend.backend!.capabilities?.multiProcess && fixture.connectAgain) {
        hosts.push({ ...world, deps: { ...world.deps, store: await secondHost(fixture, collections) } })
      }
    })
    afterAll(() => fixture?.dispose())

    it(`is linearizable: ${CLIENTS} concurrent executes over overlapping participant heads commit all their heads or none, serializably, chaining without gaps`, async () => {
      let clock = 0
      const history: ExecutionHistoryOperation[] = []
      const client = async (index: number) => {
        const host = hosts[index % hosts.length]!
        const random = seededRandom(`client-${index}`)
        const size = 1 + random(3)
        const ids = [...PARTICIPANTS].sort(() => random(3) - 1).slice(0, size).sort()
        for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
          // After a stale head, back off a little so the clients do not retry in lockstep.
          if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, random(5)))
          const draft = draftExecution(host.deps, { applicationId: APP, semanticIdempotencyKey: `client-${index}`, attemptId: `a${attempt}`, members: await membersAtCurrentHeads(host, ids, random) })
          const handle = await stageDraft(host, draft)
          const invokedAt = ++clock
          const answer = await executeDraft(host, draft, handle)
          const returnedAt = ++clock
          const status = answer.ok ? answer.wire.status : undefined
          history.push({
            id: handle.executionId, invokedAt, returnedAt, outcome: status === 'committed' ? 'committed' : answer.ok ? 'not-committed' : 'unknown',
            expected: draft.transitionSet.expectedParticipantHeads, proposed: draft.transitionSet.proposedParticipantHeads,
          })
          if (status === 'committed') return
          expect(answer.ok && answer.wire.reasonCode, JSON.stringify(answer.ok ? answer.wire : answer.error)).toBe('head-mismatch')
        }
      }
      await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)))

      const finalHeads = await finalParticipantStates(world.deps, PARTICIPANTS)
      const verdict = checkExecutionHistory({ operations: history, finalHeads, genesisHead: (participant) => genesisParticipantHead(APP, participant) })
      expect(verdict.errors).toEqual([])
      const committed = history.filter((op) => op.outcome === 'committed')
      expect(verdict.order).toHaveLength(committed.length)
      expect(committed.length).toBeGreaterThanOrEqual(PARTICIPANTS.length)
      expect(history.length).toBeGreaterThan(committed.length)
      expect([...finalHeads.values()].reduce((sum, state) => sum + state.sequence, 0)).toBe(committed.reduce((sum, op) => sum + Object.keys(op.proposed).length, 0))

      // The plans' domain lists exactly the committed plans' events, in a serial order of its own.
      const appendIds: string[] = []
      for (let after: string | undefined; ;) {
        const page = await world.deps.store.readStream<{ appendId: string }>(domainStreamOf({ applicationId: APP, domainId: DOMAIN }), { limit: 1000, ...(after ? { after } : {}) })
        appendIds.push(...page.items.map((entry) => entry.value.appendId))
        if (!page.nextCursor) break
        after = page.nextCursor
      }
      expect(checkDomainOrder({ operations: history, appendIds, finalHeads, genesisHead: (participant) => genesisParticipantHead(APP, participant) })).toEqual([])

      // The store's records say what the clients were told.
      const records: ExecutionRecord[] = []
      for (let after: string | undefined; ;) {
        const page = await world.deps.store.query(EXECUTIONS, { index: 'byApplication', equals: [APP], limit: 1000, ...(after ? { after } : {}) })
        records.push(...page.items.map((doc) => doc.value as unknown as ExecutionRecord))
        if (!page.nextCursor) break
        after = page.nextCursor
      }
      expect(records).toHaveLength(history.length)
      const recordedCommitted = records.filter((record) => record.status === 'committed').map((record) => record.executionId).sort()
      expect(recordedCommitted).toEqual(committed.map((op) => op.id).sort())
    }, 120_000)
  })
}
