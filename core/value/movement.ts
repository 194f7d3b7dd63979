/**
 * The one way value moves. Each movement loads its accounts, is decided, and is written with its new
 * balances (guarded by version expectations), ledger entry, public feed event and rollup, action
 * ledger `wallet` event, transparency-log leaf and idempotency record in ONE atomic Store commit —
 * or not at all.
 *
 * Movements that arrive while a commit is in flight (or, while callers send side by side or come
 * by I/O, just before a batch is taken) wait in a queue per Store and are decided and committed
 * together as the next batch (core/value/movement-batch.ts): group commit, so one fsync serves many
 * movements. A batch that loses a race to another process (an account, its idempotency key, or the
 * host's rollup shard changed first) is decided again from fresh reads — after losing on the shard,
 * on another shard; a movement that lost `MAX_ATTEMPTS` times gets 409 and nothing was written.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { CommitOutcome, Store, StreamEntry } from '../../ports/store.js'
import { conflict, type DomainError } from '../errors/domain-error.js'
import { pseudonymSecret } from '../ledger/action-ledger.js'
import { logEntriesOf } from '../tlog/sequence.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { accountKey, loadAccount, type LoadedAccount } from './accounts.js'
import { findSaved } from './idempotency.js'
import { answerWithEvent, placedEvents, replayedRecord } from './feed-place.js'
import { MovementBatch, type BatchReads, type DecidedMovement } from './movement-batch.js'
import { legsOf, type MovementPlan, type MovementRequest, type MovementResult, type Refusal } from './movement-plan.js'
import { pseudonymKey } from './pseudonym.js'
import { EMPTY_ROLLUP, loadRollupShard, ROLLUP_SHARDS, WALLET_LEDGER_STREAM, type PublishedWalletEvent } from './wallet-feed.js'

export * from './movement-plan.js'

export const MAX_ATTEMPTS = 64
/** Movements decided in one commit at most: bounds the commit's size and what one lost race redoes. */
export const MAX_BATCH = 256
/**
 * A movement whose own writes lost this many races (its account, its idempotency key, its note…
 * changed first in another process) runs in a batch of its own, so it cannot keep failing its
 * neighbours. A race lost on what every batch writes (the host's rollup shard) is nobody's in
 * particular: the batch is decided again whole, on another shard.
 */
const ALONE_AFTER_OWN_LOST_RACES = 2

/**
 * @example await executeMovement(deps, { idempotency, plan: async () => E.right({ kind: 'transfer', … }) })
 */
export function executeMovement(deps: CoreDeps, request: MovementRequest): Promise<Either<DomainError, MovementResult>> {
  return new Promise((resolve, reject) => enqueue({ deps, request, resolve, reject, lostRaces: 0, ownLostRaces: 0 }))
}

interface Job {
  readonly deps: CoreDeps
  readonly request: MovementRequest
  readonly resolve: (result: Either<DomainError, MovementResult>) => void
  readonly reject: (error: unknown) => void
  /** Races its batches lost, on any write. */
  lostRaces: number
  /** Races lost on a write of this movement's own. */
  ownLostRaces: number
}

/** Jobs waiting per Store; a Store with an entry has a batch running. */
const queues = new WeakMap<Store, Job[]>()

/** What a Store's last batches say about how its callers arrive. */
interface Arrivals {
  /** How many movements the last batch carried: more than one means callers are sending side by side. */
  lastBatchSize: number
  /** Counts batches, so a mark set for an earlier batch is not taken for the last one's. */
  batches: number
  /** The event loop has turned since the last batch was taken: callers reach the queue by I/O, each in its own turn. */
  loopTurnedSinceBatch: boolean
  /** The last batch that waited for a turn of the loop gathered more than one movement by it: keep waiting. */
  waitForLoopTurn: boolean
}

const arrivalsOf = new WeakMap<Store, Arrivals>()

function arrivals(store: Store): Arrivals {
  let known = arrivalsOf.get(store)
  if (!known) arrivalsOf.set(store, (known = { lastBatchSize: 1, batches: 0, loopTurnedSinceBatch: false, waitForLoopTurn: false }))
  return known
}

function enqueue(job: Job): void {
  const queue = queues.get(job.deps.store)
  if (queue) {
    queue.push(job)
    return
  }
  const fresh = [job]
  queues.set(job.deps.store, fresh)
  void drain(job.deps.store, fresh)
}

async function drain(store: Store, queue: Job[]): Promise<void> {
  const seen = arrivals(store)
  try {
    for (let first = true; queue.length > 0; first = false) {
      // A queue that ran dry and was started again by a caller of a later turn: see markBatchTaken.
      const waitedForLoop = seen.waitForLoopTurn || (first && seen.loopTurnedSinceBatch)
      if (waitedForLoop) await yieldTurn()
      // One caller at a time has nobody to wait for; movements arriving together do.
      if (queue.length > 1 || seen.lastBatchSize > 1) await gatherArrivals()
      const batch = takeBatch(queue)
      markBatchTaken(seen)
      seen.lastBatchSize = batch.length
      if (waitedForLoop) seen.waitForLoopTurn = batch.length > 1
      // runBatch answers each job itself; should it ever throw, no caller may be left waiting.
      const again = await runBatch(batch).catch((error: unknown) => (batch.forEach((job) => job.reject(error)), []))
      queue.unshift(...again)
      if (again.length > 0) await yieldTurn()
    }
  } finally {
    queues.delete(store)
  }
}

/**
 * Callers over HTTP reach the queue each in its own turn of the event loop (one socket read each),
 * and a batch on an in-memory Store is done within the turn that took it: without waiting a turn,
 * every movement of a burst of requests committed alone. So when the queue runs dry and a caller
 * starts it again after the loop has turned since the last batch was taken (callers come by I/O),
 * the batch waits for one turn of the loop, and batches keep waiting while that gathers more than
 * one movement. A caller that loops on an in-memory Store never lets the loop turn, so it never
 * waits. The mark is set when a batch is taken, not when it ends: its `setImmediate` is then queued
 * before those of the callers the batch answers.
 */
function markBatchTaken(seen: Arrivals): void {
  const batch = ++seen.batches
  seen.loopTurnedSinceBatch = false
  nextLoopTurn(() => {
    if (seen.batches === batch) seen.loopTurnedSinceBatch = true
  })
}

/** The next jobs that share the first one's deps, in arrival order (a job that keeps losing races alone). */
function takeBatch(queue: Job[]): Job[] {
  const first = queue[0]!
  if (first.ownLostRaces >= ALONE_AFTER_OWN_LOST_RACES) return queue.splice(0, 1)
  const batch: Job[] = []
  for (let i = 0; i < queue.length && batch.length < MAX_BATCH;) {
    const job = queue[i]!
    if (job.deps === first.deps && job.ownLostRaces < ALONE_AFTER_OWN_LOST_RACES) batch.push(...queue.splice(i, 1))
    else i++
  }
  return batch
}

type Prepared =
  | { readonly job: Job; readonly plan: MovementPlan }
  | { readonly job: Job; readonly refused: Refusal }

/** Runs one batch to its end; answers every job but those to run again, which it returns. */
async function runBatch(jobs: readonly Job[]): Promise<Job[]> {
  const deps = jobs[0]!.deps
  const prepared = (await Promise.all(jobs.map(prepare))).filter((p): p is Prepared => p !== undefined)
  if (prepared.length === 0) return []
  const { decided, again } = await decideAndCommit(deps, prepared)
  // Refusals are answered only now: they were decided on balances the batch's own movements left.
  for (const { job, result } of decided) job.resolve(E.right(result))
  return again
}

/** Decides the prepared jobs from one set of reads and commits them; the decided are answered by the caller. */
async function decideAndCommit(deps: CoreDeps, prepared: readonly Prepared[]): Promise<{ decided: { job: Job; result: MovementResult }[]; again: Job[] }> {
  // A failed read rejects every job of the batch (drain's catch).
  const reads = await readForBatch(deps, prepared)
  const batch = new MovementBatch<Job>(deps, reads)

  const again: Job[] = []
  const answers: { job: Job; answer: DecidedMovement | Refusal }[] = []
  for (const item of prepared) {
    const { job } = item
    const idempotency = job.request.idempotency
    try {
      const outcome = 'plan' in item ? batch.decide(item.plan, idempotency, job) : item.refused
      switch (outcome._tag) {
        case 'deferred':
          again.push(job)
          break
        case 'decided':
          answers.push({ job, answer: outcome })
          break
        case 'Refusal': {
          const record = job.request.saveRefusal && idempotency
            ? { status: 'zero-write' as const, reply: job.request.saveRefusal(outcome), entryId: null, createdAt: new Date(deps.clock.now()).toISOString() }
            : undefined
          if (record === undefined || batch.saveRefusal(idempotency!, record, job)) answers.push({ job, answer: outcome })
          else again.push(job)
        }
      }
    } catch (error) {
      job.reject(error)
    }
  }

  const writes = batch.commitWrites()
  let appended: readonly StreamEntry[] = []
  if (writes.length > 0) {
    let outcome: CommitOutcome
    try {
      outcome = await deps.store.commit(writes)
    } catch (error) {
      for (const { job } of answers) job.reject(error)
      return { decided: [], again }
    }
    if (!outcome.ok) {
      if (batch.isRollupWrite(outcome.conflict.writeIndex)) moveRollupShard(deps)
      return { decided: [], again: [...lostRace(answers.map(({ job }) => job), batch.ownersOf(outcome.conflict.writeIndex)), ...again] }
    }
    appended = outcome.appended
  }
  // The commit applied, so nothing of it runs again. Should placing its events fail, only the
  // movements whose answers hold an event hear the error (a retry with their key replays them); the
  // refusals and the movements without an event are answered, and the deferred still run again.
  let events: readonly PublishedWalletEvent[]
  try {
    events = await placedEvents(deps, appended.filter((entry) => entry.stream === WALLET_LEDGER_STREAM), batch.events, reads.feedHead)
  } catch (error) {
    const holdsEvent = ({ answer }: { answer: DecidedMovement | Refusal }) => answer._tag !== 'Refusal' && answer.event !== null
    for (const { job } of answers.filter(holdsEvent)) job.reject(error)
    return { decided: resultsOf(answers.filter((answered) => !holdsEvent(answered)), appended, []), again }
  }
  return { decided: resultsOf(answers, appended, events), again }
}

/**
 * What each job of a committed batch is answered: a committed movement learns its leaves' log
 * positions and its event's place in the feed from what the commit `appended`.
 */
function resultsOf(
  answers: readonly { job: Job; answer: DecidedMovement | Refusal }[], appended: readonly StreamEntry[], events: readonly PublishedWalletEvent[],
): { job: Job; result: MovementResult }[] {
  const leaves = logEntriesOf(appended)
  return answers.map(({ job, answer }) => {
    if (answer._tag === 'Refusal') return { job, result: answer }
    const event = answer.event === null ? null : events[answer.event.offset]!
    const reply = answer.event?.inReply && event !== null ? answerWithEvent(answer.reply, event) : answer.reply
    const leafIndexes = answer.leafOffsets.map((offset) => leaves[offset]!.sequence - 1)
    return { job, result: { _tag: 'committed', reply, committed: { ...answer.facts, event }, leafIndexes } }
  })
}

/** The rollup shard each Store's batches add their events to, in this process (0 until a race is lost on it). */
const rollupShards = new WeakMap<Store, number>()

/** Another host wrote this host's rollup shard first: move to one of the other shards, at random, so hosts stop sharing one. */
function moveRollupShard(deps: CoreDeps): void {
  const current = rollupShards.get(deps.store) ?? 0
  rollupShards.set(deps.store, (current + 1 + (deps.entropy.bytes(1)[0]! % (ROLLUP_SHARDS - 1))) % ROLLUP_SHARDS)
}

/** Replays a saved answer, or asks the request for its plan; undefined once the job is answered. */
async function prepare(job: Job): Promise<Prepared | undefined> {
  try {
    const { request, deps } = job
    if (request.idempotency) {
      const saved = await findSaved(deps, request.idempotency)
      if (E.isLeft(saved)) return void job.resolve(saved)
      if (saved.right) return void job.resolve(E.right({ _tag: 'replayed', saved: await replayedRecord(deps, saved.right) }))
    }
    const planned = await request.plan()
    if (E.isRight(planned)) return { job, plan: planned.right }
    if (planned.left._tag === 'Refusal') return { job, refused: planned.left }
    return void job.resolve(E.left(planned.left))
  } catch (error) {
    return void job.reject(error)
  }
}

/** Jobs of a batch that lost a race (on a write of `losers`' own, or on a shared one): run again from fresh reads, or answered 409 after too many tries. */
function lostRace(jobs: readonly Job[], losers: readonly Job[]): Job[] {
  const again: Job[] = []
  for (const job of jobs) {
    job.lostRaces++
    if (losers.includes(job)) job.ownLostRaces++
    if (job.lostRaces < MAX_ATTEMPTS) again.push(job)
    else job.resolve(E.left(conflict('The wallet changed concurrently too many times; nothing was moved, try again')))
  }
  return again
}

async function readForBatch(deps: CoreDeps, prepared: readonly Prepared[]): Promise<BatchReads> {
  const plans = prepared.flatMap((item) => ('plan' in item ? [item.plan] : []))
  const legs = plans.flatMap(legsOf)
  const wanted = new Map(legs.flatMap((leg) => [leg.debit, leg.credit].map((account) => [accountKey(leg.unit, account), { unit: leg.unit, account }] as const)))
  const publishes = plans.some((plan) => plan.publish !== undefined)
  const shard = rollupShards.get(deps.store) ?? 0
  const [accounts, feedHead, rollup, walletKey, actionSecret] = await Promise.all([
    Promise.all([...wanted].map(async ([key, { unit, account }]) => [key, await loadAccount(deps, unit, account)] as [string, LoadedAccount])),
    publishes ? deps.store.streamHead(WALLET_LEDGER_STREAM) : undefined,
    publishes ? loadRollupShard(deps, shard) : { rollup: EMPTY_ROLLUP, version: null },
    publishes ? pseudonymKey(deps) : null,
    plans.some((plan) => plan.actorUserId !== null) ? pseudonymSecret(deps.keys) : null,
  ])
  return { accounts: new Map(accounts), feedHead, rollup: { shard, ...rollup }, walletKey, actionSecret }
}

/**
 * Taken when this module loads: a turn of the loop is about I/O, not time, so a test that fakes
 * timers afterwards (`vi.useFakeTimers` replaces the global) cannot leave a movement waiting forever.
 */
const nextLoopTurn = globalThis.setImmediate
const yieldTurn = () => new Promise<void>((resolve) => nextLoopTurn(resolve))

/** Microtask turns a batch waits before it is taken; callers reach `enqueue` within a few. */
const GATHER_TURNS = 32

/**
 * Lets movements being sent right now join the batch about to be taken: those of callers just
 * answered, and of a burst still being decoded (a lone caller has nobody to wait for). Without it
 * a batch of one started whenever the queue had run dry, and 32 clients split into small
 * alternating batches, each paying its own commit (on SQLite FULL, 12–36 % fewer transfers/s).
 * Microtask turns rather than a turn of the event loop: a caller that loops on an in-memory Store
 * never gives the loop a turn, and movements waiting for one would wait forever.
 */
async function gatherArrivals(): Promise<void> {
  for (let turn = 0; turn < GATHER_TURNS; turn++) await undefined
}
