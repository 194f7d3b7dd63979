/**
 * EventBus on MongoDB change streams: publish inserts `{ topic, message, at }` into one events
 * collection; a host's live subscriptions share one change stream over those inserts (one pooled
 * connection however many topics it watches), opened with its first subscription and closed with
 * its last. The oplog orders inserts, so every host sees one topic's messages in the order they
 * were published.
 *
 * Delivery is at-most-once across restarts by default: a subscription starts at the moment
 * `subscribe` resolves, and a host that was down misses what was published meanwhile. With
 * `durableSubscriber`, each topic's position is saved (in `<prefix>event_positions`) as messages
 * are delivered — each topic then has a change stream of its own, filtered on it — and a restarted
 * host resumes after the last one it delivered: at-least-once, as long as the oplog still holds that
 * point. While a subscription
 * lives, a change stream that fails is reopened from the driver's resume token (the post-batch token
 * once a batch is drained, so a topic's filter never rescans other topics), so nothing is lost or
 * repeated unless the oplog no longer holds that point (then it starts from now, and says so).
 */
import type { ChangeStream, ChangeStreamInsertDocument, Collection, Db, ResumeToken, Timestamp } from 'mongodb'
import { isMongoServerError } from './mongo-driver.js'
import type { EventBus } from '../../ports/event-bus.js'
import { PortUnavailableError } from '../../ports/errors.js'
import type { Json } from '../../ports/store.js'
import { deepFreeze } from '../shared/stored-json.js'
import { decodeJson, encodeJson } from './json-document.js'
import { LazyMongoConnection, type MongoConnectionOptions } from './mongo-connection.js'
import { translatingMongoErrors } from './mongo-errors.js'

/** The adapter's name, as configuration and logs spell it. */
export const MONGO_EVENT_BUS_NAME = 'mongodb'

export interface MongoEventBusOptions extends MongoConnectionOptions {
  /**
   * Prepended to the events collection's name (`<prefix>events`).
   * @default ''
   */
  readonly collectionPrefix?: string
  /**
   * How long a published message stays in the events collection (a TTL index removes it after).
   * Subscribers only need it until their change stream has passed it; the rest is for debugging.
   * Changing it changes the TTL index in place (`collMod`), whichever host starts first.
   * @default 3600
   */
  readonly retentionSeconds?: number
  /**
   * A name for this host's subscriptions that stays the same across its restarts (e.g. the host
   * name): each topic's position is saved under it, and a restart resumes where it stopped instead
   * of at the moment of subscribing. Hosts must not share one name (they would share positions).
   * @default undefined (at-most-once across restarts)
   */
  readonly durableSubscriber?: string
  /**
   * Wait before reopening a change stream that failed with an error the driver could not resume.
   * @default 1000
   */
  readonly reopenDelayMs?: number
  /**
   * Told when a subscriber throws; delivery of later messages goes on.
   * @default logs with console.error
   */
  readonly onSubscriberError?: (error: unknown, topic: string) => void
}

/** One published message as kept in MongoDB. */
export interface EventRecord {
  readonly topic: string
  readonly message: unknown
  /** The exact JSON text when BSON cannot hold the message as it is (see json-document.ts). */
  readonly messageJson?: string
  /** When it was published (by this host's clock): only the TTL index reads it. */
  readonly at: Date
}

const PORT = 'EventBus'

/** Failed reopens from the last position before a subscription gives it up and starts from now. */
const REOPENS_BEFORE_STARTING_FROM_NOW = 3

/** The TTL index of the events collection. */
export const EVENTS_TTL_INDEX_NAME = 'events_ttl'

/**
 * @example
 * const bus = new MongoEventBus({ uri: 'mongodb://127.0.0.1:27017/?replicaSet=rs0' })
 * const stop = await bus.subscribe('releases', (message) => console.log(message))
 * await bus.publish('releases', { id: 'r1' })
 */
export class MongoEventBus implements EventBus {
  private readonly connection: LazyMongoConnection
  private readonly subscriptions = new Set<Subscription>()
  /** The change stream every live (non-durable) subscription of this host shares, while any exists. */
  private shared: SharedFeed | undefined
  private indexReady: Promise<void> | undefined
  private closed = false

  constructor(private readonly options: MongoEventBusOptions) {
    this.connection = new LazyMongoConnection(PORT, options)
  }

  async publish(topic: string, message: Json): Promise<void> {
    const events = await this.events()
    const stored = encodeJson(message)
    const record: EventRecord = {
      topic,
      message: stored.value,
      ...(stored.json === undefined ? {} : { messageJson: stored.json }),
      at: new Date(),
    }
    await translatingMongoErrors(PORT, () => events.insertOne(record))
  }

  async subscribe(topic: string, onMessage: (message: Json) => void): Promise<() => Promise<void>> {
    const db = await this.connection.db()
    const events = await this.events()
    const onSubscriberError = this.options.onSubscriberError ?? ((error, failedTopic) => console.error(`EventBus subscriber of ${failedTopic} failed`, error))
    if (this.options.durableSubscriber === undefined) return this.subscribeShared(db, events, topic, onMessage, onSubscriberError)
    // Start the change stream at the cluster's time now, so every message published after subscribe
    // resolves is seen even though the driver opens the stream's cursor lazily.
    const startAt = await translatingMongoErrors(PORT, () => operationTimeNow(db))
    // close() may have run while this subscription was being set up: it must not leave a live stream.
    if (this.closed) throw closedError()
    // A durable subscriber saves a position per topic, so each of its topics has a stream of its own.
    const position = await this.savedPosition(db, topic, onSubscriberError)
    const subscription = new Subscription(events, topic, (_, message) => onMessage(message), startAt, this.options.reopenDelayMs ?? 1000, onSubscriberError, position)
    this.subscriptions.add(subscription)
    await subscription.start()
    if (this.closed) {
      await subscription.stop()
      throw closedError()
    }
    return async () => {
      this.subscriptions.delete(subscription)
      await subscription.stop()
    }
  }

  /**
   * A live subscription: every topic this host watches shares one change stream over all inserts
   * (one pooled connection however many topics), opened with the first subscription and closed
   * with the last; each message goes to its topic's subscribers.
   */
  private async subscribeShared(
    db: Db,
    events: Collection<EventRecord>,
    topic: string,
    onMessage: (message: Json) => void,
    onSubscriberError: (error: unknown, topic: string) => void,
  ): Promise<() => Promise<void>> {
    if (this.shared === undefined) {
      const startAt = await translatingMongoErrors(PORT, () => operationTimeNow(db))
      if (this.closed) throw closedError()
      if (this.shared === undefined) {
        const topics = new Map<string, Set<(message: Json) => void>>()
        const feed = new Subscription(events, undefined, (messageTopic, message) => deliverToEach(topics.get(messageTopic), message, messageTopic, onSubscriberError), startAt, this.options.reopenDelayMs ?? 1000, onSubscriberError)
        this.subscriptions.add(feed)
        this.shared = { feed, topics, started: feed.start() }
      }
    }
    const shared = this.shared
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const subscriber = (message: Json) => onMessage(message)
    const subscribers = shared.topics.get(topic) ?? new Set()
    subscribers.add(subscriber)
    shared.topics.set(topic, subscribers)
    const unsubscribe = async () => {
      subscribers.delete(subscriber)
      if (subscribers.size === 0 && shared.topics.get(topic) === subscribers) shared.topics.delete(topic)
      if (shared.topics.size > 0 || this.shared !== shared) return
      this.shared = undefined
      this.subscriptions.delete(shared.feed)
      await shared.feed.stop()
    }
    try {
      await shared.started
    } catch (error) {
      await unsubscribe()
      throw error
    }
    if (this.closed) {
      await unsubscribe()
      throw closedError()
    }
    return unsubscribe
  }

  async close(): Promise<void> {
    this.closed = true
    this.shared = undefined
    const open = [...this.subscriptions]
    this.subscriptions.clear()
    await Promise.all(open.map((subscription) => subscription.stop()))
    await this.connection.close()
  }

  /** A durable subscriber's saved position on `topic` and the saver of later ones (none otherwise). */
  private async savedPosition(db: Db, topic: string, onError: (error: unknown, topic: string) => void): Promise<SavedPosition | undefined> {
    const subscriber = this.options.durableSubscriber
    if (subscriber === undefined) return undefined
    const positions = db.collection<PositionRecord>(`${this.options.collectionPrefix ?? ''}event_positions`)
    const _id = `${subscriber}\u0000${topic}`
    const saved = await translatingMongoErrors(PORT, () => positions.findOne({ _id }, { readConcern: { level: 'majority' } }))
    return { token: saved?.token, saver: new PositionSaver(positions, _id, (error) => onError(error, topic)) }
  }

  private async events(): Promise<Collection<EventRecord>> {
    const db = await this.connection.db()
    const events = db.collection<EventRecord>(`${this.options.collectionPrefix ?? ''}events`)
    this.indexReady ??= translatingMongoErrors(PORT, () => ensureTtlIndex(db, events, this.options.retentionSeconds ?? 3600)).catch((error: unknown) => {
      this.indexReady = undefined
      throw error
    })
    await this.indexReady
    return events
  }
}

interface SharedFeed {
  readonly feed: Subscription
  /** The subscribers of each watched topic. */
  readonly topics: Map<string, Set<(message: Json) => void>>
  /** Settles once the stream is open. */
  readonly started: Promise<void>
}

/** Hand `message` to each subscriber; one that throws is reported and the others still receive it. */
function deliverToEach(subscribers: ReadonlySet<(message: Json) => void> | undefined, message: Json, topic: string, onError: (error: unknown, topic: string) => void): void {
  for (const subscriber of [...(subscribers ?? [])]) {
    try {
      subscriber(message)
    } catch (error) {
      onError(error, topic)
    }
  }
}

/** Where a durable subscriber stopped on one topic. */
interface PositionRecord {
  readonly _id: string
  readonly token: ResumeToken
  readonly at: Date
}

interface SavedPosition {
  readonly token: ResumeToken | undefined
  readonly saver: PositionSaver
}

/** Saves the latest position of one subscription: one write in flight, the newest token wins. */
class PositionSaver {
  private latest: ResumeToken | undefined
  private writing: Promise<void> | undefined

  constructor(
    private readonly positions: Collection<PositionRecord>,
    private readonly id: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  save(token: ResumeToken): void {
    this.latest = token
    this.writing ??= this.flush()
  }

  /** Resolves once every position handed to `save` is written (or failed). */
  async settled(): Promise<void> {
    await this.writing
  }

  private async flush(): Promise<void> {
    while (this.latest !== undefined) {
      const token = this.latest
      this.latest = undefined
      await this.positions
        .updateOne({ _id: this.id }, { $set: { token, at: new Date() } }, { upsert: true, writeConcern: { w: 'majority' } })
        .catch((error: unknown) => this.onError(new PortUnavailableError(PORT, 'Could not save a subscription position', { cause: error })))
    }
    this.writing = undefined
  }
}

/** The server's IndexOptionsConflict: an index of that name exists with other options. */
const INDEX_OPTIONS_CONFLICT = 85

/**
 * The TTL index with this retention. An index of the same name with another `expireAfterSeconds`
 * (retention changed in the configuration) is changed in place with `collMod`, not rebuilt: creating
 * it again would fail with IndexOptionsConflict on every publish and subscribe.
 */
async function ensureTtlIndex(db: Db, events: Collection<EventRecord>, expireAfterSeconds: number): Promise<void> {
  try {
    await events.createIndex({ at: 1 }, { name: EVENTS_TTL_INDEX_NAME, expireAfterSeconds })
  } catch (error) {
    if (!(isMongoServerError(error) && error.code === INDEX_OPTIONS_CONFLICT)) throw error
    await db.command({ collMod: events.collectionName, index: { name: EVENTS_TTL_INDEX_NAME, expireAfterSeconds } })
  }
}

function closedError(): PortUnavailableError {
  return new PortUnavailableError(PORT, 'The MongoDB EventBus adapter is closed')
}

/** The server's codes for a resume point the oplog no longer holds (ChangeStreamHistoryLost and kin). */
const HISTORY_LOST_CODES = new Set([136, 280, 286])

/** The operation time a replica set member reports for a no-op command (undefined on a standalone). */
async function operationTimeNow(db: Db): Promise<Timestamp | undefined> {
  const reply = await db.command({ ping: 1 })
  return reply['operationTime'] as Timestamp | undefined
}

/** One change stream (of one topic, or of every topic when `topic` is undefined) and the loop that delivers its messages, one at a time, in order. */
class Subscription {
  private changes: ChangeStream<EventRecord, ChangeStreamInsertDocument<EventRecord>> | undefined
  private resumeToken: ResumeToken | undefined
  private stopped = false
  private failuresInARow = 0
  private wakeUp: (() => void) | undefined

  constructor(
    private readonly events: Collection<EventRecord>,
    private readonly topic: string | undefined,
    private readonly onMessage: (topic: string, message: Json) => void,
    private readonly startAt: Timestamp | undefined,
    private readonly reopenDelayMs: number,
    private readonly onSubscriberError: (error: unknown, topic: string) => void,
    private readonly position?: SavedPosition,
  ) {
    this.resumeToken = position?.token
  }

  /** Open the change stream; on a server that gives no operation time, wait until its cursor exists. */
  async start(): Promise<void> {
    const changes = this.open()
    if (this.startAt === undefined) {
      const first = await translatingMongoErrors(PORT, () => changes.tryNext())
      if (first !== null) this.deliver(first)
    }
    void this.deliverUntilStopped(changes)
  }

  /**
   * After this resolves nothing more is delivered (the loop checks `stopped` before every delivery).
   * The loop itself is not awaited: a pending `next()` may only settle when the server answers its
   * current getMore, and it ends quietly then.
   */
  async stop(): Promise<void> {
    this.stopped = true
    this.wakeUp?.()
    await this.changes?.close().catch(() => undefined)
    await this.position?.saver.settled()
  }

  /**
   * Open the change stream where the last one stopped: after the last message delivered, else at the
   * subscription's start. After repeated failures from that position (its oplog history may be
   * gone) it starts from now instead, rather than failing forever.
   */
  private open(): ChangeStream<EventRecord, ChangeStreamInsertDocument<EventRecord>> {
    const fromNow = this.failuresInARow >= REOPENS_BEFORE_STARTING_FROM_NOW
    const position =
      fromNow ? {}
      : this.resumeToken !== undefined ? { resumeAfter: this.resumeToken }
      : this.startAt !== undefined ? { startAtOperationTime: this.startAt }
      : {}
    const match = this.topic === undefined ? { operationType: 'insert' } : { operationType: 'insert', 'fullDocument.topic': this.topic }
    this.changes = this.events.watch<EventRecord, ChangeStreamInsertDocument<EventRecord>>([{ $match: match }], position)
    return this.changes
  }

  private async deliverUntilStopped(first: ChangeStream<EventRecord, ChangeStreamInsertDocument<EventRecord>>): Promise<void> {
    let changes = first
    while (!this.stopped) {
      try {
        const change = await changes.next()
        if (this.stopped) return
        this.deliver(change)
        // The driver's token: after a drained batch, the post-batch token, past other topics' events.
        this.resumeToken = changes.resumeToken ?? this.resumeToken
        if (this.resumeToken !== undefined) this.position?.saver.save(this.resumeToken)
      } catch (error) {
        if (this.stopped) return
        if (isMongoServerError(error) && HISTORY_LOST_CODES.has(Number(error.code))) {
          // The oplog moved past our position: what was published in between is lost to this host.
          this.failuresInARow = REOPENS_BEFORE_STARTING_FROM_NOW
          const what = this.topic ?? 'every topic'
          this.onSubscriberError(new PortUnavailableError(PORT, `Change stream history lost; ${what} resumes from now`, { cause: error }), what)
        } else {
          // The driver already resumed what it could; reopen from the last position it knew, after a pause.
          this.resumeToken = changes.resumeToken ?? this.resumeToken
          this.failuresInARow += 1
        }
        await changes.close().catch(() => undefined)
        await this.pause()
        if (this.stopped) return
        try {
          changes = this.open()
        } catch {
          // Could not even open (the client is gone): the closed stream fails again, and we wait again.
        }
      }
    }
  }

  private deliver(change: ChangeStreamInsertDocument<EventRecord>): void {
    this.resumeToken = change._id
    this.failuresInARow = 0
    const record = change.fullDocument
    try {
      // Frozen, like every EventBus adapter's messages: a subscriber cannot change what it was sent.
      this.onMessage(record.topic, deepFreeze(decodeJson({ value: record.message, json: record.messageJson })))
    } catch (error) {
      // A subscriber's failure is its own: the next message is still delivered.
      this.onSubscriberError(error, record.topic)
    }
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.reopenDelayMs)
      this.wakeUp = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  }
}
