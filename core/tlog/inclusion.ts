/**
 * Inclusion receipts from the Store: what a sealed object embeds so it verifies offline — the
 * leaf's index, the signed checkpoint of a tree that contains it, and the RFC 9162 audit path to
 * that checkpoint's root. `awaitInclusion` waits for (and drives) integration. Verifying a receipt
 * needs no Store: verify-receipt.ts.
 */
import type { Store } from '../../ports/store.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { toBase64, toHex } from './base64.js'
import { memoTileReader } from './edge-memo.js'
import { integrateStep, MAX_LEAVES_PER_STEP, type IntegrateDeps, type IntegrationResult } from './integrate.js'
import { logLeafIndexes, readLogState, storeTileReader, type LogState } from './log-store.js'
import { leafHash } from './merkle.js'
import { LOG_LEAF_STREAM, leafEntryBytes, type LogLeaf } from './sequence.js'
import { consistencyProof, inclusionProof, type SubtreeHashes } from './tile-hashes.js'

import type { InclusionReceipt } from './verify-receipt.js'

export { verifyInclusionReceipt, verifyCheckpointConsistency, type InclusionReceipt, type ReceiptVerdict } from './verify-receipt.js'

/** The receipt for leaf `leafIndex` against the current checkpoint, or undefined when not yet integrated. */
export async function readInclusionReceipt(deps: Pick<CoreDeps, 'store'>, leafIndex: number): Promise<InclusionReceipt | undefined> {
  const state = await readLogState(deps.store)
  return state && leafIndex < state.value.size ? receiptAgainst(deps.store, state.value, leafIndex) : undefined
}

/** The receipt for leaf `leafIndex` against `state`'s checkpoint (the leaf is in its tree). */
async function receiptAgainst(store: Store, state: LogState, leafIndex: number, known?: SubtreeHashes): Promise<InclusionReceipt> {
  // The newest leaf's proof reads the partial tile the integration just wrote: its memo has the bytes.
  const proof = await inclusionProof(leafIndex, state.size, memoTileReader(store), known)
  return { leafIndex, treeSize: state.size, checkpoint: state.checkpoint, inclusionProof: proof.map(toBase64) }
}

/**
 * The receipt for a leaf found by its content: whoever holds a record rebuilds its leaf, and this
 * finds where the log put it. Undefined until integrated.
 */
export async function readInclusionReceiptForLeaf(deps: Pick<CoreDeps, 'store'>, leaf: LogLeaf | Uint8Array): Promise<InclusionReceipt | undefined> {
  const hash = leafHash(leaf instanceof Uint8Array ? leaf : leafEntryBytes(leaf))
  return readInclusionReceiptForLeafHash(deps, toHex(hash))
}

/** As readInclusionReceiptForLeaf, from the leaf hash in lowercase hex. */
export async function readInclusionReceiptForLeafHash(deps: Pick<CoreDeps, 'store'>, leafHashHex: string): Promise<InclusionReceipt | undefined> {
  const found = await logLeafIndexes.get(deps.store, leafHashHex)
  return found ? readInclusionReceipt(deps, found.value.index) : undefined
}

/**
 * The receipt once leaf `leafIndex` is integrated, integrating it here if no one else has yet
 * (each step either integrates or finds that another host did, so this finishes). Callers have
 * just sequenced the leaf, so a step comes first, not a read that would find it missing: the
 * receipt is then taken against the state that step committed or found, without reading it again.
 *
 * @example const receipt = await awaitInclusion(deps, leafIndexes[0])
 */
export async function awaitInclusion(deps: IntegrateDeps, leafIndex: number, maxSteps = 100): Promise<InclusionReceipt> {
  // The root this integrates and the proof read right after share their subtrees: hash them once.
  const known: SubtreeHashes = new Map()
  for (let step = 0; step < maxSteps; step++) {
    const result = await sharedIntegrateStep(deps, known)
    if (leafIndex < result.size) return receiptAgainst(deps.store, result.state, leafIndex, known)
    if (result.integrated === 0) {
      const sequenced = await deps.store.streamHead(LOG_LEAF_STREAM)
      if ((sequenced?.sequence ?? 0) <= leafIndex) throw new RangeError(`Log leaf ${leafIndex} was never sequenced`)
    }
  }
  throw new Error(`Log leaf ${leafIndex} was not integrated after ${maxSteps} steps`)
}

/** The integration step each Store has under way in this process. */
const stepsUnderWay = new WeakMap<Store, Promise<IntegrationResult>>()

/**
 * One integration step for every caller waiting at once (Tessera's batching): a caller that finds
 * a step under way on its Store waits for that step instead of starting a rival one that would
 * lose the state's version race and redo the same tiles; the next step takes every leaf sequenced
 * meanwhile. Other processes still race through the version expectation, as before.
 */
function sharedIntegrateStep(deps: IntegrateDeps, known: SubtreeHashes): Promise<IntegrationResult> {
  const underWay = stepsUnderWay.get(deps.store)
  if (underWay) return underWay
  const step = integrateStep(deps, MAX_LEAVES_PER_STEP, known).finally(() => stepsUnderWay.delete(deps.store))
  stepsUnderWay.set(deps.store, step)
  return step
}

/** A consistency proof between two tree sizes the current checkpoint covers. */
export async function readConsistencyProof(deps: Pick<CoreDeps, 'store'>, first: number, second: number): Promise<Uint8Array[] | undefined> {
  const state = await readLogState(deps.store)
  if (!state || second > state.value.size || first > second) return undefined
  return consistencyProof(first, second, storeTileReader(deps.store))
}

