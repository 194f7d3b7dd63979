/**
 * Inclusion receipts: what a sealed object embeds so it verifies offline — the leaf's index, the
 * signed checkpoint of a tree that contains it, and the RFC 9162 audit path to that checkpoint's
 * root. `awaitInclusion` waits for (and drives) integration; `verifyInclusionReceipt` needs no
 * network and no Store, only the leaf and the pinned log key.
 */
import type { CoreDeps } from '../usecases/use-case.js'
import { fromBase64, toBase64 } from './base64.js'
import { openCheckpoint, type Checkpoint } from './checkpoint.js'
import { integrateStep, type IntegrateDeps } from './integrate.js'
import { readLogState, storeTileReader } from './log-store.js'
import { leafHash } from './merkle.js'
import { LOG_LEAF_STREAM, leafEntryBytes, type LogLeaf } from './sequence.js'
import type { NoteVerifierKey } from './signed-note.js'
import { consistencyProof, inclusionProof } from './tile-hashes.js'
import { verifyConsistency, verifyInclusion } from './verify-proofs.js'

export interface InclusionReceipt {
  readonly leafIndex: number
  readonly treeSize: number
  /** The signed C2SP checkpoint (a signed note) of a tree of `treeSize` leaves. */
  readonly checkpoint: string
  /** Audit path, leaf to root, each hash in standard base64. */
  readonly inclusionProof: readonly string[]
}

/** The receipt for leaf `leafIndex` against the current checkpoint, or undefined when not yet integrated. */
export async function readInclusionReceipt(deps: Pick<CoreDeps, 'store'>, leafIndex: number): Promise<InclusionReceipt | undefined> {
  const state = await readLogState(deps.store)
  if (!state || leafIndex >= state.value.size) return undefined
  const proof = await inclusionProof(leafIndex, state.value.size, storeTileReader(deps.store))
  return { leafIndex, treeSize: state.value.size, checkpoint: state.value.checkpoint, inclusionProof: proof.map(toBase64) }
}

/**
 * The receipt once leaf `leafIndex` is integrated, integrating it here if no one else has yet
 * (each step either integrates or finds that another host did, so this finishes).
 *
 * @example const receipt = await awaitInclusion(deps, leafIndexes[0])
 */
export async function awaitInclusion(deps: IntegrateDeps, leafIndex: number, maxSteps = 100): Promise<InclusionReceipt> {
  for (let step = 0; step < maxSteps; step++) {
    const receipt = await readInclusionReceipt(deps, leafIndex)
    if (receipt) return receipt
    const result = await integrateStep(deps)
    if (result.integrated === 0 && result.size <= leafIndex) {
      const sequenced = await deps.store.streamHead(LOG_LEAF_STREAM)
      if ((sequenced?.sequence ?? 0) <= leafIndex) throw new RangeError(`Log leaf ${leafIndex} was never sequenced`)
    }
  }
  throw new Error(`Log leaf ${leafIndex} was not integrated after ${maxSteps} steps`)
}

/** A consistency proof between two tree sizes the current checkpoint covers. */
export async function readConsistencyProof(deps: Pick<CoreDeps, 'store'>, first: number, second: number): Promise<Uint8Array[] | undefined> {
  const state = await readLogState(deps.store)
  if (!state || second > state.value.size || first > second) return undefined
  return consistencyProof(first, second, storeTileReader(deps.store))
}

export type ReceiptVerdict = { readonly ok: true; readonly checkpoint: Checkpoint } | { readonly ok: false; readonly error: string }

/**
 * Offline: the receipt's checkpoint is signed by the pinned log key, and `leaf` (the leaf object
 * or its exact entry bytes) is at `leafIndex` in that tree.
 *
 * @example verifyInclusionReceipt(leaf, receipt, 'cairn.example/log+1a2b3c4d+AR…') // { ok: true, checkpoint }
 */
export function verifyInclusionReceipt(leaf: LogLeaf | Uint8Array, receipt: InclusionReceipt, pinnedLogKey: string | NoteVerifierKey): ReceiptVerdict {
  const opened = openCheckpoint(receipt.checkpoint, pinnedLogKey)
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
