/**
 * What a movement of value is: the plan a use case decides from fresh reads, what it committed, and
 * what `executeMovement` answers (core/value/movement.ts runs it).
 */
import type { Either } from 'fp-ts/lib/Either.js'
import type { Json, Write } from '../../ports/store.js'
import type { DomainError } from '../errors/domain-error.js'
import type { LogLeaf } from '../tlog/sequence.js'
import type { Unit } from './amount.js'
import type { AccountRecord } from './accounts.js'
import type { IdempotencyClaim, IdempotencyRecord } from './idempotency.js'
import type { EntryKind, LedgerEntry } from './ledger-entry.js'
import type { PublishedWalletEvent, WalletEventKind } from './wallet-feed.js'

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
  /**
   * Published in the public wallet ledger with these users' pseudonyms; absent: not published
   * there. `inReply`: the answer ends with the published event, as its member `event`.
   */
  readonly publish?: { readonly kind: WalletEventKind; readonly fromUserId: string | null; readonly toUserId: string | null; readonly inReply?: boolean }
  /** The debit account's head must be this (Reserve/Settlement `expectedPriorHead`). */
  readonly expectedDebitHead?: string
  /** Writes that belong to the same fact (a checkout session marked complete, a note). */
  alsoWrite?(entry: LedgerEntry): readonly Write[]
  /** More transparency-log leaves sequenced in the same commit (a note's seal). */
  readonly leaves?: readonly LogLeaf[]
  /**
   * The answer, saved under the idempotency key when there is one. It is decided before the commit,
   * so it cannot hold the published event, whose place in the feed the Store gives at commit time:
   * `publish.inReply` adds it.
   */
  reply(facts: MovementFacts): Json
}

/** One balanced leg: `amount` of `unit` from `debit` to `credit`. */
export interface MovementLeg {
  readonly unit: Unit
  readonly amount: bigint
  readonly debit: string
  readonly credit: string
}

/** The legs a plan moves: its own, then the exchange leg if it has one. */
export const legsOf = (plan: MovementPlan): MovementLeg[] => [plan, ...(plan.exchange ? [plan.exchange] : [])]

/** The transparency-log leaf of an unpublished ledger entry (published ones log their public event). */
export const VALUE_ENTRY_LEAF_KIND = 'cairn.value_entry'
// Members in RFC 8785 order: the log hashes the leaf's canonical JSON.
export const entryLeafOf = (entryId: string, entryDigest: string): LogLeaf => ({ entryDigest, entryId, kind: VALUE_ENTRY_LEAF_KIND })

/** What a movement decided: known before its commit. */
export interface MovementFacts {
  readonly entry: LedgerEntry
  readonly entryDigest: string
  readonly debitAccount: AccountRecord
  readonly creditAccount: AccountRecord
}

/** A committed movement, with its public event as the feed holds it (null: not published). */
export interface CommittedMovement extends MovementFacts {
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
