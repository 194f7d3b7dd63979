/**
 * One batch of movements decided together and written in ONE Store commit, as TigerBeetle batches
 * transfers: the accounts and the host's rollup shard are read once, each movement is decided
 * against the state the movements before it left (so a hot wallet still moves one movement at a
 * time, in order), and the commit carries every balance once, guarded by the version it was read
 * at. The log leaves, the feed events and the action events take the streams' next positions
 * (`appendNext`): nothing a movement decides names a position, so seals and other hosts' movements
 * appending meanwhile never make a batch lose its commit (core/value/feed-place.ts gives each
 * event its place once committed). Movements from many wallets thus share one transaction and one
 * fsync, and hosts share nothing a batch writes but the accounts their movements move.
 *
 * Each decision names its owner (whoever asked for it), and the batch remembers whose every write
 * is, so a commit that loses a race says whose it lost: the movements that wrote the document that
 * changed, or nobody in particular when it was the rollup shard every batch of the host writes.
 */
import type { Json, StreamHead, Write } from '../../ports/store.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import { chainHead, entryDigestOf } from '../digest/chain.js'
import { timeOrderedId } from '../encoding/time-ordered-id.js'
import { actionLedger, toActionEvent } from '../ledger/action-ledger.js'
import { leafAppend, leafEntryBytes, type LogLeaf } from '../tlog/sequence.js'
import { kaiMomentAt } from '../time/kai.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { toDecimal, type Unit } from './amount.js'
import { accountKey, mayGoNegative, valueAccounts, type AccountRecord, type LoadedAccount } from './accounts.js'
import { saveWrite, type IdempotencyClaim, type IdempotencyRecord } from './idempotency.js'
import { valueEntries, type LedgerEntry } from './ledger-entry.js'
import { entryLeafOf, legsOf, refusal, type MovementFacts, type MovementPlan, type Refusal } from './movement-plan.js'
import { walletPseudonym } from './pseudonym.js'
import {
  addToRollup, eventAmounts, rollupWrite, walletEventLeaf, walletLedger, type WalletLedgerEventValue, type WalletLedgerRollup,
} from './wallet-feed.js'

/** What a batch reads once, before deciding any of its movements. */
export interface BatchReads {
  /** Every account a movement of the batch touches, keyed by `accountKey`. */
  readonly accounts: ReadonlyMap<string, LoadedAccount>
  /** The feed's head before the batch: its events land after it (a saved answer's event is looked for from there). */
  readonly feedHead: StreamHead | undefined
  /** The rollup shard this host adds its events to. */
  readonly rollup: { readonly shard: number; readonly rollup: WalletLedgerRollup; readonly version: number | null }
  /** The wallet-ledger pseudonym key; null when no movement of the batch is published. */
  readonly walletKey: Uint8Array | null
  /** The action-ledger pseudonym secret; null when no movement of the batch has an actor. */
  readonly actionSecret: Uint8Array | null
}

export interface DecidedMovement {
  readonly _tag: 'decided'
  readonly facts: MovementFacts
  /** The answer as decided, without the published event (`publish.inReply` adds it once placed). */
  readonly reply: Json
  /** Where the movement's leaf and then `plan.leaves` stand among the batch's leaves (`logEntriesOf` the commit's `appended` gives their log entries). */
  readonly leafOffsets: readonly number[]
  /** Where its event stands among the batch's feed events (null: not published), and whether the answer ends with it. */
  readonly event: { readonly offset: number; readonly inReply: boolean } | null
}

/** The movement writes a document another movement of this batch writes: it waits for the next batch. */
export const DEFERRED = { _tag: 'deferred' } as const

export class MovementBatch<Owner> {
  private readonly accounts: Map<string, LoadedAccount>
  private readonly writes: Write[] = []
  /** Who asked for each of `writes`. */
  private readonly writers: Owner[] = []
  /** Who moved each account, by `accountKey`. */
  private readonly movers = new Map<string, Owner[]>()
  /** The accounts whose balances lead the writes `commitWrites` returned last, in order. */
  private balanceKeys: readonly string[] = []
  private readonly leaves: LogLeaf[] = []
  /** The stored members of every event the batch publishes, in order. */
  readonly events: WalletLedgerEventValue[] = []
  /** Collection and key of every document written so far (idempotency records, `alsoWrite`s). */
  private readonly written = new Set<string>()
  private rollup: WalletLedgerRollup
  /** Where the rollup shard's write stands in the writes `commitWrites` returned last (-1: none). */
  private rollupIndex = -1

  constructor(private readonly deps: CoreDeps, private readonly reads: BatchReads) {
    this.accounts = new Map(reads.accounts)
    this.rollup = reads.rollup.rollup
  }

  /**
   * Decides `plan` after the movements already in the batch. A refusal or a deferral leaves the
   * batch as it was; so does an exception (an oversized leaf, an unbalanced plan), which belongs to
   * this movement alone.
   */
  decide(plan: MovementPlan, idempotency: IdempotencyClaim | undefined, owner: Owner): DecidedMovement | Refusal | typeof DEFERRED {
    const legs = legsOf(plan)
    for (const leg of legs) if (leg.amount <= 0n || leg.debit === leg.credit) throw new RangeError('A movement needs a positive amount between two accounts')
    if (plan.exchange && plan.exchange.unit === plan.unit) throw new RangeError('An exchange leg moves the other unit')
    const loaded = legs.map((leg) => [this.account(leg.unit, leg.debit), this.account(leg.unit, leg.credit)] as const)
    for (const [index, leg] of legs.entries()) {
      if (!mayGoNegative(leg.debit) && loaded[index]![0].balance < leg.amount) {
        return refusal('insufficient_balance', `The ${leg.unit === 'phi' ? 'Φ' : 'USD'} balance is lower than the amount; nothing was moved`)
      }
    }
    if (plan.expectedDebitHead !== undefined && loaded[0]![0].record.head !== plan.expectedDebitHead) {
      return refusal('prior_head_mismatch', 'expectedPriorHead is not the current head of the account; nothing was moved')
    }

    const entry = this.entryOf(plan, idempotency)
    const entryDigest = entryDigestOf(entry)
    const movedLegs = legs.map((leg, index) => {
      const [debit, credit] = loaded[index]!
      const after = [moved(debit, -leg.amount, entryDigest, entry.createdAt), moved(credit, leg.amount, entryDigest, entry.createdAt)] as const
      assertConserved([[debit, after[0]], [credit, after[1]]])
      return after
    })
    const firstLeafOffset = this.leaves.length
    const published = plan.publish ? this.publication(plan, entry) : null
    const leaves: LogLeaf[] = [published ? published.leaf : entryLeafOf(entry.entryId, entryDigest), ...(plan.leaves ?? [])]
    // Refuses an oversized leaf of the plan's before anything is decided (the movement's own leaf is a few fixed-size members).
    for (const leaf of plan.leaves ?? []) leafEntryBytes(leaf)
    const facts: MovementFacts = { entry, entryDigest, debitAccount: movedLegs[0]![0], creditAccount: movedLegs[0]![1] }
    const reply = plan.reply(facts)
    const inReply = plan.publish?.inReply === true
    // An answer that ends with the event is saved without it, naming it: a replay finds it in the feed.
    const answerEvent = inReply ? { answerEvent: { id: published!.value.id, after: this.reads.feedHead?.cursor ?? null } } : {}
    const own: Write[] = [
      valueEntries.put(entry.entryId, entry, { kind: 'absent' }),
      ...(idempotency ? [saveWrite(idempotency, { status: 'committed', reply, entryId: entry.entryId, createdAt: entry.createdAt, ...answerEvent })] : []),
      ...(plan.alsoWrite?.(entry) ?? []),
    ]
    if (!this.claim(own)) return DEFERRED

    // Decided: the batch now stands after this movement.
    for (const [index, leg] of legs.entries()) {
      const [debit, credit] = loaded[index]!
      this.accounts.set(accountKey(leg.unit, leg.debit), { ...debit, record: movedLegs[index]![0], balance: debit.balance - leg.amount })
      this.accounts.set(accountKey(leg.unit, leg.credit), { ...credit, record: movedLegs[index]![1], balance: credit.balance + leg.amount })
      for (const account of [leg.debit, leg.credit]) this.moverList(accountKey(leg.unit, account)).push(owner)
    }
    this.push(own, owner)
    this.leaves.push(...leaves)
    const event = published ? { offset: this.events.length, inReply } : null
    if (published) {
      this.events.push(published.value)
      this.rollup = addToRollup(this.rollup, published.value)
    }
    const actionSecret = entry.actorUserId === null ? new Uint8Array(0) : this.reads.actionSecret!
    const action = toActionEvent({ kind: 'wallet', action: entry.kind, actorUserId: entry.actorUserId }, this.deps, actionSecret)
    this.push([actionLedger.appendNext(action)], owner)
    return { _tag: 'decided', facts, reply, leafOffsets: leaves.map((_, i) => firstLeafOffset + i), event }
  }

  /** Saves a refusal's zero-write answer under its key in this batch's commit; false: another movement of the batch holds the key. */
  saveRefusal(idempotency: IdempotencyClaim, record: Omit<IdempotencyRecord, 'key' | 'requestDigest'>, owner: Owner): boolean {
    const write = saveWrite(idempotency, record)
    if (!this.claim([write])) return false
    this.push([write], owner)
    return true
  }

  /** Every write of the decided movements; empty when nothing was decided. */
  commitWrites(): readonly Write[] {
    if (this.writes.length === 0) return []
    const original = this.reads.accounts
    const balances: Write[] = []
    const balanceKeys: string[] = []
    for (const [key, account] of this.accounts) {
      const before = original.get(key)!
      if (account === before) continue
      balances.push(valueAccounts.put(key, account.record, unchangedSince(before.version)))
      balanceKeys.push(key)
    }
    this.balanceKeys = balanceKeys
    // The log leaves, the feed events and the rollup shard are every movement's; only the shard can lose a race.
    const shared = [...this.leaves.map(leafAppend), ...this.events.map(walletLedger.appendNext)]
    const writes = [...balances, ...this.writes, ...shared]
    this.rollupIndex = -1
    if (this.events.length > 0) {
      this.rollupIndex = writes.length
      writes.push(rollupWrite(this.reads.rollup.shard, this.rollup, this.reads.rollup.version))
    }
    return writes
  }

  /** The write at `writeIndex` of the last `commitWrites` is the rollup shard's. */
  isRollupWrite(writeIndex: number): boolean {
    return writeIndex === this.rollupIndex
  }

  /**
   * Whose write of the last `commitWrites` lost the race at `writeIndex`: the movements that wrote
   * that document, or none when it was a write every movement of the batch shares. Worked out only
   * when a race was lost, from the order `commitWrites` lays the writes out in: balances, the
   * movements' own writes, the shared ones.
   */
  ownersOf(writeIndex: number): readonly Owner[] {
    if (writeIndex < this.balanceKeys.length) return this.movers.get(this.balanceKeys[writeIndex]!)!
    const own = this.writers[writeIndex - this.balanceKeys.length]
    return own === undefined ? [] : [own]
  }

  private push(writes: readonly Write[], owner: Owner): void {
    for (const write of writes) {
      this.writes.push(write)
      this.writers.push(owner)
    }
  }

  private moverList(key: string): Owner[] {
    let list = this.movers.get(key)
    if (list === undefined) this.movers.set(key, (list = []))
    return list
  }

  private account(unit: Unit, account: string): LoadedAccount {
    const loaded = this.accounts.get(accountKey(unit, account))
    if (!loaded) throw new Error(`The batch did not load the account ${accountKey(unit, account)}`)
    return loaded
  }

  /** Marks the documents `writes` put or delete as this batch's; false (and nothing marked) when one is already. */
  private claim(writes: readonly Write[]): boolean {
    const marks = writes.flatMap((write) => (write.kind === 'put' || write.kind === 'delete' ? [documentMark(write.collection, write.key)] : []))
    if (marks.some((mark) => this.written.has(mark))) return false
    if (marks.some((mark) => mark.startsWith(documentMark(valueAccounts.name, '')))) throw new Error('A movement moves balances only through its legs')
    for (const mark of marks) this.written.add(mark)
    return true
  }

  private entryOf(plan: MovementPlan, idempotency: IdempotencyClaim | undefined): LedgerEntry {
    const now = this.deps.clock.now()
    const actorUserId = plan.actorUserId
    const amount = toDecimal(plan.amount)
    const createdAt = new Date(now).toISOString()
    const { credit, debit, kind, unit } = plan
    // Time-ordered: a batch's entries land together in the store's key index (time-ordered-id.ts).
    const entryId = timeOrderedId('ent_', now, this.deps.entropy)
    const idempotencyKey = idempotency?.key ?? null
    const memo = plan.memo ?? null
    const pulse = kaiMomentAt(now).pulse
    const schema = 'cairn.value_ledger_entry.v1'
    // Members in RFC 8785 order, so the entry's digest is written natively (canonical-json.ts), and
    // as literals: V8 builds an object with a spread in it on a slow path. `exchange` is present only
    // on exchanges, so every other entry's digest is what it always was.
    if (!plan.exchange) return { actorUserId, amount, createdAt, credit, debit, entryId, idempotencyKey, kind, memo, pulse, schema, unit }
    const exchange = { amount: toDecimal(plan.exchange.amount), credit: plan.exchange.credit, debit: plan.exchange.debit, unit: plan.exchange.unit }
    return { actorUserId, amount, createdAt, credit, debit, entryId, exchange, idempotencyKey, kind, memo, pulse, schema, unit }
  }

  /** The public event of `entry` and its log leaf; its place in the feed is the Store's to give at commit. */
  private publication(plan: MovementPlan, entry: LedgerEntry): { value: WalletLedgerEventValue; leaf: LogLeaf } {
    const publishAs = plan.publish!
    const key = this.reads.walletKey!
    const { amountPhiMicro, amountUsdCents } = eventAmounts(plan.unit, plan.amount, plan.exchange)
    // Members in RFC 8785 order, so the event's digest is written natively (canonical-json.ts); no
    // spread (V8 builds an object with one on a slow path).
    const value: WalletLedgerEventValue = {
      amountPhiMicro,
      amountUsdCents,
      createdAt: entry.createdAt,
      fromActor: walletPseudonym(key, publishAs.fromUserId),
      id: `wle_${entry.entryId.slice(4)}`,
      kind: publishAs.kind,
      pulse: entry.pulse,
      toActor: walletPseudonym(key, publishAs.toUserId),
    }
    return { value, leaf: walletEventLeaf(value.id, entryDigestOf(value)) }
  }
}

const documentMark = (collection: string, key: string) => `${collection}\u0000${key}`

function moved(account: LoadedAccount, delta: bigint, entryDigest: string, updatedAt: string): AccountRecord {
  return {
    account: account.record.account,
    unit: account.record.unit,
    balance: toDecimal(account.balance + delta),
    head: chainHead(account.record.head, entryDigest),
    entries: account.record.entries + 1,
    updatedAt,
  }
}

/** Double entry: what the movement takes from accounts it gives to others, exactly. */
function assertConserved(changes: readonly (readonly [LoadedAccount, AccountRecord])[]): void {
  const net = changes.reduce((sum, [before, after]) => sum + BigInt(after.balance) - before.balance, 0n)
  if (net !== 0n) throw new Error(`Unbalanced movement: accounts would change by ${net} in total`)
}
