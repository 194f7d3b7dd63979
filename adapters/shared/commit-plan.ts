/**
 * The decision half of an atomic commit, shared by the adapters that can read their state
 * synchronously inside one critical section (memory, SQLite's `BEGIN IMMEDIATE`): check every
 * expectation in write order against what is stored plus what the earlier writes of the same commit
 * did, and either name the first one that fails or describe the complete result. Nothing is applied
 * here, so a failed commit cannot have written anything.
 */
import { chainHead, entryDigestOf } from '../../core/digest/chain.js'
import type { CommitConflict, Expectation, Json, StoredDocument, StreamEntry, UniqueKeySpec, Write } from '../../ports/store.js'
import { encodeStreamCursor } from './page-cursor.js'
import { toStoredJson } from './stored-json.js'

/** What the planner reads of the stored state (before the commit). */
export interface CommitView {
  /** The version of a stored document, or undefined when there is none. */
  version(collection: string, key: string): number | undefined
  /** The key of the stored document whose `uniqueKey` field is `value`. */
  uniqueHolder(collection: string, uniqueKey: UniqueKeySpec, value: string): string | undefined
  streamHead(stream: string): { readonly head: string; readonly sequence: number } | undefined
  uniqueKeys(collection: string): readonly UniqueKeySpec[]
}

/** The final state of one document the commit touches (null: deleted or still absent). */
export interface DocumentChange {
  readonly collection: string
  readonly key: string
  readonly document: StoredDocument | null
  /** True when the document was stored before this commit (an adapter may update it in place). */
  readonly storedBefore: boolean
}

/** A commit that may be applied as it stands. */
export interface CommitPlan {
  /** The document each put stores, in write order (what the commit answers). */
  readonly documents: readonly StoredDocument[]
  readonly appended: readonly StreamEntry[]
  /** One final state per touched document, in the order they were first touched. */
  readonly changes: readonly DocumentChange[]
}

export type PlannedCommit = { readonly ok: true; readonly plan: CommitPlan } | { readonly ok: false; readonly conflict: CommitConflict }

/**
 * @example
 * const planned = planCommit([{ kind: 'put', collection: 'c', key: 'k', value: 1, expect: { kind: 'absent' } }], view)
 * if (planned.ok) apply(planned.plan)
 */
export function planCommit(writes: readonly Write[], view: CommitView): PlannedCommit {
  const changes = new Map<string, DocumentChange>()
  const claims = new Map<string, string>()
  const heads = new Map<string, { head: string; sequence: number }>()
  const documents: StoredDocument[] = []
  const appended: StreamEntry[] = []

  for (const [writeIndex, write] of writes.entries()) {
    if (write.kind === 'append' || write.kind === 'appendNext') {
      const current = heads.get(write.stream) ?? view.streamHead(write.stream)
      const actualHead = current?.head ?? null
      if (write.kind === 'append' && actualHead !== write.expectHead) {
        return { ok: false, conflict: { _tag: 'HeadMismatch', writeIndex, expectedHead: write.expectHead, actualHead } }
      }
      const entry = nextEntry(write.stream, current, toStoredJson(write.value))
      heads.set(write.stream, entry)
      appended.push(entry)
      continue
    }
    const actualVersion = versionOf(changes, view, write.collection, write.key)
    if (!expectationHolds(write.expect, actualVersion)) {
      return { ok: false, conflict: { _tag: 'VersionMismatch', writeIndex, expected: write.expect, actualVersion } }
    }
    const id = documentId(write.collection, write.key)
    // The first touch read the stored version; later touches of the same document keep what it saw.
    const storedBefore = changes.get(id)?.storedBefore ?? actualVersion !== null
    if (write.kind === 'delete') {
      changes.set(id, { collection: write.collection, key: write.key, document: null, storedBefore })
      continue
    }
    const value = toStoredJson(write.value)
    const uniqueKeys = view.uniqueKeys(write.collection)
    for (const uniqueKey of uniqueKeys) {
      const claimed = uniqueValueOf(value, uniqueKey.field)
      if (claimed === undefined) continue
      const holder = holderOf(changes, claims, view, write.collection, uniqueKey, claimed)
      if (holder !== undefined && holder !== write.key) {
        return { ok: false, conflict: { _tag: 'UniqueViolation', writeIndex, uniqueKey: uniqueKey.name, value: claimed } }
      }
    }
    // `value` is already a frozen deep copy: freezing the document's own members leaves nothing mutable.
    const document = Object.freeze({ collection: write.collection, key: write.key, version: (actualVersion ?? 0) + 1, value })
    changes.set(id, { collection: write.collection, key: write.key, document, storedBefore })
    for (const uniqueKey of uniqueKeys) {
      const claimed = uniqueValueOf(value, uniqueKey.field)
      if (claimed !== undefined) claims.set(claimId(write.collection, uniqueKey.name, claimed), write.key)
    }
    documents.push(document)
  }
  return { ok: true, plan: { documents, appended, changes: [...changes.values()] } }
}

// Module-level rather than closures in planCommit: run through tsx (as `npm start` does), every
// named closure is renamed with Object.defineProperty each time it is made, on every commit.

/** The version a write meets: what an earlier write of this commit left, else what is stored (null: absent). */
function versionOf(changes: ReadonlyMap<string, DocumentChange>, view: CommitView, collection: string, key: string): number | null {
  const change = changes.get(documentId(collection, key))
  if (change !== undefined) return change.document?.version ?? null
  return view.version(collection, key) ?? null
}

/**
 * Who holds `value` now: a document claimed it earlier in this commit, or a stored document the
 * commit has not touched, or a touched one whose new value still carries it.
 */
function holderOf(
  changes: ReadonlyMap<string, DocumentChange>,
  claims: ReadonlyMap<string, string>,
  view: CommitView,
  collection: string,
  uniqueKey: UniqueKeySpec,
  value: string,
): string | undefined {
  for (const candidate of [claims.get(claimId(collection, uniqueKey.name, value)), view.uniqueHolder(collection, uniqueKey, value)]) {
    if (candidate === undefined) continue
    const change = changes.get(documentId(collection, candidate))
    if (change === undefined) return candidate
    if (change.document !== null && uniqueValueOf(change.document.value, uniqueKey.field) === value) return candidate
  }
  return undefined
}

/** True when a document at `actualVersion` (null: absent) meets `expect`. */
export function expectationHolds(expect: Expectation, actualVersion: number | null): boolean {
  if (expect.kind === 'any') return true
  if (expect.kind === 'absent') return actualVersion === null
  return actualVersion === expect.version
}

/**
 * The value a unique key indexes: top-level `field` when it is a string; otherwise not indexed.
 *
 * @example uniqueValueOf({ email: 'a@b.c' }, 'email') // 'a@b.c'
 */
export function uniqueValueOf(value: Json, field: string): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, field)) return undefined
  const item = (value as { readonly [key: string]: Json })[field]
  return typeof item === 'string' ? item : undefined
}

/** A map key naming one document: the collection's length first, so no two (collection, key) pairs share one (and no JSON text per write). */
function documentId(collection: string, key: string): string {
  return `${collection.length}:${collection}${key}`
}

/** A map key naming one unique value of one collection. */
export function claimId(collection: string, uniqueKey: string, value: string): string {
  return JSON.stringify([collection, uniqueKey, value])
}

function nextEntry(stream: string, prior: { readonly head: string; readonly sequence: number } | undefined, value: Json): StreamEntry {
  const sequence = (prior?.sequence ?? 0) + 1
  const priorHead = prior?.head ?? null
  const entryDigest = entryDigestOf(value)
  // `value` is already a frozen deep copy (toStoredJson); the other members are strings and numbers.
  return Object.freeze({ stream, sequence, cursor: encodeStreamCursor(sequence), value, entryDigest, priorHead, head: chainHead(priorHead, entryDigest) })
}
