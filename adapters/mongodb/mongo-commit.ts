/**
 * One Store commit as one MongoDB transaction. Every expectation is checked inside the transaction
 * (snapshot reads, then writes whose filters carry the version or head just read), so a racing
 * transaction either makes ours fail with a WriteConflict, which is retried, or is seen by our reads,
 * which then report the lost race as a conflict value. Snapshot isolation only detects collisions
 * between writes, so every expectation writes: a delete of a document that is not there inserts and
 * removes it (a guard write), and a commit racing to create that document collides with it.
 */
import type { ClientSession, Db, MongoClient, TransactionOptions } from 'mongodb'
import { isMongoError } from './mongo-driver.js'
import { PortUnavailableError } from '../../ports/errors.js'
import { chainHead, entryDigestOf } from '../../core/digest/chain.js'
import type { CommitConflict, CommitOutcome, StoredDocument, StreamEntry, Write } from '../../ports/store.js'
import { expectationHolds, uniqueValueOf } from '../shared/commit-plan.js'
import { encodeStreamCursor } from '../shared/page-cursor.js'
import { deepFreeze, toStoredJson } from '../shared/stored-json.js'
import { encodeJson, isWellFormed } from './json-document.js'
import { INDEXED_FIELD, indexedCopy } from './index-keys.js'
import { duplicateKeyIndexName, isDuplicateKeyError, isTransientTransactionError, toPortError } from './mongo-errors.js'
import type { StoreLayout } from './store-layout.js'

/** Snapshot reads and majority writes on the primary: what makes the commit all-or-nothing and durable. */
export const COMMIT_TRANSACTION_OPTIONS: TransactionOptions = {
  readConcern: { level: 'snapshot' },
  writeConcern: { w: 'majority' },
  readPreference: 'primary',
}

/** The first sequence number of a stream. */
export const FIRST_SEQUENCE = 1

/** A failed expectation found inside the transaction: the commit ends with this conflict. */
class ConflictFound extends Error {
  constructor(readonly conflict: CommitConflict) {
    super(conflict._tag)
  }
}

/** Write `writeIndex` collided with a concurrent commit; what it lost to is read after the abort. */
class LostRace extends Error {
  constructor(readonly writeIndex: number) {
    super('Lost a race to a concurrent commit')
  }
}

/** What a commit needs from its store. */
export interface CommitContext {
  readonly client: MongoClient
  readonly db: Db
  readonly layout: StoreLayout
  /**
   * How long one commit may take: collisions are retried, and a commit whose outcome is unknown is
   * asked again, until then; after it a collision is a conflict value (or PortUnavailableError when
   * every expectation still holds) and an unknown outcome is PortUnavailableError.
   */
  readonly retryWindowMs: number
  /** Learn the declarations of `collection` from the server (another host may have made them). */
  readonly learnDeclarations?: (collection: string) => Promise<void>
}

/** Apply `writes` in one transaction: all of them, or none and the first failed expectation. */
export async function commitInTransaction(context: CommitContext, writes: readonly Write[]): Promise<CommitOutcome> {
  for (const write of writes) {
    const name = 'stream' in write ? write.stream : write.key
    // BSON strings are UTF-8: two keys differing in a lone surrogate would both become U+FFFD.
    if (!isWellFormed(name)) throw new RangeError(`MongoStore keys and stream names must be well-formed UTF-16: ${JSON.stringify(name)}`)
  }
  const session = context.client.startSession()
  const deadline = Date.now() + context.retryWindowMs
  try {
    const applied = await inTransaction(session, deadline, { ...COMMIT_TRANSACTION_OPTIONS, maxCommitTimeMS: context.retryWindowMs }, () =>
      applyWrites(context, session, writes),
    )
    return { ok: true, documents: applied.documents, appended: applied.appended }
  } catch (error) {
    if (error instanceof ConflictFound) return { ok: false, conflict: error.conflict }
    if (error instanceof UnknownUniqueKey) {
      await context.learnDeclarations?.(error.collection)
      const conflict = duplicateKeyConflict(context, error.write, error.writeIndex, error.cause)
      if (conflict instanceof ConflictFound) return { ok: false, conflict: conflict.conflict }
    }
    if (error instanceof LostRace || error instanceof UnknownUniqueKey || isTransientTransactionError(error)) {
      const conflict = await describeLostRace(context, writes)
      if (conflict !== undefined) return { ok: false, conflict }
      // Every expectation holds: reporting a conflict would be false (an `any` put cannot conflict).
      throw new PortUnavailableError('Store', `A commit kept colliding with concurrent commits for ${context.retryWindowMs} ms and was not applied; try again`, {
        cause: error,
      })
    }
    // Includes an UnknownTransactionCommitResult still unresolved at the deadline: the commit may be
    // in, so the caller gets an error (and may retry with the same expectations), never a conflict.
    throw toPortError('Store', error)
  } finally {
    await session.endSession().catch(() => undefined)
  }
}

/**
 * Run `body` in a transaction and commit it, like the driver's withTransaction (which retries for a
 * fixed 120 s): collisions (transient errors, and a write that found its document moved) run it again
 * after a jittered backoff, an unknown commit result asks the commit again, both only until `deadline`.
 */
async function inTransaction<T>(session: ClientSession, deadline: number, options: TransactionOptions, body: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    if (attempt > 0) await backOff(attempt)
    session.startTransaction(options)
    let result: T
    try {
      result = await body()
    } catch (error) {
      if (session.inTransaction()) await session.abortTransaction().catch(() => undefined)
      if ((isTransientTransactionError(error) || error instanceof LostRace) && Date.now() < deadline) continue
      throw error
    }
    for (;;) {
      try {
        await session.commitTransaction()
        return result
      } catch (error) {
        if (hasLabel(error, 'UnknownTransactionCommitResult') && Date.now() < deadline) continue
        if (isTransientTransactionError(error) && Date.now() < deadline) break
        throw error
      }
    }
  }
}

/** The driver's backoff between transaction attempts: jitter × min(5 ms × 1.5^attempt, 500 ms). */
function backOff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(5 * 1.5 ** attempt, 500)))
}

function hasLabel(error: unknown, label: string): boolean {
  return isMongoError(error) && error.hasErrorLabel(label)
}

/** E11000 on a unique index this process does not know: another host declared it. */
class UnknownUniqueKey extends Error {
  constructor(
    readonly collection: string,
    readonly write: Write,
    readonly writeIndex: number,
    override readonly cause: Parameters<typeof duplicateKeyIndexName>[0],
  ) {
    super('Duplicate key on an index this process was not told about')
  }
}

async function applyWrites(
  context: CommitContext,
  session: ClientSession,
  writes: readonly Write[],
): Promise<{ documents: StoredDocument[]; appended: StreamEntry[] }> {
  const documents: StoredDocument[] = []
  const appended: StreamEntry[] = []
  for (const [writeIndex, write] of writes.entries()) {
    try {
      if (write.kind === 'put') documents.push(await put(context, session, write, writeIndex))
      else if (write.kind === 'delete') await remove(context, session, write, writeIndex)
      else appended.push(await append(context, session, write, writeIndex))
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error
      const conflict = duplicateKeyConflict(context, write, writeIndex, error)
      const indexName = duplicateKeyIndexName(error)
      if (conflict instanceof LostRace && write.kind === 'put' && indexName !== undefined && indexName.startsWith('unique_')) {
        throw new UnknownUniqueKey(write.collection, write, writeIndex, error)
      }
      throw conflict
    }
  }
  return { documents, appended }
}

async function put(
  { db, layout }: CommitContext,
  session: ClientSession,
  write: Extract<Write, { kind: 'put' }>,
  writeIndex: number,
): Promise<StoredDocument> {
  const documents = layout.documents(db, write.collection)
  const actualVersion = await checkedVersion(documents, session, write, writeIndex)
  const version = (actualVersion ?? 0) + 1
  const value = toStoredJson(write.value)
  const stored = { ...encodeJson(value), [INDEXED_FIELD]: indexedCopy(value) }
  if (actualVersion === null) {
    await documents.insertOne({ _id: write.key, version, ...stored }, { session })
  } else {
    const replaced = await documents.replaceOne({ _id: write.key, version: actualVersion }, { version, ...stored }, { session })
    if (replaced.matchedCount !== 1) throw new LostRace(writeIndex)
  }
  return deepFreeze({ collection: write.collection, key: write.key, version, value })
}

async function remove(
  { db, layout }: CommitContext,
  session: ClientSession,
  write: Extract<Write, { kind: 'delete' }>,
  writeIndex: number,
): Promise<void> {
  const documents = layout.documents(db, write.collection)
  const actualVersion = await checkedVersion(documents, session, write, writeIndex)
  if (actualVersion === null) {
    // The guard write: nothing to delete, but a commit racing to create the document must collide
    // with this one, as it would on a store that serialises commits.
    await documents.insertOne({ _id: write.key, version: 0, [INDEXED_FIELD]: {} }, { session })
    await documents.deleteOne({ _id: write.key, version: 0 }, { session })
    return
  }
  const deleted = await documents.deleteOne({ _id: write.key, version: actualVersion }, { session })
  if (deleted.deletedCount !== 1) throw new LostRace(writeIndex)
}

/** The document's version inside the transaction, or a VersionMismatch conflict when the write's expectation fails. */
async function checkedVersion(
  documents: ReturnType<StoreLayout['documents']>,
  session: ClientSession,
  write: Extract<Write, { kind: 'put' | 'delete' }>,
  writeIndex: number,
): Promise<number | null> {
  const current = await documents.findOne({ _id: write.key }, { session })
  const actualVersion = current?.version ?? null
  if (!expectationHolds(write.expect, actualVersion)) {
    throw new ConflictFound({ _tag: 'VersionMismatch', writeIndex, expected: write.expect, actualVersion })
  }
  return actualVersion
}

async function append(
  { db, layout }: CommitContext,
  session: ClientSession,
  write: Extract<Write, { kind: 'append' | 'appendNext' }>,
  writeIndex: number,
): Promise<StreamEntry> {
  const heads = layout.heads(db)
  const current = await heads.findOne({ _id: write.stream }, { session })
  const actualHead = current?.head ?? null
  // appendNext chains onto the head read in this transaction; a head moved meanwhile is a lost race the transaction retries.
  if (write.kind === 'append' && actualHead !== write.expectHead) {
    throw new ConflictFound({ _tag: 'HeadMismatch', writeIndex, expectedHead: write.expectHead, actualHead })
  }
  const sequence = current === null ? FIRST_SEQUENCE : current.sequence + 1
  const value = toStoredJson(write.value)
  const entryDigest = entryDigestOf(value)
  const head = chainHead(actualHead, entryDigest)
  const entry = { stream: write.stream, sequence, entryDigest, priorHead: actualHead, head }
  await layout.entries(db).insertOne({ ...entry, ...encodeJson(value) }, { session })
  if (current === null) {
    await heads.insertOne({ _id: write.stream, head, sequence }, { session })
  } else {
    const moved = await heads.updateOne(
      { _id: write.stream, head: current.head, sequence: current.sequence },
      { $set: { head, sequence } },
      { session },
    )
    if (moved.matchedCount !== 1) throw new LostRace(writeIndex)
  }
  return deepFreeze({ ...entry, cursor: encodeStreamCursor(sequence), value })
}

/** E11000 on one of our unique keys is a UniqueViolation; on anything else (the key, a stream sequence) a lost race. */
function duplicateKeyConflict(
  { layout }: CommitContext,
  write: Write,
  writeIndex: number,
  error: Parameters<typeof duplicateKeyIndexName>[0],
): Error {
  const indexName = duplicateKeyIndexName(error)
  if (write.kind === 'put' && indexName !== undefined) {
    const uniqueKey = layout.uniqueKeyOfIndex(write.collection, indexName)
    const value = uniqueKey && uniqueValueOf(write.value, uniqueKey.field)
    if (uniqueKey !== undefined && value !== undefined) {
      return new ConflictFound({ _tag: 'UniqueViolation', writeIndex, uniqueKey: uniqueKey.name, value })
    }
  }
  return new LostRace(writeIndex)
}

/**
 * After an abort: the first write whose expectation no longer holds against what is committed now
 * (read with majority read concern), or undefined when every expectation holds again.
 */
async function describeLostRace(context: CommitContext, writes: readonly Write[]): Promise<CommitConflict | undefined> {
  const conflicts = await Promise.all(writes.map((write, writeIndex) => currentConflict(context, write, writeIndex)))
  return conflicts.find((conflict) => conflict.failed)?.conflict
}

async function currentConflict(
  { db, layout }: CommitContext,
  write: Write,
  writeIndex: number,
): Promise<{ failed: boolean; conflict: CommitConflict }> {
  try {
    // An appendNext expects no head: it never explains a lost race.
    if (write.kind === 'appendNext') return { failed: false, conflict: { _tag: 'HeadMismatch', writeIndex, expectedHead: null, actualHead: null } }
    if (write.kind === 'append') {
      const actualHead = (await layout.heads(db).findOne({ _id: write.stream }, { readConcern: { level: 'majority' } }))?.head ?? null
      return {
        failed: actualHead !== write.expectHead,
        conflict: { _tag: 'HeadMismatch', writeIndex, expectedHead: write.expectHead, actualHead },
      }
    }
    const actualVersion = (await layout.documents(db, write.collection).findOne({ _id: write.key }, { readConcern: { level: 'majority' } }))?.version ?? null
    return {
      failed: !expectationHolds(write.expect, actualVersion),
      conflict: { _tag: 'VersionMismatch', writeIndex, expected: write.expect, actualVersion },
    }
  } catch (error) {
    throw toPortError('Store', error)
  }
}
