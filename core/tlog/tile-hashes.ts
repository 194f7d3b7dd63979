/**
 * Proofs and roots computed from tiles, the way a tlog-tiles client does it: every hash a proof
 * needs is the Merkle Tree Hash of a range of leaves, which splits into complete subtrees, each
 * read from (or reduced out of) one tile. The tile source is injected, so the same code serves
 * the log (tiles from the Store) and tests (tiles built in memory).
 */
import { EMPTY_TREE_HASH, HASH_SIZE, nodeHash } from './merkle.js'
import { completeSubtreeHash } from './subtree-memo.js'
import { consistencyProofRanges, inclusionProofRanges, type LeafRange } from './proof-ranges.js'
import { TILE_HEIGHT, TILE_WIDTH } from './tile-paths.js'

/** The stored hashes of tile (level, index), concatenated; at least as wide as any read asks. */
export type ReadTile = (level: number, index: number) => Promise<Uint8Array | undefined>

/** A complete subtree: 2^height leaves starting at index * 2^height. */
interface Subtree {
  readonly height: number
  readonly index: number
}

/** Splits an aligned range into complete subtrees, largest first (their right fold is the range's MTH). */
function completeSubtrees(range: LeafRange): Subtree[] {
  const subtrees: Subtree[] = []
  let start = range.start
  while (start < range.end) {
    let height = 0
    while (start % 2 ** (height + 1) === 0 && start + 2 ** (height + 1) <= range.end) height++
    subtrees.push({ height, index: start / 2 ** height })
    start += 2 ** height
  }
  return subtrees
}

/** Reads tiles once per computation. */
export function cachedTileReader(read: ReadTile): ReadTile {
  const cache = new Map<string, Promise<Uint8Array | undefined>>()
  return (level, index) => {
    const key = `${level}/${index}`
    let tile = cache.get(key)
    if (!tile) cache.set(key, (tile = read(level, index)))
    return tile
  }
}

/**
 * Hashes of complete subtrees already computed, by `height/index`. A complete subtree's leaves
 * never change in an append-only log, so its hash holds in every later tree: integrating a leaf
 * computes the new root, and the leaf's inclusion proof right after needs the same subtrees
 * (for the newest leaf, exactly those). One map serves one such sequence; nothing outlives it.
 */
export type SubtreeHashes = Map<string, Uint8Array>

async function subtreeHash(subtree: Subtree, read: ReadTile, known?: SubtreeHashes): Promise<Uint8Array> {
  const key = `${subtree.height}/${subtree.index}`
  const found = known?.get(key)
  if (found) return found
  const hash = await computedSubtreeHash(subtree, read)
  known?.set(key, hash)
  return hash
}

async function computedSubtreeHash(subtree: Subtree, read: ReadTile): Promise<Uint8Array> {
  const tileLevel = Math.floor(subtree.height / TILE_HEIGHT)
  const within = subtree.height - tileLevel * TILE_HEIGHT
  const count = 2 ** within
  const first = subtree.index * count // position among the hashes of level tileLevel*8
  const tileIndex = Math.floor(first / TILE_WIDTH)
  const offset = first - tileIndex * TILE_WIDTH
  const tile = await read(tileLevel, tileIndex)
  if (!tile || tile.length < (offset + count) * HASH_SIZE) {
    throw new Error(`Tile ${tileLevel}/${tileIndex} does not hold hashes ${offset}..${offset + count - 1}`)
  }
  return completeSubtreeHash(tile.subarray(offset * HASH_SIZE, (offset + count) * HASH_SIZE), count)
}

/** MTH(D[start:end]) for a range a proof or a root needs. */
export async function rangeHash(range: LeafRange, read: ReadTile, known?: SubtreeHashes): Promise<Uint8Array> {
  if (range.end <= range.start) return EMPTY_TREE_HASH
  const hashes = await Promise.all(completeSubtrees(range).map((subtree) => subtreeHash(subtree, read, known)))
  return hashes.reduceRight((right, left) => nodeHash(left, right))
}

/** The root hash of the tree of `size` leaves. */
export function treeRoot(size: number, read: ReadTile, known?: SubtreeHashes): Promise<Uint8Array> {
  return rangeHash({ start: 0, end: size }, cachedTileReader(read), known)
}

/** The inclusion proof of leaf `index` in the tree of `size` leaves (RFC 9162 §2.1.3.1). */
export function inclusionProof(index: number, size: number, read: ReadTile, known?: SubtreeHashes): Promise<Uint8Array[]> {
  const cached = cachedTileReader(read)
  return Promise.all(inclusionProofRanges(index, size).map((range) => rangeHash(range, cached, known)))
}

/** The consistency proof from size `first` to size `second` (RFC 9162 §2.1.4.1). */
export function consistencyProof(first: number, second: number, read: ReadTile): Promise<Uint8Array[]> {
  const cached = cachedTileReader(read)
  return Promise.all(consistencyProofRanges(first, second).map((range) => rangeHash(range, cached)))
}
