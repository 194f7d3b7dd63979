/**
 * The one way value moves: load the two accounts, decide, and write in ONE atomic Store commit the
 * new balances (guarded by version expectations), the ledger entry, the public feed event and its
 * rollup, the action ledger `wallet` event, the entry's transparency-log leaf and the idempotency
 * record — or nothing. A lost race
 * (another commit changed an account, the rollup or a stream head first) is decided again from
 * fresh reads, up to `MAX_ATTEMPTS` times; after that the caller gets 409 and nothing was written.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Json, Write } from '../../ports/store.js'
import { chainHead, entryDigestOf } from '../digest/chain.js'
import { toBase64Url } from '../encoding/base64url.js'
import { conflict, type DomainError } from '../errors/domain-error.js'
import { ACTION_LEDGER_STREAM, pseudonymSecret, toActionEvent } from '../ledger/action-ledger.js'
import { chainedAppends, leafEntryBytes, LOG_LEAF_STREAM, type LogLeaf } from '../tlog/sequence.js'
import { kaiMomentAt } from '../time/kai.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { toDecimal, type Unit } from './amount.js'
import { accountKey, accountValue, loadAccount, mayGoNegative, VALUE_ACCOUNTS, type AccountRecord, type LoadedAccount } from './accounts.js'
import { findSaved, saveWrite, type IdempotencyClaim, type IdempotencyRecord } from './idempotency.js'
import { VALUE_ENTRIES, type EntryKind, type LedgerEntry } from './ledger-entry.js'
import { pseudonymKey, walletPseudonym } from './pseudonym.js'
import {
  eventAmounts, loadRollup, publishedEvent, publishWrites, WALLET_LEDGER_STREAM, type PublishedWalletEvent, type WalletEventKind, type WalletLedgerEventValue,
} from './wallet-feed.js'

export const MAX_ATTEMPTS = 64

/** One balanced movement of `amount` from `debit` to `credit`. */
export interface MovementPlan {
  readonly kind: EntryKind
  readonly unit: Unit
  readonly amount: bigint
  readonly debit: string
  readonly credit: string
  readonly actorUserId: string | null
  readonly memo?: string
  /**
   * A second leg in the other unit, moved in the same entry and commit: what was paid for the
   * first (a checkout buying Φ moves the paid cents from the processor's clearing account to
   * `sales:phi` while Φ enters the wallet). Each unit still balances on its own.
   */
  readonly exchange?: MovementLeg
  /** Published in the public wallet ledger with these users' pseudonyms; absent: not published there. */
  readonly publish?: { readonly kind: WalletEventKind; readonly fromUserId: string | null; readonly toUserId: string | null }
  /** The debit account's head must be this (Reserve/Settlement `expectedPriorHead`). */
  readonly expectedDebitHead?: string
  /** Writes that belong to the same fact (a checkout session marked complete, a note). */
  alsoWrite?(entry: LedgerEntry): readonly Write[]
  /** More transparency-log leaves sequenced in the same commit (a note's seal). */
  readonly leaves?: readonly LogLeaf[]
  /** The answer, saved under the idempotency key when there is one. */
  reply(committed: CommittedMovement): Json
}

/** One balanced leg: `amount` of `unit` from `debit` to `credit`. */
export interface MovementLeg {
  readonly unit: Unit
  readonly amount: bigint
  readonly debit: string
  readonly credit: string
}

/** The transparency-log leaf of an unpublished ledger entry (published ones log their public event). */
export const VALUE_ENTRY_LEAF_KIND = 'cairn.value_entry'
export const entryLeafOf = (entryId: string, entryDigest: string): LogLeaf => ({ kind: VALUE_ENTRY_LEAF_KIND, entryId, entryDigest })

export interface CommittedMovement {
  readonly entry: LedgerEntry
  readonly entryDigest: string
  readonly debitAccount: AccountRecord
  readonly creditAccount: AccountRecord
  readonly event: PublishedWalletEvent | null
}

/** A domain rule refused the movement; nothing moved. */
export interface Refusal {
  readonly _tag: 'Refusal'
  readonly reasonCode: 'insufficient_balance' | 'prior_head_mismatch' | string
  readonly message: string
}

export const refusal = (reasonCode: string, message: string): Refusal => ({ _tag: 'Refusal', reasonCode, message })

export type MovementResult =
  | { readonly _tag: 'committed'; readonly reply: Json; readonly committed: CommittedMovement; readonly leafIndexes: readonly number[] }
  | { readonly _tag: 'replayed'; readonly saved: IdempotencyRecord }
  | Refusal

export interface MovementRequest {
  readonly idempotency?: IdempotencyClaim
  /** Decides the movement from fresh reads; called again after every lost race. */
  plan(): Promise<Either<DomainError | Refusal, MovementPlan>>
  /** When given, a refusal is saved under the idempotency key with this answer (zero-write outcomes). */
  saveRefusal?(refusal: Refusal): Json
}

const isRefusal = (value: DomainError | Refusal): value is Refusal => value._tag === 'Refusal'

/**
 * @example await executeMovement(deps, { idempotency, plan: async () => E.right({ kind: 'transfer', … }) })
 */
export async function executeMovement(deps: CoreDeps, request: MovementRequest): Promise<Either<DomainError, MovementResult>> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const step = await oneAtATime(deps.store, () => attemptMovement(deps, request))
    if (step !== 'lost-race') return step
    await yieldTurn()
  }
  return E.left(conflict('The wallet changed concurrently too many times; nothing was moved, try again'))
}

/**
 * Every movement writes the same few global heads (the public feed, its rollup, the action
 * ledger), so two concurrent movements can never both commit: within one process they take turns
 * instead of racing and retrying. Races with other processes sharing the store still happen and
 * are decided again from fresh reads.
 */
const turns = new WeakMap<object, Promise<void>>()
async function oneAtATime<T>(store: object, run: () => Promise<T>): Promise<T> {
  const prior = turns.get(store) ?? Promise.resolve()
  let release!: () => void
  const mine = new Promise<void>((resolve) => (release = resolve))
  const tail = prior.then(() => mine)
  turns.set(store, tail)
  await prior
  try {
    return await run()
  } finally {
    release()
    if (turns.get(store) === tail) turns.delete(store)
  }
}

async function attemptMovement(deps: CoreDeps, request: MovementRequest): Promise<Either<DomainError, MovementResult> | 'lost-race'> {
  if (request.idempotency) {
    const saved = await findSaved(deps, request.idempotency)
    if (E.isLeft(saved)) return saved
    if (saved.right) return E.right({ _tag: 'replayed', saved: saved.right })
  }
  const planned = await request.plan()
  const decided = E.isLeft(planned) ? planned : await decide(deps, planned.right, request.idempotency)
  if (E.isLeft(decided)) {
    if (!isRefusal(decided.left)) return E.left(decided.left)
    const refused = decided.left
    if (!request.saveRefusal || !request.idempotency) return E.right(refused)
    const record = { status: 'zero-write' as const, reply: request.saveRefusal(refused), entryId: null, createdAt: new Date(deps.clock.now()).toISOString() }
    const outcome = await deps.store.commit([saveWrite(request.idempotency, record)])
    if (outcome.ok) return E.right(refused)
    return 'lost-race' // a concurrent request with the same key answered first: replay it
  }
  const outcome = await deps.store.commit(decided.right.writes)
  if (outcome.ok) return E.right({ _tag: 'committed', reply: decided.right.reply, committed: decided.right.committed, leafIndexes: decided.right.leafIndexes })
  return 'lost-race'
}

interface Decision {
  readonly writes: readonly Write[]
  /** Log indexes of the movement's leaf and then of `plan.leaves`. */
  readonly leafIndexes: readonly number[]
  readonly committed: CommittedMovement
  readonly reply: Json
}

/** Pure but for the reads it needs: the accounts, and for published movements the feed's head and rollup. */
async function decide(deps: CoreDeps, plan: MovementPlan, idempotency: IdempotencyClaim | undefined): Promise<Either<Refusal, Decision>> {
  const legs: MovementLeg[] = [plan, ...(plan.exchange ? [plan.exchange] : [])]
  for (const leg of legs) if (leg.amount <= 0n || leg.debit === leg.credit) throw new RangeError('A movement needs a positive amount between two accounts')
  if (plan.exchange && plan.exchange.unit === plan.unit) throw new RangeError('An exchange leg moves the other unit')
  const loaded = await Promise.all(legs.map((leg) => Promise.all([loadAccount(deps, leg.unit, leg.debit), loadAccount(deps, leg.unit, leg.credit)])))
  for (const [index, leg] of legs.entries()) {
    if (!mayGoNegative(leg.debit) && loaded[index]![0].balance < leg.amount) {
      return E.left(refusal('insufficient_balance', `The ${leg.unit === 'phi' ? 'Φ' : 'USD'} balance is lower than the amount; nothing was moved`))
    }
  }
  const [debit] = loaded[0]!
  if (plan.expectedDebitHead !== undefined && debit.record.head !== plan.expectedDebitHead) {
    return E.left(refusal('prior_head_mismatch', 'expectedPriorHead is not the current head of the account; nothing was moved'))
  }
  const now = deps.clock.now()
  const createdAt = new Date(now).toISOString()
  const entry: LedgerEntry = {
    schema: 'cairn.value_ledger_entry.v1',
    entryId: `ent_${toBase64Url(deps.entropy.bytes(16))}`,
    kind: plan.kind,
    unit: plan.unit,
    amount: toDecimal(plan.amount),
    debit: plan.debit,
    credit: plan.credit,
    actorUserId: plan.actorUserId,
    memo: plan.memo ?? null,
    idempotencyKey: idempotency?.key ?? null,
    createdAt,
    pulse: kaiMomentAt(now).pulse,
    // Present only on exchanges, so every other entry's digest is what it always was.
    ...(plan.exchange ? { exchange: { unit: plan.exchange.unit, amount: toDecimal(plan.exchange.amount), debit: plan.exchange.debit, credit: plan.exchange.credit } } : {}),
  }
  const entryDigest = entryDigestOf(entry)
  const movedLegs = legs.map((leg, index) => {
    const [legDebit, legCredit] = loaded[index]!
    const after = [moved(legDebit, -leg.amount, entryDigest, createdAt), moved(legCredit, leg.amount, entryDigest, createdAt)] as const
    assertConserved([[legDebit, after[0]], [legCredit, after[1]]])
    return after
  })
  const [debitAccount, creditAccount] = movedLegs[0]!

  const writes: Write[] = [
    ...movedLegs.flatMap((after, index) => [accountWrite(loaded[index]![0], after[0]), accountWrite(loaded[index]![1], after[1])]),
    { kind: 'put', collection: VALUE_ENTRIES, key: entry.entryId, value: entry as unknown as Json, expect: { kind: 'absent' } },
  ]
  // The log and action-ledger appends are chained from heads read now, so the leaves' indexes are
  // known before the commit (a published event names its own); a lost race decides all again.
  const [logHead, actionHead] = await Promise.all([deps.store.streamHead(LOG_LEAF_STREAM), deps.store.streamHead(ACTION_LEDGER_STREAM)])
  const firstLeafIndex = logHead?.sequence ?? 0
  const event = plan.publish ? await publish(deps, plan, entry, writes, firstLeafIndex) : null
  const leaves = [event ? event.receipt.log.leaf : entryLeafOf(entry.entryId, entryDigest), ...(plan.leaves ?? [])]
  for (const leaf of leaves) leafEntryBytes(leaf) // refuses an oversized leaf before anything is written
  const committed: CommittedMovement = { entry, entryDigest, debitAccount, creditAccount, event }
  const reply = plan.reply(committed)
  if (idempotency) writes.push(saveWrite(idempotency, { status: 'committed', reply, entryId: entry.entryId, createdAt }))
  writes.push(...(plan.alsoWrite?.(entry) ?? []))
  writes.push(...chainedAppends(LOG_LEAF_STREAM, logHead?.head ?? null, leaves as unknown as Json[]))
  const actionSecret = entry.actorUserId === null ? new Uint8Array(0) : await pseudonymSecret(deps.keys)
  const action = toActionEvent({ kind: 'wallet', action: entry.kind, actorUserId: entry.actorUserId }, deps, actionSecret)
  writes.push(...chainedAppends(ACTION_LEDGER_STREAM, actionHead?.head ?? null, [action as unknown as Json]))
  return E.right({ writes, leafIndexes: leaves.map((_, i) => firstLeafIndex + i), committed, reply })
}

async function publish(deps: CoreDeps, plan: MovementPlan, entry: LedgerEntry, writes: Write[], logLeafIndex: number): Promise<PublishedWalletEvent> {
  const publishAs = plan.publish!
  const [key, head, rollup] = await Promise.all([pseudonymKey(deps), deps.store.streamHead(WALLET_LEDGER_STREAM), loadRollup(deps)])
  const value: WalletLedgerEventValue = {
    id: `wle_${entry.entryId.slice(4)}`,
    kind: publishAs.kind,
    createdAt: entry.createdAt,
    pulse: entry.pulse,
    ...eventAmounts(plan.unit, plan.amount, plan.exchange),
    fromActor: walletPseudonym(key, publishAs.fromUserId),
    toActor: walletPseudonym(key, publishAs.toUserId),
    logLeafIndex,
  }
  const priorHead = head?.head ?? null
  writes.push(...publishWrites(value, priorHead, rollup))
  const entryDigest = entryDigestOf(value)
  return publishedEvent(value, { sequence: (head?.sequence ?? 0) + 1, entryDigest, priorHead, head: chainHead(priorHead, entryDigest), priorCursor: head?.cursor ?? null })
}

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

function accountWrite(before: LoadedAccount, after: AccountRecord): Write {
  return {
    kind: 'put', collection: VALUE_ACCOUNTS, key: accountKey(after.unit, after.account), value: accountValue(after),
    expect: before.version === null ? { kind: 'absent' } : { kind: 'version', version: before.version },
  }
}

/** Double entry: what the movement takes from accounts it gives to others, exactly. */
function assertConserved(changes: readonly (readonly [LoadedAccount, AccountRecord])[]): void {
  const net = changes.reduce((sum, [before, after]) => sum + BigInt(after.balance) - before.balance, 0n)
  if (net !== 0n) throw new Error(`Unbalanced movement: accounts would change by ${net} in total`)
}

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve))
