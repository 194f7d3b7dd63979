// Sessions and transactions: FakeSession, FakeTransaction and the writeConflict error.
import { MongoServerError } from 'mongodb'
import { peek, type Doc } from './documents.js'
import type { FakeMongoServer } from './fake-server.js'
import { sameIndexKey } from './indexes.js'

/** A session: one transaction at a time, driven by withTransaction like the driver's. */
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

  /** Like the driver's: retries the callback on TransientTransactionError and the commit on UnknownTransactionCommitResult. */
  async withTransaction<T>(fn: (session: FakeSession) => Promise<T>, options?: Doc): Promise<T> {
    this.server.record('session', 'withTransaction', [options])
    for (let attempt = 1; ; attempt += 1) {
      if (attempt > 10_000) throw new Error('The fake gave up after 10000 transaction attempts')
      // The driver's backoff between attempts: jitter × min(5 ms × 1.5^attempt, 500 ms).
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(5 * 1.5 ** attempt, 500)))
      this.transaction = new FakeTransaction(this.server)
      let result: T
      try {
        result = await fn(this)
      } catch (error) {
        this.server.record('session', 'abortTransaction', [])
        this.transaction.release()
        this.transaction = undefined
        if (hasLabel(error, 'TransientTransactionError')) continue
        throw error
      }
      try {
        await this.commit()
        return result
      } catch (error) {
        if (hasLabel(error, 'TransientTransactionError')) continue
        throw error
      }
    }
  }

  async endSession(): Promise<void> {
    this.server.record('session', 'endSession', [])
    this.ended = true
  }

  private async commit(): Promise<void> {
    const transaction = this.transaction!
    for (;;) {
      try {
        this.server.record('session', 'commitTransaction', [])
        transaction.commit()
        this.transaction = undefined
        return
      } catch (error) {
        if (hasLabel(error, 'UnknownTransactionCommitResult')) continue
        transaction.release()
        this.transaction = undefined
        throw error
      }
    }
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

/** One transaction: its writes wait in an overlay until commit; the documents it wrote are locked. */
export class FakeTransaction {
  state: 'active' | 'failed' | 'done' = 'active'
  private readonly startTime: number
  private readonly overlay = new Map<string, Map<string, { bytes: Uint8Array | null; inserted: boolean }>>()

  constructor(private readonly server: FakeMongoServer) {
    this.startTime = server.clusterTime
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

  /** A document written since this transaction started, or locked by another one, is a WriteConflict. */
  lock(target: string, key: string): void {
    const ns = this.server.namespace(target, true)!
    const holder = ns.locks.get(key)
    const committed = ns.docs.get(key)
    if ((holder !== undefined && holder !== this) || (committed !== undefined && committed.time > this.startTime)) {
      throw writeConflict()
    }
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
    for (const write of writes) {
      const ns = this.server.namespace(write.target, true)!
      // A document written outside the transaction since it started collides with it.
      if ((ns.docs.get(write.key)?.time ?? 0) > this.startTime) throw writeConflict()
      if (write.bytes === null) continue
      // So do unique keys written since it started.
      const doc = peek(write.bytes)
      for (const index of ns.indexes.filter((candidate) => candidate.unique === true && candidate.name !== '_id_')) {
        for (const [key, entry] of ns.docs) {
          if (key !== write.key && entry.time > this.startTime && sameIndexKey(index, peek(entry.bytes), doc)) throw writeConflict()
        }
      }
    }
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
