/**
 * EventBus on the SQLite file a `--data-dir` deployment already shares: every host (process) on the
 * file sees every message. Publishing inserts `{ topic, message }` into the `events` table, whose
 * AUTOINCREMENT sequence orders every message of every host (inserts take SQLite's one write lock,
 * so a reader never sees a later sequence before an earlier one). Each bus reads what follows the
 * last sequence it read — at once when this process published, else every `pollIntervalMs` while
 * anyone subscribes — and hands each message to the subscriptions of its topic, in sequence order.
 * A subscription receives what was published after `subscribe` resolved (at-most-once across
 * restarts, like MongoEventBus without `durableSubscriber`). Messages older than `retentionMs` are
 * deleted by whichever host prunes first.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { PortUnavailableError } from '../../ports/errors.js'
import type { EventBus } from '../../ports/event-bus.js'
import type { Json } from '../../ports/store.js'
import { deepFreeze } from '../shared/stored-json.js'
import { whileBusy, isBusyError } from './sqlite-busy.js'

/** The adapter's name, as configuration and logs spell it. */
export const SQLITE_EVENT_BUS_NAME = 'sqlite'

export interface SqliteEventBusOptions {
  /** The database file (usually the SqliteStore's), or ':memory:' (one process only). Either this or `database`. */
  readonly file?: string
  /** An open better-sqlite3 connection to use instead; the bus never closes it. */
  readonly database?: Database.Database
  /**
   * How often a bus with subscribers looks for messages other processes published. Messages this
   * process publishes are read at once.
   * @default 50
   */
  readonly pollIntervalMs?: number
  /**
   * How long a message stays in the table. Subscribers only need it until every host's next read;
   * the rest is for debugging.
   * @default 3600000 (one hour)
   */
  readonly retentionMs?: number
  /** @default 60000 */
  readonly pruneIntervalMs?: number
  /** How long a publish waits for another process's write lock. @default 5000 */
  readonly busyTimeoutMs?: number
  /**
   * Told when a subscriber throws (delivery of later messages goes on), or when reading fails.
   * @default logs with console.error
   */
  readonly onSubscriberError?: (error: unknown, topic: string) => void
}

const PORT = 'EventBus'
/** Messages one read takes at most; a longer backlog is read on straight away. */
const READ_BATCH = 500

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  sequence INTEGER PRIMARY KEY AUTOINCREMENT,
  topic TEXT NOT NULL,
  message TEXT NOT NULL,
  at INTEGER NOT NULL
);
`

interface EventRow {
  readonly sequence: number
  readonly topic: string
  readonly message: string
}

interface Subscription {
  readonly onMessage: (message: Json) => void
  /** Messages up to this sequence were published before the subscription began. */
  readonly after: number
}

/**
 * @example
 * const bus = new SqliteEventBus({ file: '/var/lib/cairn/cairn.sqlite' })
 * const stop = await bus.subscribe('world.public', (message) => console.log(message))
 */
export class SqliteEventBus implements EventBus {
  private readonly options: SqliteEventBusOptions
  private db: Database.Database | undefined
  private readonly topics = new Map<string, Set<Subscription>>()
  /** The last sequence this bus has read (and delivered). */
  private position = 0
  private pollTimer: NodeJS.Timeout | undefined
  private pruneTimer: NodeJS.Timeout | undefined
  private readonly statements = new Map<string, Database.Statement>()
  private reading = false
  private readAgain = false
  private closed = false

  constructor(options: SqliteEventBusOptions | string) {
    this.options = typeof options === 'string' ? { file: options } : options
    if (this.options.file === undefined && this.options.database === undefined) throw new TypeError('SqliteEventBus needs a file or a database')
  }

  async publish(topic: string, message: Json): Promise<void> {
    const db = await this.open()
    const text = JSON.stringify(message)
    if (text === undefined) throw new TypeError('The message has no JSON form')
    await this.guarded(() => whileBusy(() => this.statement(db, 'INSERT INTO events (topic, message, at) VALUES (?, ?, ?)').run(topic, text, Date.now()), this.busyTimeoutMs))
    // Our own message is read (and delivered here) without waiting for the next poll.
    if (this.subscriptionCount() > 0) this.scheduleRead(0)
  }

  async subscribe(topic: string, onMessage: (message: Json) => void): Promise<() => Promise<void>> {
    const db = await this.open()
    const last = await this.guarded(() => whileBusy(() => lastSequence(db), this.busyTimeoutMs))
    if (this.closed) throw closedError()
    // The first subscription reads from now; later ones skip what is already in the table.
    if (this.subscriptionCount() === 0) this.position = Math.max(this.position, last)
    const subscription: Subscription = { onMessage, after: last }
    const subscriptions = this.topics.get(topic) ?? new Set()
    subscriptions.add(subscription)
    this.topics.set(topic, subscriptions)
    this.startPolling()
    return async () => {
      subscriptions.delete(subscription)
      if (subscriptions.size === 0 && this.topics.get(topic) === subscriptions) this.topics.delete(topic)
      if (this.subscriptionCount() === 0) this.stopPolling()
    }
  }

  /** Delete messages older than `retentionMs` (every host may; deleting twice is harmless). Answers how many went. */
  async prune(now = Date.now()): Promise<number> {
    const db = await this.open()
    const cutoff = now - (this.options.retentionMs ?? 3_600_000)
    // Sequences grow with time: delete below the first message still young, walking from the oldest.
    const result = await this.guarded(() =>
      whileBusy(
        () =>
          db
            .prepare(
              `DELETE FROM events WHERE sequence < coalesce((SELECT sequence FROM events WHERE at >= ? ORDER BY sequence LIMIT 1), (SELECT max(sequence) + 1 FROM events))`,
            )
            .run(cutoff),
        this.busyTimeoutMs,
      ),
    )
    return result.changes
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.stopPolling()
    if (this.pruneTimer !== undefined) clearInterval(this.pruneTimer)
    this.topics.clear()
    this.statements.clear()
    if (this.db !== undefined && this.options.database === undefined) this.db.close()
  }

  private get busyTimeoutMs(): number {
    return this.options.busyTimeoutMs ?? 5000
  }

  private subscriptionCount(): number {
    return this.topics.size
  }

  private startPolling(): void {
    if (this.pollTimer !== undefined) return
    this.pollTimer = setInterval(() => this.scheduleRead(0), this.options.pollIntervalMs ?? 50)
    this.pollTimer.unref()
  }

  private stopPolling(): void {
    if (this.pollTimer !== undefined) clearInterval(this.pollTimer)
    this.pollTimer = undefined
  }

  /** Read what follows `position`; one read at a time, another straight after when asked meanwhile. */
  private scheduleRead(delayMs: number): void {
    if (this.reading) {
      this.readAgain = true
      return
    }
    this.reading = true
    setTimeout(() => {
      try {
        while (!this.closed && this.readOnce()) {}
      } finally {
        this.reading = false
      }
      if (this.readAgain && !this.closed) {
        this.readAgain = false
        this.scheduleRead(0)
      }
    }, delayMs)
  }

  /** One batch: deliver it, advance `position`; true when the batch was full (more may follow). */
  private readOnce(): boolean {
    const db = this.db
    if (db === undefined || this.subscriptionCount() === 0) return false
    let rows: EventRow[]
    try {
      rows = this.statement(db, 'SELECT sequence, topic, message FROM events WHERE sequence > ? ORDER BY sequence LIMIT ?').all(this.position, READ_BATCH) as EventRow[]
    } catch (error) {
      // Busy or briefly unavailable: the next poll tries again from the same position.
      if (!isBusyError(error)) this.report(new PortUnavailableError(PORT, 'Could not read the events table', { cause: error }), '*')
      return false
    }
    for (const row of rows) {
      this.position = row.sequence
      const subscriptions = this.topics.get(row.topic)
      if (subscriptions === undefined) continue
      const message = deepFreeze(JSON.parse(row.message) as Json)
      for (const subscription of [...subscriptions]) {
        if (row.sequence <= subscription.after || !subscriptions.has(subscription)) continue
        try {
          subscription.onMessage(message)
        } catch (error) {
          this.report(error, row.topic)
        }
      }
    }
    return rows.length === READ_BATCH
  }

  private statement(db: Database.Database, sql: string): Database.Statement {
    let statement = this.statements.get(sql)
    if (statement === undefined) this.statements.set(sql, (statement = db.prepare(sql)))
    return statement
  }

  private report(error: unknown, topic: string): void {
    const onError = this.options.onSubscriberError ?? ((failure, failedTopic) => console.error(`EventBus subscriber of ${failedTopic} failed`, failure))
    onError(error, topic)
  }

  private async open(): Promise<Database.Database> {
    if (this.closed) throw closedError()
    if (this.db !== undefined) return this.db
    const { file, database } = this.options
    let db = database
    if (db === undefined) {
      if (file !== ':memory:') mkdirSync(dirname(file!), { recursive: true })
      db = new Database(file!)
    }
    const opened = db
    try {
      await this.guarded(() =>
        whileBusy(() => {
          opened.pragma('busy_timeout = 0')
          opened.pragma('journal_mode = WAL')
          // Messages are a transport, not a record: a power cut may lose the last ones, never the store's commits.
          opened.pragma('synchronous = NORMAL')
          opened.exec(SCHEMA)
        }, this.busyTimeoutMs),
      )
    } catch (error) {
      if (database === undefined) opened.close()
      throw error
    }
    if (this.closed || this.db !== undefined) {
      // Closed meanwhile, or another call opened it meanwhile: keep at most one connection.
      if (database === undefined) opened.close()
      if (this.closed) throw closedError()
      return this.db!
    }
    this.db = opened
    this.pruneTimer = setInterval(() => void this.prune().catch((error: unknown) => this.report(error, '*')), this.options.pruneIntervalMs ?? 60_000)
    this.pruneTimer.unref()
    return opened
  }

  /** `task`, with SQLite and file-system failures reported as the port being unavailable. */
  private async guarded<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await task()
    } catch (error) {
      if (error instanceof Database.SqliteError || (error instanceof Error && 'syscall' in error)) {
        throw new PortUnavailableError(PORT, `SQLite failed: ${error.message}`, { cause: error })
      }
      throw error
    }
  }
}

function lastSequence(db: Database.Database): number {
  return (db.prepare('SELECT coalesce(max(sequence), 0) AS last FROM events').get() as { last: number }).last
}

function closedError(): PortUnavailableError {
  return new PortUnavailableError(PORT, 'The SQLite event bus is closed')
}
