/**
 * EventBus on PostgreSQL: a durable table behind LISTEN/NOTIFY. NOTIFY alone loses what is sent
 * while a listener reconnects and caps payloads at 8,000 bytes, so every message is a row of
 * `events` numbered per topic, and a notification only says "topic T has more" (one per commit).
 * Numbers come from a per-topic counter row updated in the publishing statement itself: its row lock
 * is held until the commit, so number n + 1 never commits before n, and a reader that has seen n + 1
 * has seen everything before it. Each host keeps one LISTEN connection; on a notification (or after
 * reconnecting, which may have missed some) it reads the topic's rows after the last number it
 * delivered, so a subscription sees one topic's messages in publish order, without gaps, across
 * database restarts. Rows older than `retentionSeconds` are deleted by `prune`, which the sweeper
 * runs (hosts/library/sweeper.ts).
 */
import { createHash } from 'node:crypto'
import type pg from 'pg'
import type { EventBus } from '../../ports/event-bus.js'
import { PortUnavailableError } from '../../ports/errors.js'
import type { Json } from '../../ports/store.js'
import { deepFreeze } from '../shared/stored-json.js'
import { PostgresConnection, type PostgresConnectionOptions } from './postgres-connection.js'
import { translatingPgErrors } from './postgres-errors.js'
import { quoteIdentifier, tablesOf } from './postgres-sql.js'
import { isPostgresText } from './sort-keys.js'

/** The adapter's name, as configuration and logs spell it. */
export const POSTGRES_EVENT_BUS_NAME = 'postgres'

export interface PostgresEventBusOptions extends PostgresConnectionOptions {
  /** How long a message stays in `events` before `prune` deletes it. @default 3600 */
  readonly retentionSeconds?: number
  /** Wait before reconnecting a LISTEN connection that broke (doubling up to 5 s). @default 100 */
  readonly reconnectDelayMs?: number
  /** Told when a subscriber throws or the listener cannot reconnect yet; delivery goes on. @default console.error */
  readonly onSubscriberError?: (error: unknown, topic: string) => void
}

const PORT = 'EventBus'
/** Rows read per query while catching a topic up. */
const PAGE = 500
/** NOTIFY payloads must stay under 8,000 bytes: longer topic names notify "everything". */
const MAX_TOPIC_PAYLOAD_BYTES = 7000
const EVERY_TOPIC = ''

interface Subscriber {
  readonly onMessage: (message: Json) => void
  /** Numbers up to this one were published before the subscription began. */
  readonly after: number
  ended: boolean
}

interface Topic {
  /** The last number read (and delivered) for this topic. */
  last: number
  readonly subscribers: Set<Subscriber>
  reading: Promise<void> | undefined
  readAgain: boolean
}

/**
 * @example
 * const bus = new PostgresEventBus({ connectionString: 'postgres://cairn@db.internal/cairn' })
 * const stop = await bus.subscribe('releases', (message) => console.log(message))
 * await bus.publish('releases', { id: 'r1' })
 */
export class PostgresEventBus implements EventBus {
  private readonly connection: PostgresConnection
  private readonly tables: ReturnType<typeof tablesOf> & { topics: string }
  private readonly channel: string
  private readonly topics = new Map<string, Topic>()
  private prepared: Promise<pg.Pool> | undefined
  private listener: Promise<pg.Client> | undefined
  private reconnectTimer: NodeJS.Timeout | undefined
  private reconnectDelayMs: number
  private closed = false

  constructor(private readonly options: PostgresEventBusOptions) {
    this.connection = new PostgresConnection(PORT, options)
    const tables = tablesOf(this.connection.schema)
    this.tables = { ...tables, topics: `${tables.schema}.event_topics` }
    this.channel = `cairn_events_${createHash('sha256').update(this.connection.schema).digest('hex').slice(0, 16)}`
    this.reconnectDelayMs = options.reconnectDelayMs ?? 100
  }

  async publish(topic: string, message: Json): Promise<void> {
    assertTopic(topic)
    const pool = await this.pool()
    const text = JSON.stringify(message)
    if (text === undefined) throw new TypeError('The message has no JSON form')
    const payload = Buffer.byteLength(topic) > MAX_TOPIC_PAYLOAD_BYTES ? EVERY_TOPIC : topic
    await translatingPgErrors(PORT, () =>
      pool.query(
        `WITH counter AS (
           INSERT INTO ${this.tables.topics} (topic, last) VALUES ($1, 1)
           ON CONFLICT (topic) DO UPDATE SET last = ${this.tables.topics}.last + 1 RETURNING last
         ), event AS (
           INSERT INTO ${this.tables.events} (topic, sequence, message) SELECT $1, last, $2::json FROM counter RETURNING sequence
         )
         SELECT pg_notify($3, $4) FROM event`,
        [topic, text, this.channel, payload],
      ),
    )
  }

  async subscribe(topic: string, onMessage: (message: Json) => void): Promise<() => Promise<void>> {
    assertTopic(topic)
    const pool = await this.pool()
    // Listening before reading the start: whatever commits after the read is also notified.
    await this.listen()
    const { rows } = await translatingPgErrors(PORT, () =>
      pool.query<{ last: string }>(`SELECT COALESCE((SELECT last FROM ${this.tables.topics} WHERE topic = $1), 0)::text AS last`, [topic]),
    )
    if (this.closed) throw closedError()
    const after = Number(rows[0]!.last)
    const subscriber: Subscriber = { onMessage, after, ended: false }
    const known = this.topics.get(topic)
    if (known === undefined) this.topics.set(topic, { last: after, subscribers: new Set([subscriber]), reading: undefined, readAgain: false })
    else known.subscribers.add(subscriber)
    return async () => {
      subscriber.ended = true
      const current = this.topics.get(topic)
      current?.subscribers.delete(subscriber)
      if (current !== undefined && current.subscribers.size === 0) this.topics.delete(topic)
    }
  }

  /** Delete messages older than the retention; answers how many. Run by the sweeper on one host or many. */
  async prune(): Promise<number> {
    const pool = await this.pool()
    const { rowCount } = await translatingPgErrors(PORT, () =>
      pool.query(`DELETE FROM ${this.tables.events} WHERE published_at < now() - make_interval(secs => $1)`, [this.options.retentionSeconds ?? 3600]),
    )
    return rowCount ?? 0
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.reconnectTimer)
    this.topics.clear()
    const listener = this.listener
    this.listener = undefined
    await (await listener?.catch(() => undefined))?.end().catch(() => undefined)
    await this.connection.close()
  }

  /** The pool, once the tables exist. */
  private pool(): Promise<pg.Pool> {
    if (this.closed) return Promise.reject(closedError())
    this.prepared ??= translatingPgErrors(PORT, async () => {
      const pool = await this.connection.pool()
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`cairn-events:${this.connection.schema}`])
        await client.query(`
          CREATE SCHEMA IF NOT EXISTS ${this.tables.schema};
          CREATE TABLE IF NOT EXISTS ${this.tables.topics} (topic text COLLATE "C" PRIMARY KEY, last bigint NOT NULL);
          CREATE TABLE IF NOT EXISTS ${this.tables.events} (
            topic text COLLATE "C" NOT NULL,
            sequence bigint NOT NULL,
            message json NOT NULL,
            published_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (topic, sequence)
          );
          CREATE INDEX IF NOT EXISTS events_published_at ON ${this.tables.events} (published_at);`)
        await client.query('COMMIT')
        client.release()
      } catch (error) {
        client.release(true)
        throw error
      }
      return pool
    }).catch((error: unknown) => {
      this.prepared = undefined
      throw error
    })
    return this.prepared
  }

  /** The LISTEN connection, opened on first use and reopened whenever it breaks. */
  private listen(): Promise<pg.Client> {
    this.listener ??= this.openListener().catch((error: unknown) => {
      this.listener = undefined
      throw new PortUnavailableError(PORT, `PostgreSQL LISTEN failed: ${(error as Error).message}`, { cause: error })
    })
    return this.listener
  }

  private async openListener(): Promise<pg.Client> {
    const client = await this.connection.newClient()
    client.on('notification', (notification) => {
      if (notification.payload === EVERY_TOPIC) this.readEveryTopic()
      else if (notification.payload !== undefined) this.read(notification.payload)
    })
    const broken = () => {
      if (this.closed || this.listener === undefined) return
      this.listener = undefined
      this.scheduleReconnect()
    }
    client.on('error', broken)
    client.on('end', broken)
    try {
      await client.connect()
      await client.query(`LISTEN ${quoteIdentifier(this.channel)}`)
    } catch (error) {
      client.removeAllListeners('end')
      await client.end().catch(() => undefined)
      throw error
    }
    return client
  }

  private scheduleReconnect(): void {
    clearTimeout(this.reconnectTimer)
    this.reconnectTimer = setTimeout(() => {
      if (this.closed || this.topics.size === 0) return
      this.listen().then(
        () => {
          this.reconnectDelayMs = this.options.reconnectDelayMs ?? 100
          // Whatever was published while nobody listened is in the table: read it now.
          this.readEveryTopic()
        },
        (error: unknown) => {
          this.report(error, '(listener)')
          this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, 5000)
          this.scheduleReconnect()
        },
      )
    }, this.reconnectDelayMs)
    this.reconnectTimer.unref?.()
  }

  private readEveryTopic(): void {
    for (const topic of this.topics.keys()) this.read(topic)
  }

  /** Read `topic` past its last number, one read at a time per topic (a read asked for meanwhile runs after). */
  private read(topic: string): void {
    const state = this.topics.get(topic)
    if (state === undefined || this.closed) return
    if (state.reading !== undefined) {
      state.readAgain = true
      return
    }
    state.reading = this.catchUp(topic, state)
      .catch((error: unknown) => {
        this.report(error, topic)
        // A failed read is tried again when the listener comes back (or the next notification).
        if (this.listener === undefined) this.scheduleReconnect()
      })
      .finally(() => {
        state.reading = undefined
        if (state.readAgain) {
          state.readAgain = false
          this.read(topic)
        }
      })
  }

  private async catchUp(topic: string, state: Topic): Promise<void> {
    const pool = await this.pool()
    for (;;) {
      const { rows } = await pool.query<{ seq: string; message: Json }>(
        `SELECT sequence::text AS seq, message FROM ${this.tables.events} WHERE topic = $1 AND sequence > $2 ORDER BY sequence LIMIT ${PAGE}`,
        [topic, state.last],
      )
      for (const row of rows) {
        const sequence = Number(row.seq)
        state.last = sequence
        const message = deepFreeze(row.message)
        for (const subscriber of [...state.subscribers]) {
          if (subscriber.ended || sequence <= subscriber.after) continue
          try {
            subscriber.onMessage(message)
          } catch (error) {
            this.report(error, topic)
          }
        }
      }
      if (rows.length < PAGE || this.closed) return
    }
  }

  private report(error: unknown, topic: string): void {
    const onError = this.options.onSubscriberError ?? ((failure, failedTopic) => console.error(`EventBus subscriber of ${failedTopic} failed`, failure))
    onError(error, topic)
  }
}

function assertTopic(topic: string): void {
  if (!isPostgresText(topic)) throw new RangeError(`PostgresEventBus topics must be well-formed UTF-16 without NUL: ${JSON.stringify(topic)}`)
}

function closedError(): PortUnavailableError {
  return new PortUnavailableError(PORT, 'The PostgreSQL EventBus is closed')
}
