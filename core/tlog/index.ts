/**
 * The transparency log (docs/transparency-log.md): RFC 9162 Merkle tree, C2SP checkpoints and
 * tiles, leaves sequenced in the same commit as the records they prove.
 */
export { HASH_SIZE, EMPTY_TREE_HASH, leafHash, nodeHash, merkleTreeHash } from './merkle.js'
export { inclusionProofRanges, consistencyProofRanges, type LeafRange } from './proof-ranges.js'
export { verifyInclusion, verifyConsistency, rootFromInclusionProof } from './verify-proofs.js'
export { inclusionProof, consistencyProof, treeRoot, rangeHash, type ReadTile } from './tile-hashes.js'
export { encodeTileIndex, tilePath, parseTilePath, tileWidthAt, encodeEntryBundle, decodeEntryBundle, TILE_WIDTH, type TileCoordinate } from './tile-paths.js'
export { signNote, openNote, parseVerifierKey, verifierKeyText, ed25519KeyId, type NoteSigner, type NoteVerifierKey } from './signed-note.js'
export { checkpointText, parseCheckpointText, openCheckpoint, type Checkpoint } from './checkpoint.js'
export { logOrigin, logSigner, logVerifierKeys } from './log-identity.js'
export { LOG_LEAF_STREAM, leafEntryBytes, commitWithLeaves, type LogLeaf, type SequencedCommit } from './sequence.js'
export { tlogCollections, readLogState, type LogState } from './log-store.js'
export { integrateStep, integrateAll, type IntegrationResult } from './integrate.js'
export {
  awaitInclusion,
  readInclusionReceipt,
  readInclusionReceiptForLeaf,
  readInclusionReceiptForLeafHash,
  readConsistencyProof,
  verifyInclusionReceipt,
  verifyCheckpointConsistency,
  type InclusionReceipt,
  type ReceiptVerdict,
} from './inclusion.js'
