/**
 * Deterministic simulation of staged execution: a seed fixes the clock (advanced one millisecond
 * per step), the entropy (SeededEntropy), every client's choices (participants, candidates, execute
 * or cancel) and the interleaving: every Store call of every client waits at a gate, and once all
 * live clients wait, the scheduler releases one chosen by the seeded PRNG. Running a seed twice, in
 * two fresh worlds, gives the same history digest — the schedule, every outcome with its reason and
 * Kai time, and each participant's move count and last mover — and the history passes the checker.
 * (Heads themselves are left out of the digest: they chain digests of sealed artifacts, which are
 * signed with freshly generated keys in each world.)
 */
import { describe, expect, it } from 'vitest'
import { FixedClock, MemoryStore } from '../../adapters/memory/index.js'
import { checkExecutionHistory, type ExecutionHistoryOperation } from '../../conformance/execution-history.js'
import {
  callRuntime, createExecutionWorld, draftExecution, executeDraft, membersAtCurrentHeads, seededRandom, stageDraft,
} from '../../hosts/http/execution-test-support.js'
import { APP } from '../../hosts/http/runtime-test-support.js'
import type { CommitOutcome, Store } from '../../ports/store.js'
import { sha256OfJson } from '../digest/sha256.js'
import { genesisParticipantHead, loadParticipantHeads } from './participant-heads.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')
const CLIENTS = 12
const PARTICIPANTS = ['p0', 'p1', 'p2', 'p3']
const ATTEMPTS = 3

/** Gates every Store call of every client; releases one at a time in seeded order once all wait. */
class Scheduler {
  private readonly pending: { client: number; seq: number; method: string; release: () => void }[] = []
  private readonly calls = new Map<number, number>()
  private live = 0
  readonly steps: string[] = []

  constructor(private readonly random: (n: number) => number, private readonly clock: FixedClock) {}

  storeFor(client: number, store: Store): Store {
    const gate = (method: string) => new Promise<void>((release) => {
      const seq = (this.calls.get(client) ?? 0) + 1
      this.calls.set(client, seq)
      this.pending.push({ client, seq, method, release })
    })
    const gated = <A extends unknown[], R>(method: string, run: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
      await gate(method)
      return run(...args)
    }
    return {
      declare: gated('declare', (c) => store.declare(c)),
      get: gated('get', (c: string, k: string) => store.get(c, k)) as Store['get'],
      getByUnique: gated('getByUnique', (c: string, u: string, v: string) => store.getByUnique(c, u, v)) as Store['getByUnique'],
      query: gated('query', (c: string, o: Parameters<Store['query']>[1]) => store.query(c, o)) as Store['query'],
      commit: gated('commit', (w: Parameters<Store['commit']>[0]): Promise<CommitOutcome> => store.commit(w)),
      streamHead: gated('streamHead', (s: string) => store.streamHead(s)),
      readStream: gated('readStream', (s: string, o?: Parameters<Store['readStream']>[1]) => store.readStream(s, o)) as Store['readStream'],
      close: () => store.close(),
    }
  }

  async run(clients: readonly (() => Promise<void>)[]): Promise<void> {
    this.live = clients.length
    const done = clients.map((client) => client().finally(() => { this.live -= 1 }))
    while (this.live > 0) {
      // Wait until every live client waits at a gate (non-Store work, e.g. signing, finishes first).
      while (this.pending.length < this.live) await new Promise((resolve) => setImmediate(resolve))
      if (this.live === 0) break
      this.pending.sort((a, b) => a.client - b.client || a.seq - b.seq)
      const next = this.pending.splice(this.random(this.pending.length), 1)[0]!
      this.steps.push(`${next.client}.${next.seq}:${next.method}`)
      this.clock.advance(1)
      next.release()
    }
    await Promise.all(done)
  }
}

async function simulate(seed: string) {
  const clock = new FixedClock(T0)
  const world = await createExecutionWorld(new MemoryStore(), { seed, clock })
  const scheduler = new Scheduler(seededRandom(`${seed}:schedule`), clock)
  const outcomes: unknown[] = []
  const history: ExecutionHistoryOperation[] = []
  let logical = 0
  const client = (index: number) => async () => {
    const random = seededRandom(`${seed}:client-${index}`)
    const deps = { ...world.deps, store: scheduler.storeFor(index, world.deps.store) }
    const ids = PARTICIPANTS.filter(() => random(2) === 0)
    if (ids.length === 0) ids.push(PARTICIPANTS[random(PARTICIPANTS.length)]!)
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const draft = draftExecution(deps, { applicationId: APP, semanticIdempotencyKey: `sim-${index}`, attemptId: `a${attempt}`, members: await membersAtCurrentHeads({ ...world, deps }, ids, random) })
      const handle = await stageDraft(world, draft, deps)
      if (random(5) === 0) {
        const cancelled = await callRuntime(deps, 'cancelExecution', world.principal, { body: { applicationId: APP, handle, authoritySession: world.session } })
        outcomes.push([index, handle.executionId, 'cancel', cancelled.ok && cancelled.wire.status, cancelled.ok && cancelled.wire.terminalAtKaiUPulse])
        continue
      }
      const invokedAt = ++logical
      const answer = await executeDraft(world, draft, handle, deps)
      const returnedAt = ++logical
      const wire = answer.ok ? answer.wire : undefined
      outcomes.push([index, handle.executionId, 'execute', wire?.status ?? null, wire?.reasonCode ?? null, wire?.terminalAtKaiUPulse ?? null])
      history.push({
        id: handle.executionId, invokedAt, returnedAt, outcome: wire?.status === 'committed' ? 'committed' : wire ? 'not-committed' : 'unknown',
        expected: draft.transitionSet.expectedParticipantHeads, proposed: draft.transitionSet.proposedParticipantHeads,
      })
      if (wire?.status === 'committed') return
    }
  }
  await scheduler.run(Array.from({ length: CLIENTS }, (_, index) => client(index)))
  const states = await loadParticipantHeads(world.deps, APP, PARTICIPANTS)
  const verdict = checkExecutionHistory({
    operations: history, genesisHead: (participant) => genesisParticipantHead(APP, participant),
    finalHeads: new Map(states.map((state) => [state.participantId, { head: state.head, sequence: state.record?.sequence ?? 0 }])),
  })
  const finals = states.map((state) => [state.participantId, state.record?.sequence ?? 0, state.record?.movedBy ?? null])
  return { digest: sha256OfJson({ steps: scheduler.steps, outcomes, finals }), verdict, steps: scheduler.steps.length, committed: verdict.order.length }
}

describe('deterministic simulation of staged execution', () => {
  it('replays the same seed to the same history digest, and another seed to another', async () => {
    const first = await simulate('seed-alpha')
    const again = await simulate('seed-alpha')
    const other = await simulate('seed-beta')
    for (const run of [first, again, other]) expect(run.verdict.errors).toEqual([])
    expect(first.committed).toBeGreaterThan(0)
    expect(first.steps).toBeGreaterThan(CLIENTS * 4)
    expect(again.digest).toBe(first.digest)
    expect(other.digest).not.toBe(first.digest)
  }, 120_000)
})
