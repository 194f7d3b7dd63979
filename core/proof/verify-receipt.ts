/**
 * Offline check of a seal's log inclusion receipt, from core/tlog's pure pieces only (checkpoint,
 * Merkle proof), so the browser bundle carries no Store code. Same rule as core/tlog's
 * verifyInclusionReceipt: the checkpoint is signed by the pinned log key and the leaf is at
 * `leafIndex` of that tree.
 */
import { fromBase64 } from '../tlog/base64.js'
import { openCheckpoint } from '../tlog/checkpoint.js'
import { leafHash } from '../tlog/merkle.js'
import { verifyInclusion } from '../tlog/verify-proofs.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'

export interface Receipt {
  readonly leafIndex: number
  readonly treeSize: number
  readonly checkpoint: string
  readonly inclusionProof: readonly string[]
}

export function verifyReceipt(leaf: object, receipt: Receipt, pinnedLogKey: string): { ok: true } | { ok: false; error: string } {
  const opened = openCheckpoint(receipt.checkpoint, pinnedLogKey)
  if (!opened.ok) return opened
  if (opened.checkpoint.size !== receipt.treeSize) return { ok: false, error: `The receipt names tree size ${receipt.treeSize} but its checkpoint is for ${opened.checkpoint.size}` }
  const proof = receipt.inclusionProof.map(fromBase64)
  if (proof.some((hash) => hash === undefined)) return { ok: false, error: 'The inclusion proof is not base64' }
  const included = verifyInclusion(receipt.leafIndex, receipt.treeSize, leafHash(canonicalJsonBytes(leaf)), proof as Uint8Array[], opened.checkpoint.rootHash)
  return included ? { ok: true } : { ok: false, error: `The leaf is not at index ${receipt.leafIndex} of the signed tree` }
}
