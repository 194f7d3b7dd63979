/**
 * Group commit of movements (movement.ts, movement-batch.ts): movements that arrive together are
 * decided in order against one another and written in one Store commit, exactly as if they had run
 * one at a time.
 */
import { isDeepStrictEqual } from 'node:util'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { memoryDeps } from '../../hosts/http/describe-env.js'
import { createValueUser, valueBearer } from '../../conformance/support/value-users.js'
import type { CommitOutcome, Store, Write } from '../../ports/store.js'
import { InjectedFaultError, withFaults } from '../../conformance/fault-injection.js'
import { aroundCommit } from '../../conformance/support/around-commit.js'
import { expectRollupIsSumOfEvents } from '../../conformance/scenarios/value-scenario.js'
import { verifyChain } from '../digest/chain.js'
import { inCanonicalOrder } from '../digest/ordered-json.js'
import { collections } from '../usecases/collections.js'
import type { CoreDeps, Reply, UseCase } from '../usecases/use-case.js'
import { issueValue, trialBalance, valueUseCases, WALLET_LEDGER_STREAM } from './index.js'
import { executeMovement, type MovementPlan } from './movement.js'
import { LOG_LEAF_STREAM } from '../tlog/sequence.js'
import type { PublishedWalletEvent } from './wallet-feed.js'
import { sealArtifact } from '../proof/seal-artifact.js'
import { join } from 'node:path'
import { SqliteStore } from '../../adapters/sqlite/sqlite-store.js'
import { makeTempDir } from '../../conformance/support/temp-dir.js'

let deps: CoreDeps
/** The store under the counting proxy: another process's handle on the same data (its own movement queue). */
let unproxied: Store
let users: string[]
/** The writes of every commit that reached the store, in order, and what each came to. */
let commits: (readonly Write[])[]
let outcomes: CommitOutcome[]

/** The same store, counting its commits. */
function counting(store: Store): Store {
  return aroundCommit(store, async (writes, commit) => {
    commits.push(writes)
    const outcome = await commit(writes)
    outcomes.push(outcome)
    return outcome
  })
}

beforeEach(async () => {
  const base = memoryDeps()
  await base.store.declare(collections)
  users = await Promise.all(['ada', 'bob', 'cy', 'dee'].map((name) => createValueUser(base.store, name)))
  for (const userId of users) expect(E.isRight(await issueValue(base, { userId, unit: 'phi', amount: '100', idempotencyKey: `seed-${userId}` }))).toBe(true)
  commits = []
  outcomes = []
  deps = { ...base, store: counting(base.store) }
  unproxied = base.store
})

const transfer = (from: string, to: string, amount: string, idempotencyKey?: string, via: CoreDeps = deps) =>
  (valueUseCases.createTransfer as unknown as UseCase)({ params: {}, query: {}, body: { recipientUserId: to, unit: { currency: 'phi', amount }, ...(idempotencyKey ? { idempotencyKey } : {}) }, principal: valueBearer(from) }, via)
/** How many movements (ledger entries) each of `commits` carried. */
const movementsIn = (written: readonly (readonly Write[])[]) =>
  written.map((writes) => writes.filter((write) => write.kind === 'put' && write.collection === 'value.entries').length)
const bodyOf = (reply: E.Either<unknown, Reply>) => (E.isRight(reply) ? (reply.right as { body: any }).body : { refused: reply.left })
const balanceOf = async (userId: string) => (await deps.store.get<{ balance: string }>('value.accounts', `phi:wallet:${userId}`))?.value.balance

describe('movements arriving together', () => {
  it('share one commit: transfers between many wallets land in one transaction, conserved', async () => {
    const [ada, bob, cy, dee] = users as [string, string, string, string]
    const replies = await Promise.all([transfer(ada, bob, '10'), transfer(cy, dee, '20'), transfer(bob, cy, '5'), transfer(dee, ada, '1')])
    expect(replies.every(E.isRight)).toBe(true)
    // The first transfer commits alone (nothing was waiting yet); the three that queued behind it share the next commit.
    expect(commits).toHaveLength(2)
    expect(await Promise.all(users.map(balanceOf))).toEqual(['91', '105', '85', '119'])
    const trial = await trialBalance(deps)
    expect(trial.sums).toEqual({ phi: 0n, usd: 0n })
  })

  it('are decided in order against one another: a hot wallet spends what it has, then is refused, exactly as one at a time', async () => {
    const [ada, bob, cy] = users as [string, string, string]
    const replies = await Promise.all([60, 30, 20, 10].map((amount, i) => transfer(ada, i % 2 ? bob : cy, String(amount), `hot-${i}`)))
    expect(replies.map((reply) => E.isRight(reply))).toEqual([true, true, false, true])
    expect(await balanceOf(ada)).toBe('0')
    expect(commits.length).toBeLessThanOrEqual(3)
    // The refused one was decided on what the batch before it left, and wrote nothing.
    expect(bodyOf(replies[2]!).refused).toMatchObject({ _tag: 'Unprocessable' })
  })

  it('with the same idempotency key: one moves value, the other replays its answer', async () => {
    const [ada, bob] = users as [string, string]
    const replies = await Promise.all([transfer(ada, bob, '7', 'same'), transfer(ada, bob, '7', 'same'), transfer(ada, bob, '7', 'same')])
    const bodies = replies.map(bodyOf)
    expect(new Set(bodies.map((body) => body.transfer?.entryId ?? body.entryId ?? JSON.stringify(body))).size).toBe(1)
    expect(await balanceOf(ada)).toBe('93')
  })

  it('publish events whose receipts chain and whose verify paths end with exactly that event', async () => {
    const [ada, bob, cy, dee] = users as [string, string, string, string]
    const replies = await Promise.all([transfer(ada, bob, '1'), transfer(bob, cy, '2'), transfer(cy, dee, '3'), transfer(dee, ada, '4')])
    const events = replies.map((reply) => bodyOf(reply).event as PublishedWalletEvent)
    const feed = await deps.store.readStream(WALLET_LEDGER_STREAM, { limit: 100 })
    expect(verifyChain(null, feed.items)).toBe(true)
    const log = await deps.store.readStream(LOG_LEAF_STREAM, { limit: 1000 })
    for (const event of events) {
      const stored = feed.items.find((entry) => entry.sequence === event.receipt.sequence)!
      expect(stored.head).toBe(event.receipt.head)
      expect(log.items.filter((entry) => isDeepStrictEqual(entry.value, event.receipt.log.leaf))).toHaveLength(1)
      const query = Object.fromEntries(new URLSearchParams(event.proofBundle.verifyPath.split('?')[1]))
      const page = await deps.store.readStream(WALLET_LEDGER_STREAM, { after: query.cursor, limit: Number(query.limit) })
      expect(page.items.at(-1)!.sequence).toBe(event.receipt.sequence)
    }
  })

  it('learn their leaves\' log positions from the commit: each movement\'s own leaf and its plan\'s extra leaves', async () => {
    const [ada, bob, cy, dee] = users as [string, string, string, string]
    const plan = (from: string, to: string, i: number): MovementPlan => ({
      kind: 'transfer', unit: 'phi', amount: 1n, debit: `wallet:${from}`, credit: `wallet:${to}`, actorUserId: null,
      leaves: [{ kind: 'test.extra', movement: i }, { kind: 'test.extra', movement: i, second: true }],
      reply: () => ({ ok: true }),
    })
    const results = await Promise.all([[ada, bob], [cy, dee], [bob, cy], [dee, ada]].map(([from, to], i) => executeMovement(deps, { plan: async () => E.right(plan(from!, to!, i)) })))
    // The first commits alone; the other three share the next commit, their leaves interleaved in one append run.
    expect(movementsIn(commits)).toEqual([1, 3])
    const log = (await deps.store.readStream(LOG_LEAF_STREAM, { limit: 1000 })).items
    for (const [i, result] of results.entries()) {
      if (E.isLeft(result) || result.right._tag !== 'committed') throw new Error('not committed')
      const [own, extra, second] = result.right.leafIndexes.map((index) => log[index]!.value)
      expect(own).toMatchObject({ kind: 'cairn.value_entry', entryId: result.right.committed.entry.entryId })
      expect(extra).toEqual({ kind: 'test.extra', movement: i })
      expect(second).toEqual({ kind: 'test.extra', movement: i, second: true })
    }
  })

  it('hash what they write in RFC 8785 member order already, so no digest needs a reordered copy', async () => {
    expect(E.isRight(await transfer(users[0]!, users[1]!, '1', 'ordered'))).toBe(true)
    const writes = commits.at(-1)!
    const hashed = writes.flatMap((write) => (write.kind === 'put' && write.collection === 'value.entries' ? [write.value] : write.kind === 'append' || write.kind === 'appendNext' ? [write.value] : []))
    // The entry, the log leaf, the wallet event and the action event.
    expect(hashed).toHaveLength(4)
    for (const value of hashed) expect(inCanonicalOrder(value), JSON.stringify(value)).toBe(true)
  })

  it('fail together when their shared commit fails, before or after the store applied it, and complete exactly once on retry', async () => {
    const [ada, bob, cy, dee] = users as [string, string, string, string]
    for (const when of ['before', 'after'] as const) {
      // The second commit is the shared one: the first transfer commits alone, the others queue behind it.
      const faulty: CoreDeps = { ...deps, store: withFaults(deps.store, [{ method: 'commit', call: 2, when }]) }
      const keys = [`${when}-1`, `${when}-2`, `${when}-3`, `${when}-4`]
      const pairs = [[ada, bob], [cy, dee], [bob, cy], [dee, ada]] as const
      const settled = await Promise.allSettled(pairs.map(([from, to], i) => transfer(from, to, '1', keys[i], faulty)))
      expect(settled[0]!.status).toBe('fulfilled')
      for (const outcome of settled.slice(1)) expect(outcome).toMatchObject({ status: 'rejected', reason: expect.any(InjectedFaultError) })
      const retried = await Promise.all(pairs.map(([from, to], i) => transfer(from, to, '1', keys[i])))
      expect(retried.every(E.isRight)).toBe(true)
    }
    // Each of the eight transfers moved value once: every wallet paid 2 and received 2.
    expect(await Promise.all(users.map(balanceOf))).toEqual(['100', '100', '100', '100'])
    expect((await trialBalance(deps)).sums).toEqual({ phi: 0n, usd: 0n })
  })
})

describe('a batch that loses a race to another process', () => {
  const movesValue = (writes: readonly Write[]) => writes.some((write) => write.kind === 'put' && write.collection === 'value.entries')
  const writesAccountOf = (userId: string) => (writes: readonly Write[]) => writes.some((write) => write.kind === 'put' && write.collection === 'value.accounts' && write.key === `phi:wallet:${userId}`)

  /** Runs `meanwhile` (another process, writing through its own Store handle) before each of the first `times` commits that `raced` picks. */
  function racedBy(times: number, raced: (writes: readonly Write[]) => boolean, meanwhile: () => Promise<unknown>): CoreDeps {
    let left = times
    const store = aroundCommit(deps.store, async (writes, commit) => {
      if (left > 0 && raced(writes)) {
        left--
        await meanwhile()
      }
      return commit(writes)
    })
    return { ...deps, store }
  }
  /** How many movements each commit that succeeded carried, in order. */
  const movementsPerCommit = () => movementsIn(commits.filter((_, i) => outcomes[i]!.ok)).filter((entries) => entries > 0)

  it('never on the log: a seal elsewhere between its reads and its commit costs it nothing', async () => {
    const [ada, bob, cy, dee] = users as [string, string, string, string]
    const elsewhere = { ...deps, store: unproxied }
    let seals = 0
    const via = racedBy(6, movesValue, async () => {
      const sealed = await sealArtifact(elsewhere, { bytes: new TextEncoder().encode(`elsewhere ${seals++}`), filename: 'f.txt', mimeType: 'text/plain' }, { sealKind: 'integrity-seal', actorUserId: null })
      expect(E.isRight(sealed)).toBe(true)
    })
    const replies = await Promise.all([[ada, bob], [cy, dee], [bob, cy], [dee, ada]].map(([from, to], i) => transfer(from!, to!, '1', `log-race-${i}`, via)))
    expect(replies.every(E.isRight)).toBe(true)
    // Both batches took the log's next positions after the seals: no commit lost a race.
    expect(seals).toBe(2)
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([])
    expect(movementsPerCommit()).toEqual([1, 3])
    const log = await unproxied.readStream(LOG_LEAF_STREAM, { limit: 1000 })
    expect(verifyChain(null, log.items)).toBe(true)
    for (const reply of replies) {
      const { leaf } = (bodyOf(reply).event as PublishedWalletEvent).receipt.log
      expect(log.items.filter((entry) => isDeepStrictEqual(entry.value, leaf))).toHaveLength(1)
    }
    expect((await trialBalance(deps)).sums).toEqual({ phi: 0n, usd: 0n })
  })

  it('never on the feed: movements elsewhere between its reads and its commit cost it one race at most, on the rollup shard both hosts began on', async () => {
    const [ada, bob, cy, dee] = users as [string, string, string, string]
    const elsewhere = { ...deps, store: unproxied }
    const [eve, fay] = await Promise.all(['eve', 'fay'].map((name) => createValueUser(unproxied, name))) as [string, string]
    expect(E.isRight(await issueValue(elsewhere, { userId: eve, unit: 'phi', amount: '100', idempotencyKey: 'seed-eve' }))).toBe(true)
    const via = racedBy(6, movesValue, async () => expect(E.isRight(await transfer(eve, fay, '1', undefined, elsewhere))).toBe(true))
    const keys = [0, 1, 2, 3].map((i) => `feed-race-${i}`)
    const pairs = [[ada, bob], [cy, dee], [bob, cy], [dee, ada]] as const
    const replies = await Promise.all(pairs.map(([from, to], i) => transfer(from, to, '1', keys[i], via)))
    expect(replies.every(E.isRight)).toBe(true)
    // The only race lost was on the rollup shard both hosts started on; this host then took another.
    const lost = outcomes.flatMap((outcome, i) => (outcome.ok ? [] : [commits[i]![outcome.conflict.writeIndex]!]))
    expect(lost).toMatchObject([{ kind: 'put', collection: 'value.rollup', key: 'wallet-ledger' }])
    // The first transfer lost alone; the three that queued meanwhile joined it when it was decided again.
    expect(movementsPerCommit()).toEqual([4])

    // Each event, appended after another host's, carries the receipt the feed serves for it, with a page that holds exactly it.
    const feed = (await unproxied.readStream(WALLET_LEDGER_STREAM, { limit: 1000 })).items
    expect(verifyChain(null, feed)).toBe(true)
    const served = (await (valueUseCases.getWalletLedger as unknown as UseCase)({ params: {}, query: { limit: 1000 }, body: undefined, principal: null } as never, deps))
    const servedEvents = bodyOf(served).events as PublishedWalletEvent[]
    for (const reply of replies) {
      const event = bodyOf(reply).event as PublishedWalletEvent
      expect(event).toEqual(servedEvents.find((candidate) => candidate.id === event.id))
      const query = Object.fromEntries(new URLSearchParams(event.proofBundle.verifyPath.split('?')[1]))
      const page = await unproxied.readStream(WALLET_LEDGER_STREAM, { ...(query.cursor ? { after: query.cursor } : {}), limit: Number(query.limit) })
      expect(page.items.map((entry) => entry.sequence)).toEqual([event.receipt.sequence])
    }
    // A retry with the same key replays the answer exactly: its event found in the feed after where its batch read.
    const again = await Promise.all(pairs.map(([from, to], i) => transfer(from, to, '1', keys[i])))
    expect(again.map(bodyOf)).toEqual(replies.map(bodyOf))
    // Two hosts, two rollup shards: folded, they are the sum of every event.
    const shards = await Promise.all(['wallet-ledger', ...[1, 2, 3, 4, 5, 6, 7].map((n) => `wallet-ledger.${n}`)].map((key) => unproxied.get('value.rollup', key)))
    expect(shards.filter(Boolean)).toHaveLength(2)
    await expectRollupIsSumOfEvents(deps)
    expect((await trialBalance(deps)).sums).toEqual({ phi: 0n, usd: 0n })
  })

  it('answer an error when the read placing their event after another host\'s fails, and the retry with the key replays it once', async () => {
    const [ada, bob, cy, dee] = users as [string, string, string, string]
    const elsewhere = { ...deps, store: unproxied }
    // The first try loses on the rollup shard both hosts begin on; the second commits right behind the other host's event.
    const via = racedBy(2, movesValue, async () => expect(E.isRight(await transfer(cy, dee, '1', undefined, elsewhere))).toBe(true))
    // The commit applies; the read of the entry before its event (the other host's) is what fails.
    const faulty = { ...via, store: withFaults(via.store, [{ method: 'readStream', call: 1, when: 'before' }]) }
    // A refusal decided in the same batch holds no event: it is answered, not failed with the read.
    const [placed, refused] = await Promise.allSettled([transfer(ada, bob, '5', 'placed-after-fault', faulty), transfer(dee, cy, '1000', undefined, faulty)])
    expect(placed).toMatchObject({ status: 'rejected', reason: expect.any(InjectedFaultError) })
    expect(refused).toMatchObject({ status: 'fulfilled', value: E.left(expect.objectContaining({ _tag: 'Unprocessable' })) })
    expect(await balanceOf(ada)).toBe('95')
    const retried = bodyOf(await transfer(ada, bob, '5', 'placed-after-fault'))
    expect(await balanceOf(ada)).toBe('95')
    const query = Object.fromEntries(new URLSearchParams((retried.event as PublishedWalletEvent).proofBundle.verifyPath.split('?')[1]))
    const page = await unproxied.readStream(WALLET_LEDGER_STREAM, { after: query.cursor, limit: Number(query.limit) })
    expect(page.items.map((entry) => (entry.value as { id: string }).id)).toEqual([retried.event.id])
    expect(retried.transferId).toEqual(expect.stringMatching(/^ent_/))
    expect((await trialBalance(deps)).sums).toEqual({ phi: 0n, usd: 0n })
  })

  it('replay an answer whose event landed past the first page after where its batch read', async () => {
    const [ada, bob, cy, dee] = users as [string, string, string, string]
    const elsewhere = { ...deps, store: unproxied }
    const FAR = 40
    // Both tries meet FAR events of another host: the first loses on the rollup shard, the second commits behind them.
    const via = racedBy(2, movesValue, async () => {
      for (let i = 0; i < FAR; i++) expect(E.isRight(await transfer(cy, dee, '1', undefined, elsewhere))).toBe(true)
    })
    const first = bodyOf(await transfer(ada, bob, '5', 'far-after', via))
    const saved = await unproxied.get<{ answerEvent: { after: string } }>('value.idempotency', `transfer:${ada}:far-after`)
    const after = await unproxied.readStream(WALLET_LEDGER_STREAM, { after: saved!.value.answerEvent.after, limit: 1000 })
    expect(after.items.findIndex((entry) => (entry.value as { id: string }).id === first.event.id)).toBeGreaterThanOrEqual(FAR)
    expect(bodyOf(await transfer(ada, bob, '5', 'far-after'))).toEqual(first)
    expect(await balanceOf(ada)).toBe('95')
  })

  it('on one wallet (spent elsewhere), sends that wallet\'s movement to run alone and commits the others together', async () => {
    const [ada, bob, cy, dee] = users as [string, string, string, string]
    const elsewhere = { ...deps, store: unproxied }
    const via = racedBy(2, writesAccountOf(ada), async () => expect(E.isRight(await transfer(ada, bob, '1', undefined, elsewhere))).toBe(true))
    // The first transfer commits alone (nothing was waiting yet); ada's waits with the others for the next batch.
    const replies = await Promise.all([[bob, cy], [ada, dee], [cy, dee], [dee, bob]].map(([from, to], i) => transfer(from!, to!, '1', `wallet-race-${i}`, via)))
    expect(replies.every(E.isRight)).toBe(true)
    expect(outcomes.filter((outcome) => !outcome.ok).map((outcome) => !outcome.ok && outcome.conflict._tag)).toEqual(['VersionMismatch', 'VersionMismatch'])
    // ada's movement lost on its own account twice and ran alone; the two beside it committed together.
    expect(movementsPerCommit().slice().sort()).toEqual([1, 1, 2])
    expect(await balanceOf(ada)).toBe('97')
    expect((await trialBalance(deps)).sums).toEqual({ phi: 0n, usd: 0n })
  })
})

describe('movements while seals stream into the log', () => {
  it('never lose their commit to a seal of the same process appending meanwhile', async () => {
    const SEALS_PER_CALLER = 300
    let sealing = true
    let seals = 0
    const sealLoop = async (caller: number) => {
      // Bounded, so that where transfers starve while seals stream (batches that pinned the log's
      // head, or a queue that waits for a turn of the event loop these callers never give) the run
      // ends and the assertions say why.
      for (let i = 0; sealing && i < SEALS_PER_CALLER; i++) {
        const sealed = await sealArtifact(deps, { bytes: new TextEncoder().encode(`file ${caller}-${i}`), filename: 'f.txt', mimeType: 'text/plain' }, { sealKind: 'integrity-seal', actorUserId: null })
        if (E.isRight(sealed)) seals++
      }
    }
    const sealers = [0, 1, 2, 3].map(sealLoop)
    const replies = []
    for (let round = 0; round < 5; round++) {
      replies.push(...await Promise.all(Array.from({ length: 8 }, (_, i) => transfer(users[i % 4]!, users[(i + 1) % 4]!, '1', `race-${round}-${i}`))))
    }
    sealing = false
    await Promise.all(sealers)

    expect(replies.filter(E.isLeft)).toEqual([])
    expect(seals).toBeGreaterThan(0)
    // The transfers were done while the sealers still had seals to make, not after they gave up.
    expect(seals).toBeLessThan(4 * SEALS_PER_CALLER)
    // Every movement batch committed at its first try: no commit of the run lost a race.
    const movementCommits = commits.filter((writes) => writes.some((write) => 'stream' in write && write.stream === WALLET_LEDGER_STREAM))
    expect(movementCommits.length).toBeGreaterThanOrEqual(5)
    expect(movementCommits.length).toBeLessThanOrEqual(40)
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([])
    const trial = await trialBalance(deps)
    expect(trial.sums.phi).toBe(0n)
    const leaves = await deps.store.readStream(LOG_LEAF_STREAM, { limit: 1000 })
    expect(verifyChain(null, leaves.items)).toBe(true)
    expect(leaves.items.length).toBeGreaterThanOrEqual(40 + seals)
  })
})

describe('callers sending side by side', () => {
  it.each([['memory'], ['sqlite']] as const)('on %s: eight clients, each sending its next transfer once answered, share one commit a round', async (storeName) => {
    const dir = await makeTempDir('cairn-gather-')
    const store = storeName === 'sqlite' ? new SqliteStore(join(dir.path, 'store.sqlite')) : memoryDeps().store
    try {
      const base = { ...memoryDeps(), store }
      await store.declare(collections)
      const wallets = await Promise.all(Array.from({ length: 8 }, (_, i) => createValueUser(store, `client${i}`)))
      for (const userId of wallets) expect(E.isRight(await issueValue(base, { userId, unit: 'phi', amount: '100', idempotencyKey: `seed-${userId}` }))).toBe(true)
      commits = []
      outcomes = []
      const via = { ...base, store: counting(store) }
      // A client's own layers between an answer and its next transfer (here two async functions)
      // bring it back a few microtask turns after the queue could take its next batch.
      const send = async (from: number, key: string) => E.isRight(await transfer(wallets[from]!, wallets[(from + 1) % 8]!, '1', key, via))
      const ROUNDS = 10
      const client = async (from: number) => {
        for (let round = 0; round < ROUNDS; round++) expect(await send(from, `gather-${from}-${round}`)).toBe(true)
      }
      await Promise.all(wallets.map((_, from) => client(from)))
      // The first transfer finds nobody sending beside it and commits alone; then one batch a round.
      // Without the gathering, the clients split into two alternating batches of four (20 commits).
      expect(commits.length).toBeLessThanOrEqual(ROUNDS + 2)
      expect((await trialBalance(via)).sums).toEqual({ phi: 0n, usd: 0n })
    } finally {
      if (store instanceof SqliteStore) await store.close()
      await dir.remove()
    }
  })

  it('on memory: eight clients whose transfers each arrive in their own turn of the event loop, as requests over HTTP do, share commits', async () => {
    const wallets = await Promise.all(Array.from({ length: 8 }, (_, i) => createValueUser(deps.store, `remote${i}`)))
    for (const userId of wallets) expect(E.isRight(await issueValue(deps, { userId, unit: 'phi', amount: '100', idempotencyKey: `seed-${userId}` }))).toBe(true)
    commits = []
    // setImmediate stands for the socket: every client's next request reaches the server in a later
    // turn of the loop than the answer it waited for, and the eight of a round in the same one.
    const overTheWire = () => new Promise<void>((resolve) => setImmediate(resolve))
    const ROUNDS = 10
    const client = async (from: number) => {
      for (let round = 0; round < ROUNDS; round++) {
        await overTheWire()
        expect(E.isRight(await transfer(wallets[from]!, wallets[(from + 1) % 8]!, '1', `wire-${from}-${round}`))).toBe(true)
      }
    }
    await Promise.all(wallets.map((_, from) => client(from)))
    // Each committed alone before (80 commits): an in-memory commit ends within the turn that took it.
    expect(commits.length).toBeLessThanOrEqual(ROUNDS + 2)
    expect((await trialBalance(deps)).sums).toEqual({ phi: 0n, usd: 0n })
  })

  it('never leave a movement waiting for a turn of the loop that faked timers would withhold', async () => {
    const [ada, bob, cy, dee] = users as [string, string, string, string]
    // Callers that came by turns of the loop: the next batch would wait for one.
    for (const [from, to] of [[ada, bob], [cy, dee]] as const) {
      await new Promise((resolve) => setImmediate(resolve))
      expect(E.isRight(await transfer(from, to, '1'))).toBe(true)
    }
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve))
    vi.useFakeTimers()
    try {
      const replies = await Promise.all([transfer(ada, cy, '1'), transfer(bob, dee, '1')])
      expect(replies.every(E.isRight)).toBe(true)
      expect(E.isRight(await transfer(dee, ada, '1'))).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })
})
