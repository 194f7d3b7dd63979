/**
 * Documents with versions, unique secondary keys, ordered queries, append-only streams, and one
 * atomic commit of many writes guarded by expectations. Every durable fact in Cairn goes through
 * `commit`, so "all or nothing" holds in one place.
 */

/** A JSON value as stored (adapters keep it byte-for-byte equal after a round trip through JSON). */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json }

/** A stored document: `version` starts at 1 and grows by one with every put. */
export interface StoredDocument<T extends Json = Json> {
  readonly collection: string
  readonly key: string
  readonly version: number
  readonly value: T
}

/** A unique secondary key over one top-level string field; documents without the field are not indexed. */
export interface UniqueKeySpec {
  readonly name: string
  readonly field: string
}

/** An ordered index over top-level fields (strings or numbers); ties are broken by document key. */
export interface IndexSpec {
  readonly name: string
  readonly fields: readonly string[]
}

export interface CollectionSpec {
  readonly name: string
  readonly uniqueKeys?: readonly UniqueKeySpec[]
  readonly indexes?: readonly IndexSpec[]
}

/** What a write expects to find before it applies. */
export type Expectation =
  | { readonly kind: 'absent' }
  | { readonly kind: 'version'; readonly version: number }
  | { readonly kind: 'any' }

export type Write =
  | { readonly kind: 'put'; readonly collection: string; readonly key: string; readonly value: Json; readonly expect: Expectation }
  | { readonly kind: 'delete'; readonly collection: string; readonly key: string; readonly expect: Expectation }
  /** Append `value` to `stream` if its head is `expectHead` (null: the stream is empty): for a caller that decided on a known head. */
  | { readonly kind: 'append'; readonly stream: string; readonly value: Json; readonly expectHead: string | null }
  /**
   * Append `value` to `stream` after whatever head the stream has when the commit applies: for a
   * caller that needs only the next position (a log leaf, a feed event). It never conflicts, so
   * commits appending to one stream this way never lose a race to each other; the outcome's
   * `appended` says which sequence, cursor and head it was given.
   */
  | { readonly kind: 'appendNext'; readonly stream: string; readonly value: Json }

/** Why a commit wrote nothing. `writeIndex` points into the commit's writes. */
export type CommitConflict =
  | { readonly _tag: 'VersionMismatch'; readonly writeIndex: number; readonly expected: Expectation; readonly actualVersion: number | null }
  | { readonly _tag: 'UniqueViolation'; readonly writeIndex: number; readonly uniqueKey: string; readonly value: string }
  | { readonly _tag: 'HeadMismatch'; readonly writeIndex: number; readonly expectedHead: string | null; readonly actualHead: string | null }

export type CommitOutcome =
  | { readonly ok: true; readonly documents: readonly StoredDocument[]; readonly appended: readonly StreamEntry[] }
  | { readonly ok: false; readonly conflict: CommitConflict }

/**
 * One entry of an append-only stream. `entryDigest` is SHA-256 over the RFC 8785 canonical JSON of
 * `value`; `head` chains it: SHA-256 of the canonical JSON `{"entryDigest":…,"priorHead":…}`
 * (see core/digest/chain.ts). `cursor` is opaque and orders entries.
 */
export interface StreamEntry<T extends Json = Json> {
  readonly stream: string
  readonly sequence: number
  readonly cursor: string
  readonly value: T
  readonly entryDigest: string
  readonly priorHead: string | null
  readonly head: string
}

export interface StreamHead {
  readonly head: string
  readonly sequence: number
  readonly cursor: string
}

/** A page of results and where to continue (null: nothing more now). */
export interface Page<T> {
  readonly items: readonly T[]
  readonly nextCursor: string | null
}

export interface QueryOptions {
  /** A declared index of the collection. */
  readonly index: string
  /** Equality on the first `equals.length` fields of the index. */
  readonly equals?: readonly (string | number)[]
  /** Continue after this cursor (from a previous page). */
  readonly after?: string
  /** @default 50, at most 1000 */
  readonly limit?: number
  /** @default 'asc' */
  readonly order?: 'asc' | 'desc'
}

export interface ReadStreamOptions {
  /** Entries strictly after this cursor; from the start when absent. */
  readonly after?: string
  /** @default 100, at most 1000 */
  readonly limit?: number
}

export interface Store {
  /** Declare collections with their unique keys and indexes. Idempotent; call before use. */
  declare(collections: readonly CollectionSpec[]): Promise<void>
  get<T extends Json = Json>(collection: string, key: string): Promise<StoredDocument<T> | undefined>
  getByUnique<T extends Json = Json>(collection: string, uniqueKey: string, value: string): Promise<StoredDocument<T> | undefined>
  query<T extends Json = Json>(collection: string, options: QueryOptions): Promise<Page<StoredDocument<T>>>
  /** Apply every write or none. A lost race answers `ok: false` with the first failed expectation. */
  commit(writes: readonly Write[]): Promise<CommitOutcome>
  streamHead(stream: string): Promise<StreamHead | undefined>
  readStream<T extends Json = Json>(stream: string, options?: ReadStreamOptions): Promise<Page<StreamEntry<T>>>
  close(): Promise<void>
}
