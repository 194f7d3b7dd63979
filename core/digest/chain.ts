/**
 * The head of an append-only stream: each entry's head is the SHA-256 of the canonical JSON
 * `{"entryDigest":<digest of the entry>,"priorHead":<previous head or null>}`, so a head commits to
 * the whole history before it.
 */
import { sha256Hex, sha256OfJson } from './sha256.js'

/** Digest of one stream entry's value (its canonical JSON). */
export function entryDigestOf(value: unknown): string {
  return sha256OfJson(value)
}

/**
 * @example chainHead(null, entryDigestOf({ kind: 'genesis' }))
 */
export function chainHead(priorHead: string | null, entryDigest: string): string {
  // The canonical JSON of that two-member object, written out: RFC 8785 sorts the members so, and
  // serialises strings and null exactly as JSON.stringify does (a test pins equality with canonicalize).
  return sha256Hex(`{"entryDigest":${JSON.stringify(entryDigest)},"priorHead":${JSON.stringify(priorHead)}}`)
}

/** True when `entries` (in order, starting after `startHead`) chain correctly. */
export function verifyChain(
  startHead: string | null,
  entries: readonly { readonly value: unknown; readonly entryDigest: string; readonly priorHead: string | null; readonly head: string }[],
): boolean {
  let head = startHead
  for (const entry of entries) {
    if (entry.priorHead !== head) return false
    if (entry.entryDigest !== entryDigestOf(entry.value)) return false
    if (entry.head !== chainHead(head, entry.entryDigest)) return false
    head = entry.head
  }
  return true
}
