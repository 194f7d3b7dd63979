/**
 * Store in process memory: the default for `npm start` and tests, and the reference the other
 * adapters are compared with (conformance/suites/store-agreement.ts). A commit plans and applies in
 * one synchronous step, so no other call can observe or interleave with half of it.
 */
import { PortUnavailableError } from '../../ports/errors.js'
import type {
  CollectionSpec,
  CommitOutcome,
  Json,
  Page,
  QueryOptions,
  ReadStreamOptions,
  Store,
  StoredDocument,
  StreamEntry,
  StreamHead,
  Write,
} from '../../ports/store.js'
import { claimId, planCommit, uniqueValueOf, type CommitPlan, type CommitView } from '../shared/commit-plan.js'
import { CollectionSpecs } from '../shared/collection-specs.js'
import { comparePositions, indexValueOf, positionOf } from '../shared/index-order.js'
import { decodeQueryCursor, decodeStreamCursor, encodeQueryCursor } from '../shared/page-cursor.js'
import { clampLimit, DEFAULT_QUERY_LIMIT, DEFAULT_STREAM_LIMIT } from '../shared/page-limit.js'

/** The adapter's name, as configuration and logs spell it. */
export const MEMORY_STORE_NAME = 'memory'

/**
 * Stored documents and entries are frozen deep copies: callers can neither change them through a
 * value they passed in nor through one they got back.
 *
 * @example
 * const store = new MemoryStore()
 * await store.declare([{ name: 'users', uniqueKeys: [{ name: 'email', field: 'email' }] }])
 * await store.commit([{ kind: 'put', collection: 'users', key: 'u1', value: { email: 'a@b.c' }, expect: { kind: 'absent' } }])
 */
export class MemoryStore implements Store {
  private readonly specs = new CollectionSpecs()
  private readonly collections = new Map<string, Map<string, StoredDocument>>()
  /** claimId(collection, unique key, value) → document key. */
  private readonly uniqueHolders = new Map<string, string>()
  private readonly streams = new Map<string, StreamEntry[]>()
  private closed = false

  private readonly view: CommitView = {
    version: (collection, key) => this.collections.get(collection)?.get(key)?.version,
    uniqueHolder: (collection, uniqueKey, value) => this.uniqueHolders.get(claimId(collection, uniqueKey.name, value)),
    streamHead: (stream) => this.streams.get(stream)?.at(-1),
    uniqueKeys: (collection) => this.specs.uniqueKeys(collection),
  }

  async declare(collections: readonly CollectionSpec[]): Promise<void> {
    this.assertOpen()
    for (const spec of collections) {
      const { uniqueKeys } = this.specs.added(spec)
      // Index what is already stored before remembering the key, so a duplicate leaves nothing behind.
      const holders = new Map<string, string>()
      for (const document of this.collections.get(spec.name)?.values() ?? []) {
        for (const uniqueKey of uniqueKeys) {
          const value = uniqueValueOf(document.value, uniqueKey.field)
          if (value === undefined) continue
          const id = claimId(spec.name, uniqueKey.name, value)
          if (holders.has(id)) throw new RangeError(`Stored documents of ${spec.name} share ${uniqueKey.name} ${JSON.stringify(value)}`)
          holders.set(id, document.key)
        }
      }
      for (const [id, key] of holders) this.uniqueHolders.set(id, key)
      this.specs.remember(spec)
    }
  }

  async get<T extends Json = Json>(collection: string, key: string): Promise<StoredDocument<T> | undefined> {
    this.assertOpen()
    return this.collections.get(collection)?.get(key) as StoredDocument<T> | undefined
  }

  async getByUnique<T extends Json = Json>(collection: string, uniqueKey: string, value: string): Promise<StoredDocument<T> | undefined> {
    this.assertOpen()
    this.specs.uniqueKey(collection, uniqueKey)
    const key = this.uniqueHolders.get(claimId(collection, uniqueKey, value))
    return key === undefined ? undefined : this.get<T>(collection, key)
  }

  async query<T extends Json = Json>(collection: string, options: QueryOptions): Promise<Page<StoredDocument<T>>> {
    this.assertOpen()
    const { fields } = this.specs.index(collection, options.index)
    const equals = options.equals ?? []
    if (equals.length > fields.length) throw new RangeError(`Index ${options.index} has ${fields.length} fields, not ${equals.length}`)
    const limit = clampLimit(options.limit, DEFAULT_QUERY_LIMIT)
    const orderedFields = fields.slice(equals.length)
    const after = options.after === undefined ? undefined : decodeQueryCursor(options.after, orderedFields.length)
    const direction = options.order === 'desc' ? -1 : 1
    const rows = [...(this.collections.get(collection)?.values() ?? [])]
      .filter((document) => equals.every((value, i) => indexValueOf(document.value, fields[i]!) === value))
      .map((document) => ({ document, position: positionOf(document.key, document.value, orderedFields) }))
      .filter((row) => after === undefined || direction * comparePositions(row.position, after) > 0)
      .sort((a, b) => direction * comparePositions(a.position, b.position))
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    return {
      items: page.map((row) => row.document as StoredDocument<T>),
      nextCursor: rows.length > limit && last !== undefined ? encodeQueryCursor(last.position) : null,
    }
  }

  async commit(writes: readonly Write[]): Promise<CommitOutcome> {
    this.assertOpen()
    const planned = planCommit(writes, this.view)
    if (!planned.ok) return planned
    this.apply(planned.plan)
    return { ok: true, documents: planned.plan.documents, appended: planned.plan.appended }
  }

  async streamHead(stream: string): Promise<StreamHead | undefined> {
    this.assertOpen()
    const last = this.streams.get(stream)?.at(-1)
    return last === undefined ? undefined : { head: last.head, sequence: last.sequence, cursor: last.cursor }
  }

  async readStream<T extends Json = Json>(stream: string, options: ReadStreamOptions = {}): Promise<Page<StreamEntry<T>>> {
    this.assertOpen()
    const entries = this.streams.get(stream) ?? []
    const start = options.after === undefined ? 0 : decodeStreamCursor(options.after)
    const limit = clampLimit(options.limit, DEFAULT_STREAM_LIMIT)
    // Entry n sits at index n - 1, so the entries after sequence `start` begin at index `start`.
    const items = entries.slice(start, start + limit) as StreamEntry<T>[]
    const last = items.at(-1)
    return { items, nextCursor: entries.length > start + limit && last !== undefined ? last.cursor : null }
  }

  async close(): Promise<void> {
    this.closed = true
  }

  private apply(plan: CommitPlan): void {
    // Release every old unique value before claiming new ones: a value may move between documents.
    for (const change of plan.changes) {
      const old = this.collections.get(change.collection)?.get(change.key)
      if (old !== undefined) this.setUniqueHolders(old, undefined)
    }
    for (const change of plan.changes) {
      let documents = this.collections.get(change.collection)
      if (change.document === null) {
        documents?.delete(change.key)
        continue
      }
      if (documents === undefined) this.collections.set(change.collection, (documents = new Map()))
      documents.set(change.key, change.document)
      this.setUniqueHolders(change.document, change.document.key)
    }
    for (const entry of plan.appended) {
      const entries = this.streams.get(entry.stream) ?? []
      entries.push(entry)
      this.streams.set(entry.stream, entries)
    }
  }

  private setUniqueHolders(document: StoredDocument, holder: string | undefined): void {
    for (const uniqueKey of this.specs.uniqueKeys(document.collection)) {
      const value = uniqueValueOf(document.value, uniqueKey.field)
      if (value === undefined) continue
      const id = claimId(document.collection, uniqueKey.name, value)
      if (holder === undefined) this.uniqueHolders.delete(id)
      else this.uniqueHolders.set(id, holder)
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new PortUnavailableError('Store', 'The memory store is closed')
  }
}
