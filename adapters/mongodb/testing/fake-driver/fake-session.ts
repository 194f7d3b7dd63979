// Sessions and transactions: FakeSession, FakeTransaction and the writeConflict error.
import { MongoServerError, MongoTransactionError } from 'mongodb'
import type { Doc } from './documents.js'
import type { FakeMongoServer } from './fake-server.js'

/** The driver's bound on withTransaction's retries when no timeoutMS applies. */
const WITH_TRANSACTION_LIMIT_MS = 120_000

/** A session: one transaction at a time, started by hand or driven by withTransaction like the driver's. */
export class FakeSession {
  private transaction: FakeTransaction | undefined
  ended = false

  constructor(private readonly server: FakeMongoServer) {}

  inTransaction(): boolean {
    return this.transaction?.state === 'active' || this.transaction?.state === 'failed'
  }

  activeTransaction(): FakeTransaction | undefined {
    return this.inTransaction() ? this.transaction : undefined
  }

  startTransaction(options?: Doc): void {
    this.server.record('session', 'startTransaction', [options])
    if (this.inTransaction()) throw new MongoTransactionError('Transaction already in progress')
    this.transaction = new FakeTransaction(this.server)
  }

  /** Commit; a commit that fails for another reason than UnknownTransactionCommitResult ends the transaction. */
  async commitTransaction(): Promise<void> {
    await Promise.resolve()
    const transaction = this.transaction
    if (transaction === undefined) throw new MongoTransactionError('No transaction started')
    try {
      this.server.record('session', 'commitTransaction', [])
      transaction.commit()
      this.transaction = undefined
    } catch (error) {
      if (hasLabel(error, 'UnknownTransactionCommitResult')) throw error
      transaction.release()
      this.transaction = undefined
      throw error
    }
  }

  async abortTransaction(): Promise<void> {
    await Promise.resolve()
    this.server.record('session', 'abortTransaction', [])
    this.transaction?.release()
    this.transaction = undefined
  }

  /**
   * Like the driver's: retries the callback on TransientTransactionError and the commit on
   * UnknownTransactionCommitResult, backing off, until 120 seconds have passed; then the last error.
   */
  async withTransaction<T>(fn: (session: FakeSession) => Promise<T>, options?: Doc): Promise<T> {
    this.server.record('session', 'withTransaction', [options])
    const deadline = Date.now() + WITH_TRANSACTION_LIMIT_MS
    for (let attempt = 0; ; attempt += 1) {
      // The driver's backoff between attempts: jitter × min(5 ms × 1.5^attempt, 500 ms).
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(5 * 1.5 ** attempt, 500)))
      this.startTransaction(options)
      let result: T
      try {
        result = await fn(this)
      } catch (error) {
        if (this.inTransaction()) await this.abortTransaction()
        if (hasLabel(error, 'TransientTransactionError') && Date.now() < deadline) continue
        throw error
      }
      for (;;) {
        try {
          await this.commitTransaction()
          return result
        } catch (error) {
          if (hasLabel(error, 'UnknownTransactionCommitResult') && Date.now() < deadline) continue
          if (hasLabel(error, 'TransientTransactionError') && Date.now() < deadline) break
          throw error
        }
      }
    }
  }

  async endSession(): Promise<void> {
    this.server.record('session', 'endSession', [])
    if (this.inTransaction()) this.transaction?.release()
    this.transaction = undefined
    this.ended = true
  }
}

function hasLabel(error: unknown, label: string): boolean {
  return error instanceof MongoServerError && error.hasErrorLabel(label)
}

/** A WriteConflict, as a server reports a collision between transactions. */
export function writeConflict(): MongoServerError {
  return new MongoServerError({
    message: 'WriteConflict error: this operation conflicted with another operation. Please retry your operation or multi-document transaction.',
    code: 112,
    codeName: 'WriteConflict',
    errorLabels: ['TransientTransactionError'],
  })
}

/**
 * One transaction: it reads a snapshot taken at its first operation (plus its own writes, kept in an
 * overlay until commit), and a write to a document another transaction holds or changed since that
 * snapshot fails at once with a WriteConflict, as on a server's storage engine.
 */
export class FakeTransaction {
  state: 'active' | 'failed' | 'done' = 'active'
  /** Cluster time of the snapshot; taken at the first operation. */
  private snapshot: number | undefined
  private readonly overlay = new Map<string, Map<string, { bytes: Uint8Array | null; inserted: boolean }>>()

  constructor(private readonly server: FakeMongoServer) {}

  /** The cluster time this transaction reads at. */
  snapshotTime(): number {
    this.snapshot ??= this.server.clusterTime
    return this.snapshot
  }

  assertActive(): void {
    if (this.state === 'failed') {
      throw new MongoServerError({ message: 'Transaction has been aborted.', code: 251, codeName: 'NoSuchTransaction', errorLabels: ['TransientTransactionError'] })
    }
  }

  markFailed(): void {
    if (this.state === 'active') this.state = 'failed'
  }

  writesTo(target: string): Map<string, Uint8Array | null> {
    return new Map([...(this.overlay.get(target) ?? [])].map(([key, write]) => [key, write.bytes]))
  }

  /** A document changed (written or deleted) since the snapshot, or locked by another transaction, is a WriteConflict. */
  lock(target: string, key: string): void {
    const ns = this.server.namespace(target, true)!
    const holder = ns.locks.get(key)
    if ((holder !== undefined && holder !== this) || this.server.lastChange(target, key) > this.snapshotTime()) throw writeConflict()
    ns.locks.set(key, this)
  }

  stage(target: string, writes: readonly { key: string; bytes: Uint8Array | null; inserted: boolean }[]): void {
    let staged = this.overlay.get(target)
    if (staged === undefined) {
      staged = new Map()
      this.overlay.set(target, staged)
    }
    for (const write of writes) {
      const earlier = staged.get(write.key)
      staged.set(write.key, { bytes: write.bytes, inserted: write.inserted || (earlier?.inserted ?? false) })
    }
  }

  commit(): void {
    if (this.state !== 'active') throw new MongoServerError({ message: 'Transaction has been aborted.', code: 251, codeName: 'NoSuchTransaction', errorLabels: ['TransientTransactionError'] })
    const writes = [...this.overlay].flatMap(([target, staged]) => [...staged].map(([key, write]) => ({ target, key, ...write })))
    // Locks taken at each write already refused every collision; nothing can have changed since.
    this.server.apply(writes)
    this.state = 'done'
    this.release()
  }

  release(): void {
    for (const target of this.overlay.keys()) {
      const locks = this.server.namespace(target, true)!.locks
      for (const [key, holder] of locks) if (holder === this) locks.delete(key)
    }
    this.state = this.state === 'active' ? 'done' : this.state
  }
}
