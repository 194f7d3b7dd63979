/**
 * Offline verification of inclusion receipts and checkpoint consistency: only the leaf, the
 * receipt and the pinned log key, no network and no Store. Pure and synchronous, with no Node
 * built-ins, so a browser bundle can import this module directly (Node callers may pass a native
 * Ed25519 check for the checkpoint's signature).
 */
import { fromBase64 } from './base64.js'
import { openCheckpoint, type Checkpoint } from './checkpoint.js'
import { leafHash } from './merkle.js'
import { leafEntryBytes, type LogLeaf } from './leaf.js'
import type { Ed25519Verify, NoteVerifierKey } from './signed-note.js'
import { verifyConsistency, verifyInclusion } from './verify-proofs.js'

export interface InclusionReceipt {
  readonly leafIndex: number
  readonly treeSize: number
  /** The signed C2SP checkpoint (a signed note) of a tree of `treeSize` leaves. */
  readonly checkpoint: string
  /** Audit path, leaf to root, each hash in standard base64. */
  readonly inclusionProof: readonly string[]
}

export type ReceiptVerdict = { readonly ok: true; readonly checkpoint: Checkpoint } | { readonly ok: false; readonly error: string }

/**
 * Offline: the receipt's checkpoint is signed by the pinned log key, and `leaf` (the leaf object
 * or its exact entry bytes) is at `leafIndex` in that tree.
 *
 * @example verifyInclusionReceipt(leaf, receipt, 'cairn.example/log+1a2b3c4d+AR…') // { ok: true, checkpoint }
 */
export function verifyInclusionReceipt(leaf: LogLeaf | Uint8Array, receipt: InclusionReceipt, pinnedLogKey: string | NoteVerifierKey, verifyEd25519?: Ed25519Verify): ReceiptVerdict {
  const opened = openCheckpoint(receipt.checkpoint, pinnedLogKey, verifyEd25519)
  if (!opened.ok) return opened
  if (opened.checkpoint.size !== receipt.treeSize) return { ok: false, error: `The receipt names tree size ${receipt.treeSize} but its checkpoint is for ${opened.checkpoint.size}` }
  const proof = receipt.inclusionProof.map(fromBase64)
  if (proof.some((hash) => hash === undefined)) return { ok: false, error: 'The inclusion proof is not base64' }
  let entry: Uint8Array
  try {
    entry = leaf instanceof Uint8Array ? leaf : leafEntryBytes(leaf)
  } catch {
    return { ok: false, error: 'The leaf has no canonical JSON form' }
  }
  const included = verifyInclusion(receipt.leafIndex, receipt.treeSize, leafHash(entry), proof as Uint8Array[], opened.checkpoint.rootHash)
  return included ? opened : { ok: false, error: `The leaf is not at index ${receipt.leafIndex} of the signed tree` }
}

/** Offline: the tree in `newer` extends the tree in `older` (both checkpoints verified against the key). */
export function verifyCheckpointConsistency(older: string, newer: string, proof: readonly string[], pinnedLogKey: string | NoteVerifierKey): ReceiptVerdict {
  const first = openCheckpoint(older, pinnedLogKey)
  if (!first.ok) return first
  const second = openCheckpoint(newer, pinnedLogKey)
  if (!second.ok) return second
  const hashes = proof.map(fromBase64)
  if (hashes.some((hash) => hash === undefined)) return { ok: false, error: 'The consistency proof is not base64' }
  const consistent = verifyConsistency(first.checkpoint.size, second.checkpoint.size, hashes as Uint8Array[], first.checkpoint.rootHash, second.checkpoint.rootHash)
  return consistent ? second : { ok: false, error: `The tree of size ${second.checkpoint.size} does not extend the tree of size ${first.checkpoint.size}` }
}
