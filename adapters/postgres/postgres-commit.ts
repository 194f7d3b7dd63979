/**
 * One Store commit as one PostgreSQL transaction: read what the writes expect (document versions,
 * stream heads, holders of the unique values claimed) in one statement, decide with the same planner
 * as MemoryStore and SQLite (adapters/shared/commit-plan.ts), then write every change or none.
 *
 * What keeps racing commits linearizable (docs/decisions.md, measured in bench/store.ts):
 * - `locks` (the default): READ COMMITTED, and before reading, a transaction-scoped advisory lock on
 *   every document, stream and unique value the commit touches, taken in one sorted order (so no
 *   two commits deadlock on them). Commits touching disjoint things never wait for each other; two
 *   touching the same thing run one after the other, the second reading what the first wrote. An
 *   expectation of absence is a lock too, so crossing "delete if absent" commits cannot both win.
 * - `serializable`: SERIALIZABLE isolation, and the transaction runs again on 40001/40P01.
 * A unique index of another host's declaration this process has not heard of refuses the insert
 * (23505): the declarations are read again and the commit decided again.
 *
 * A connection that breaks while COMMIT is in flight leaves the outcome unknown. The transaction's
 * id was read before COMMIT, so the adapter asks the server (pg_xact_status) until the retry window
 * ends: committed answers the commit's outcome (unless the server restarted meanwhile: see
 * `transactionStatus`), aborted runs it again, and a server still out of reach at the end is
 * PortUnavailableError: the caller may retry with the same expectations, and a
 * retry of a commit that was applied then fails its expectations (as with MongoDB's adapter).
 */
import { createHash } from 'node:crypto'
import type pg from 'pg'
import { PortUnavailableError } from '../../ports/errors.js'
import type { CommitOutcome, UniqueKeySpec, Write } from '../../ports/store.js'
import { claimId, planCommit, uniqueValueOf, type CommitPlan, type CommitView } from '../shared/commit-plan.js'
import type { CollectionSpecs } from '../shared/collection-specs.js'
import { isConnectionFailure, isRetryableConflict, isServerAnswer, toPortError, uniqueViolationIndex } from './postgres-errors.js'
import { sortKeySql, sqlLiteral, type Tables } from './postgres-sql.js'
import { indexedCopy, isPostgresText, sortKeyOf, STRING_TAG } from './sort-keys.js'

/** How racing commits are kept apart (see the file comment). */
export type CommitIsolation = 'locks' | 'serializable'

const PORT = 'Store'

/** What a commit needs from its store. */
export interface CommitContext {
  readonly pool: pg.Pool
  readonly tables: Tables
  readonly isolation: CommitIsolation
  /** How long collisions are retried and an unknown outcome is asked about. */
  readonly retryWindowMs: number
  specs(): CollectionSpecs
  /** Read the declarations again (another host may have added a unique key). */
  reloadSpecs(): Promise<void>
}

/** Apply `writes` in one transaction: all of them, or none and the first failed expectation. */
export async function commitInTransaction(context: CommitContext, writes: readonly Write[]): Promise<CommitOutcome> {
  for (const write of writes) {
    const names = 'stream' in write ? [write.stream] : [write.collection, write.key]
    for (const name of names) {
      // PostgreSQL text is UTF-8 without NUL: two keys differing in a lone surrogate would collide.
      if (!isPostgresText(name)) throw new RangeError(`PostgresStore names must be well-formed UTF-16 without NUL: ${JSON.stringify(name)}`)
    }
  }
  const deadline = Date.now() + context.retryWindowMs
  for (let attempt = 0; ; attempt += 1) {
    if (attempt > 0) await backOff(attempt)
    const result = await attemptCommit(context, writes, deadline)
    if (result !== RUN_AGAIN) return result
    if (Date.now() >= deadline) {
      throw new PortUnavailableError(PORT, `A commit kept colliding with concurrent commits or losing its connection for ${context.retryWindowMs} ms and was not applied; try again`)
    }
  }
}

const RUN_AGAIN = Symbol('run again')

async function attemptCommit(context: CommitContext, writes: readonly Write[], deadline: number): Promise<CommitOutcome | typeof RUN_AGAIN> {
  const specs = context.specs()
  let client: pg.PoolClient
  try {
    client = await context.pool.connect()
  } catch (error) {
    throw toPortError(PORT, error)
  }
  // SERIALIZABLE: commits appending to one stream take turns on a session lock, taken before the
  // transaction's snapshot (a transaction-scoped lock would come after it). Otherwise two appends
  // to a stream everyone appends to (the log, the action ledger) would make one of them abort and
  // run again whole, and a large commit kept losing to small ones (bench:ledger's mixed rows).
  const streamLocks = context.isolation === 'serializable' ? lockKeys(writes.filter((write) => 'stream' in write), specs) : []
  const release = releaseWith(client, streamLocks.length > 0)
  let xid: string
  let serverStart: string
  let outcome: CommitOutcome
  try {
    if (streamLocks.length > 0) await client.query(`SELECT count(pg_advisory_lock(k)) FROM unnest('{${streamLocks.join(',')}}'::bigint[]) AS k`)
    const locks = context.isolation === 'locks' ? lockKeys(writes, specs) : []
    // One round trip: BEGIN, the transaction id, and the locks (decimal integers, safe as literals).
    const started = (await client.query(
      `${context.isolation === 'serializable' ? 'BEGIN ISOLATION LEVEL SERIALIZABLE' : 'BEGIN'};
       SELECT pg_current_xact_id()::text AS xid, pg_postmaster_start_time()::text AS started, (SELECT count(pg_advisory_xact_lock(k)) FROM unnest('{${locks.join(',')}}'::bigint[]) AS k) AS locked`,
    )) as unknown as [pg.QueryResult, pg.QueryResult<{ xid: string; started: string }>]
    xid = started[1].rows[0]!.xid
    serverStart = started[1].rows[0]!.started
    const view = await readView(client, context.tables, specs, writes)
    const planned = planCommit(writes, view)
    if (!planned.ok) {
      await client.query('ROLLBACK')
      await release(false)
      return planned
    }
    await applyPlan(client, context.tables, planned.plan, movesUniqueValues(planned.plan, view))
    outcome = { ok: true, documents: planned.plan.documents, appended: planned.plan.appended }
  } catch (error) {
    // A connection that cannot even roll back is broken: the pool must not hand it out again.
    const rolledBack = await client.query('ROLLBACK').then(() => true, () => false)
    await release(!rolledBack)
    // A lost race, or a connection that broke before COMMIT was sent (nothing was written): run it again.
    if (isRetryableConflict(error) || isConnectionFailure(error)) return RUN_AGAIN
    if (uniqueViolationIndex(error) !== undefined) {
      // A unique key another host declared, or (serializable) a racing insert of the same key.
      await context.reloadSpecs()
      return RUN_AGAIN
    }
    throw toPortError(PORT, error)
  }
  try {
    await client.query('COMMIT')
    await release(false)
    return outcome
  } catch (error) {
    if (isServerAnswer(error)) {
      await release(false)
      if (isRetryableConflict(error)) return RUN_AGAIN
      throw toPortError(PORT, error)
    }
    await release(true)
    const status = await transactionStatus(context.pool, xid, serverStart, deadline)
    if (status === 'committed') return outcome
    if (status === 'aborted') return RUN_AGAIN
    throw new PortUnavailableError(
      PORT,
      'The connection to PostgreSQL broke while a commit was being made and whether it was applied is still unknown; retry it with the same expectations',
      { cause: error },
    )
  }
}

/**
 * What the server says became of transaction `xid`, asked until `deadline`; undefined when it never
 * said or cannot be believed. A server that restarted since the transaction began (a crash) may have
 * lost the transaction with its unflushed WAL and handed its id to a later transaction: "aborted" is
 * still true (ours did not survive either way), but "committed" may be that other transaction's, so
 * the outcome stays unknown.
 */
async function transactionStatus(pool: pg.Pool, xid: string, serverStart: string, deadline: number): Promise<'committed' | 'aborted' | undefined> {
  for (;;) {
    try {
      const { rows } = await pool.query<{ status: string | null; started: string }>('SELECT pg_xact_status($1::xid8) AS status, pg_postmaster_start_time()::text AS started', [xid])
      const status = rows[0]?.status
      if (status === 'aborted') return status
      if (status === 'committed') return rows[0]!.started === serverStart ? status : undefined
    } catch {
      // The server is still away (or, restarted, does not know the id yet): ask again.
    }
    if (Date.now() >= deadline) return undefined
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * Returns `client` to the pool, or destroys it (`broken`). A client holding session locks lets
 * them go first; one that cannot is destroyed, which lets them go too.
 */
function releaseWith(client: pg.PoolClient, holdsSessionLocks: boolean): (broken: boolean) => Promise<void> {
  return async (broken) => {
    const unlocked = broken || !holdsSessionLocks || (await client.query('SELECT pg_advisory_unlock_all()').then(() => true, () => false))
    client.release(broken || !unlocked)
  }
}

/** Jitter × min(5 ms × 1.5^attempt, 250 ms), as the MongoDB driver backs off between transactions. */
function backOff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(5 * 1.5 ** attempt, 250)))
}

/** 64-bit advisory lock keys of everything the commit touches, sorted and without repeats. */
export function lockKeys(writes: readonly Write[], specs: CollectionSpecs): string[] {
  const names = new Set<string>()
  for (const write of writes) {
    // Both append kinds lock their stream: an appendNext chains onto the head read under that lock.
    if ('stream' in write) {
      names.add(JSON.stringify(['stream', write.stream]))
      continue
    }
    names.add(JSON.stringify(['document', write.collection, write.key]))
    if (write.kind !== 'put') continue
    for (const uniqueKey of specs.uniqueKeys(write.collection)) {
      const value = uniqueValueOf(write.value, uniqueKey.field)
      if (value !== undefined) names.add(claimId(write.collection, uniqueKey.name, value))
    }
  }
  return [...names].map((name) => createHash('sha256').update(name).digest().readBigInt64BE(0)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String)
}

interface ViewRow {
  readonly kind: 'version' | 'head' | 'holder'
  readonly a: string
  readonly b: string | null
  readonly n: string | null
  readonly h: string | null
}

/** Everything the planner may ask about, read in one statement (one snapshot). */
async function readView(client: pg.PoolClient, tables: Tables, specs: CollectionSpecs, writes: readonly Write[]): Promise<CommitView> {
  const documents = writes.filter((write): write is Extract<Write, { kind: 'put' | 'delete' }> => !('stream' in write))
  const streams = [...new Set(writes.flatMap((write) => ('stream' in write ? [write.stream] : [])))]
  const values: unknown[] = [documents.map((write) => write.collection), documents.map((write) => write.key), streams]
  const parts = [
    `SELECT 'version' AS kind, collection AS a, key AS b, version::text AS n, NULL::text AS h FROM ${tables.documents} WHERE (collection, key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    `SELECT 'head', s.stream, NULL, e.sequence::text, e.head FROM unnest($3::text[]) AS s(stream) CROSS JOIN LATERAL (SELECT sequence, head FROM ${tables.entries} WHERE stream = s.stream ORDER BY sequence DESC LIMIT 1) AS e`,
  ]
  // One lookup per (collection, unique key) the puts claim values of.
  const claims = new Map<string, { collection: string; uniqueKey: UniqueKeySpec; sortKeys: Set<string> }>()
  for (const write of documents) {
    if (write.kind !== 'put') continue
    for (const uniqueKey of specs.uniqueKeys(write.collection)) {
      const value = uniqueValueOf(write.value, uniqueKey.field)
      if (value === undefined) continue
      const group = JSON.stringify([write.collection, uniqueKey.name])
      const claim = claims.get(group) ?? { collection: write.collection, uniqueKey, sortKeys: new Set<string>() }
      claim.sortKeys.add(sortKeyOf(value))
      claims.set(group, claim)
    }
  }
  for (const [group, claim] of claims) {
    values.push([...claim.sortKeys])
    const sortKey = sortKeySql(claim.uniqueKey.field)
    parts.push(
      `SELECT 'holder', ${sqlLiteral(group)}, key, NULL, ${sortKey} FROM ${tables.documents} WHERE collection = ${sqlLiteral(claim.collection)} AND ${sortKey} >= '${STRING_TAG}' AND ${sortKey} = ANY($${values.length}::text[])`,
    )
  }
  const { rows } = await client.query<ViewRow>(parts.join(' UNION ALL '), values)
  const versions = new Map<string, number>()
  const heads = new Map<string, { head: string; sequence: number }>()
  const holders = new Map<string, string>()
  for (const row of rows) {
    if (row.kind === 'version') versions.set(JSON.stringify([row.a, row.b]), Number(row.n))
    else if (row.kind === 'head') heads.set(row.a, { head: row.h!, sequence: Number(row.n) })
    else holders.set(JSON.stringify([row.a, row.h]), row.b!)
  }
  return {
    version: (collection, key) => versions.get(JSON.stringify([collection, key])),
    streamHead: (stream) => heads.get(stream),
    uniqueHolder: (collection, uniqueKey, value) => holders.get(JSON.stringify([JSON.stringify([collection, uniqueKey.name]), sortKeyOf(value)])),
    uniqueKeys: (collection) => specs.uniqueKeys(collection),
  }
}

/**
 * True when a document of the commit claims a unique value another document of the same commit held
 * before it: then every touched document is removed before any is stored, so the value never meets
 * itself in an index halfway through the commit.
 */
function movesUniqueValues(plan: CommitPlan, view: CommitView): boolean {
  const touched = new Set(plan.changes.map((change) => JSON.stringify([change.collection, change.key])))
  return plan.changes.some(
    ({ collection, key, document }) =>
      document !== null &&
      view.uniqueKeys(collection).some((uniqueKey) => {
        const value = uniqueValueOf(document.value, uniqueKey.field)
        const holder = value === undefined ? undefined : view.uniqueHolder(collection, uniqueKey, value)
        return holder !== undefined && holder !== key && touched.has(JSON.stringify([collection, holder]))
      }),
  )
}

/**
 * Write the plan in one statement: delete the documents it deletes, upsert the ones it stores, insert
 * the new entries. When a unique value moves between two documents of the commit, every touched
 * document is deleted first in a statement of its own (`separateDelete`).
 */
async function applyPlan(client: pg.PoolClient, tables: Tables, plan: CommitPlan, separateDelete: boolean): Promise<void> {
  const removed = separateDelete ? plan.changes : plan.changes.filter((change) => change.document === null)
  if (separateDelete && removed.length > 0) {
    await client.query(`DELETE FROM ${tables.documents} WHERE (collection, key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`, [
      removed.map((change) => change.collection),
      removed.map((change) => change.key),
    ])
  }
  const stored = plan.changes.flatMap((change) => (change.document === null ? [] : [change.document]))
  if (stored.length === 0 && plan.appended.length === 0 && (separateDelete || removed.length === 0)) return
  await client.query(
    `WITH removed AS (
       DELETE FROM ${tables.documents} WHERE (collection, key) IN (SELECT * FROM unnest($1::text[], $2::text[]))
     ), stored AS (
       INSERT INTO ${tables.documents} (collection, key, version, value, indexed)
       SELECT * FROM unnest($3::text[], $4::text[], $5::bigint[], $6::json[], $7::jsonb[])
       ON CONFLICT (collection, key) DO UPDATE SET version = EXCLUDED.version, value = EXCLUDED.value, indexed = EXCLUDED.indexed
     )
     INSERT INTO ${tables.entries} (stream, sequence, value, entry_digest, prior_head, head)
     SELECT * FROM unnest($8::text[], $9::bigint[], $10::json[], $11::text[], $12::text[], $13::text[])`,
    [
      separateDelete ? [] : removed.map((change) => change.collection),
      separateDelete ? [] : removed.map((change) => change.key),
      stored.map((document) => document.collection),
      stored.map((document) => document.key),
      stored.map((document) => document.version),
      stored.map((document) => JSON.stringify(document.value)),
      stored.map((document) => JSON.stringify(indexedCopy(document.value))),
      plan.appended.map((entry) => entry.stream),
      plan.appended.map((entry) => entry.sequence),
      plan.appended.map((entry) => JSON.stringify(entry.value)),
      plan.appended.map((entry) => entry.entryDigest),
      plan.appended.map((entry) => entry.priorHead),
      plan.appended.map((entry) => entry.head),
    ],
  )
}
