/**
 * One Store commit as one MongoDB transaction. Every expectation is checked inside the transaction
 * (snapshot reads, then writes whose filters carry the version or head just read), so a racing
 * transaction either makes ours fail with a WriteConflict, which the driver retries, or is seen by
 * our reads, which then report the lost race as a conflict value.
 */
import type { ClientSession, Db, MongoClient, TransactionOptions } from 'mongodb'
import { chainHead, entryDigestOf } from '../../core/digest/chain.js'
import type { CommitConflict, CommitOutcome, StoredDocument, StreamEntry, Write } from '../../ports/store.js'
import { expectationHolds, uniqueValueOf } from '../shared/commit-plan.js'
import { encodeStreamCursor } from '../shared/page-cursor.js'
import { deepFreeze, toStoredJson } from '../shared/stored-json.js'
import { encodeJson } from './json-document.js'
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
  /** How long a commit that keeps colliding is retried before it reports a conflict. */
  readonly retryWindowMs: number
}

/** Apply `writes` in one transaction: all of them, or none and the first failed expectation. */
export async function commitInTransaction(context: CommitContext, writes: readonly Write[]): Promise<CommitOutcome> {
  const session = context.client.startSession()
  const progress = { writeIndex: 0 }
  const started = Date.now()
  let attempts = 0
  try {
    const applied = await session.withTransaction(async () => {
      attempts += 1
      // The driver retries transient failures (backing off) for up to two minutes; a commit gives up
      // sooner. The window is in time, not attempts: a loser must outlast the winner's commit to see it.
      if (attempts > 1 && Date.now() - started > context.retryWindowMs) throw new LostRace(progress.writeIndex)
      return applyWrites(context, session, writes, progress)
    }, COMMIT_TRANSACTION_OPTIONS)
    return { ok: true, documents: applied.documents, appended: applied.appended }
  } catch (error) {
    if (error instanceof ConflictFound) return { ok: false, conflict: error.conflict }
    if (error instanceof LostRace || isTransientTransactionError(error)) {
      const writeIndex = error instanceof LostRace ? error.writeIndex : progress.writeIndex
      return { ok: false, conflict: await describeLostRace(context, writes, writeIndex) }
    }
    // Includes UnknownTransactionCommitResult the driver could not resolve: the commit may be in, so
    // the caller gets an error (and may retry with the same expectations), never a false conflict.
    throw toPortError('Store', error)
  } finally {
    await session.endSession().catch(() => undefined)
  }
}

async function applyWrites(
  context: CommitContext,
  session: ClientSession,
  writes: readonly Write[],
  progress: { writeIndex: number },
): Promise<{ documents: StoredDocument[]; appended: StreamEntry[] }> {
  const documents: StoredDocument[] = []
  const appended: StreamEntry[] = []
  for (const [writeIndex, write] of writes.entries()) {
    progress.writeIndex = writeIndex
    try {
      if (write.kind === 'put') documents.push(await put(context, session, write, writeIndex))
      else if (write.kind === 'delete') await remove(context, session, write, writeIndex)
      else appended.push(await append(context, session, write, writeIndex))
    } catch (error) {
      throw isDuplicateKeyError(error) ? duplicateKeyConflict(context, write, writeIndex, error) : error
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
  const stored = encodeJson(value, layout.indexedFields(write.collection))
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
  if (actualVersion === null) return
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
  write: Extract<Write, { kind: 'append' }>,
  writeIndex: number,
): Promise<StreamEntry> {
  const heads = layout.heads(db)
  const current = await heads.findOne({ _id: write.stream }, { session })
  const actualHead = current?.head ?? null
  if (actualHead !== write.expectHead) {
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
 * After an abort: the first write whose expectation no longer holds against what is committed now,
 * or, when every expectation holds again, the write that collided, with what it now finds.
 */
async function describeLostRace(context: CommitContext, writes: readonly Write[], collidedIndex: number): Promise<CommitConflict> {
  const conflicts = await Promise.all(writes.map((write, writeIndex) => currentConflict(context, write, writeIndex)))
  const first = conflicts.find((conflict) => conflict.failed)
  return (first ?? conflicts[collidedIndex] ?? conflicts[0])!.conflict
}

async function currentConflict(
  { db, layout }: CommitContext,
  write: Write,
  writeIndex: number,
): Promise<{ failed: boolean; conflict: CommitConflict }> {
  try {
    if (write.kind === 'append') {
      const actualHead = (await layout.heads(db).findOne({ _id: write.stream }))?.head ?? null
      return {
        failed: actualHead !== write.expectHead,
        conflict: { _tag: 'HeadMismatch', writeIndex, expectedHead: write.expectHead, actualHead },
      }
    }
    const actualVersion = (await layout.documents(db, write.collection).findOne({ _id: write.key }))?.version ?? null
    return {
      failed: !expectationHolds(write.expect, actualVersion),
      conflict: { _tag: 'VersionMismatch', writeIndex, expected: write.expect, actualVersion },
    }
  } catch (error) {
    throw toPortError('Store', error)
  }
}
