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
    // The largest 2^height-aligned block at `start` that fits (a running span: no exponentiation per step).
    let height = 0
    let span = 1
    while (start % (span * 2) === 0 && start + span * 2 <= range.end) {
      height++
      span *= 2
    }
    subtrees.push({ height, index: start / span })
    start += span
  }
  return subtrees
}

/**
 * Hashes of complete subtrees already computed, by `height/index`. A complete subtree's leaves
 * never change in an append-only log, so its hash holds in every later tree: integrating a leaf
 * computes the new root, and the leaf's inclusion proof right after needs the same subtrees
 * (for the newest leaf, exactly those). One map serves one such sequence; nothing outlives it.
 */
export type SubtreeHashes = Map<string, Uint8Array>

const subtreeKey = (subtree: Subtree) => `${subtree.height}/${subtree.index}`

/** Where a subtree's hashes sit: `count` consecutive hashes from `offset` of tile (level, index). */
function placeOf(subtree: Subtree): { readonly level: number; readonly index: number; readonly offset: number; readonly count: number } {
  const level = Math.floor(subtree.height / TILE_HEIGHT)
  const count = 2 ** (subtree.height - level * TILE_HEIGHT)
  const first = subtree.index * count // position among the hashes of level level*8
  const index = Math.floor(first / TILE_WIDTH)
  return { level, index, offset: first - index * TILE_WIDTH, count }
}

function computedSubtreeHash(subtree: Subtree, tiles: ReadonlyMap<string, Uint8Array | undefined>): Uint8Array {
  const { level, index, offset, count } = placeOf(subtree)
  const tile = tiles.get(`${level}/${index}`)
  if (!tile || tile.length < (offset + count) * HASH_SIZE) {
    throw new Error(`Tile ${level}/${index} does not hold hashes ${offset}..${offset + count - 1}`)
  }
  return completeSubtreeHash(tile.subarray(offset * HASH_SIZE, (offset + count) * HASH_SIZE), count)
}

/**
 * MTH of each range. The tiles its subtrees need (those not already `known`) are read first, all
 * at once; then the hashes are computed synchronously — one await per tile rather than a chain of
 * promises per subtree and range, which cost more than the hashing on every seal.
 */
async function rangeHashes(ranges: readonly LeafRange[], read: ReadTile, known?: SubtreeHashes): Promise<Uint8Array[]> {
  const split = ranges.map(completeSubtrees)
  const wanted = new Map<string, { readonly level: number; readonly index: number }>()
  for (const subtrees of split) {
    for (const subtree of subtrees) {
      if (known?.has(subtreeKey(subtree))) continue
      const { level, index } = placeOf(subtree)
      wanted.set(`${level}/${index}`, { level, index })
    }
  }
  const tiles = new Map(wanted.size === 0 ? [] : await Promise.all([...wanted].map(async ([key, at]) => [key, await read(at.level, at.index)] as const)))
  return split.map((subtrees) => {
    if (subtrees.length === 0) return EMPTY_TREE_HASH
    const hashes = subtrees.map((subtree) => {
      const key = subtreeKey(subtree)
      let hash = known?.get(key)
      if (!hash) {
        hash = computedSubtreeHash(subtree, tiles)
        known?.set(key, hash)
      }
      return hash
    })
    return hashes.reduceRight((right, left) => nodeHash(left, right))
  })
}

/** MTH(D[start:end]) for a range a proof or a root needs. */
export async function rangeHash(range: LeafRange, read: ReadTile, known?: SubtreeHashes): Promise<Uint8Array> {
  return (await rangeHashes([range], read, known))[0]!
}

/** The root hash of the tree of `size` leaves. */
export function treeRoot(size: number, read: ReadTile, known?: SubtreeHashes): Promise<Uint8Array> {
  return rangeHash({ start: 0, end: size }, read, known)
}

/** The inclusion proof of leaf `index` in the tree of `size` leaves (RFC 9162 §2.1.3.1). */
export function inclusionProof(index: number, size: number, read: ReadTile, known?: SubtreeHashes): Promise<Uint8Array[]> {
  return rangeHashes(inclusionProofRanges(index, size), read, known)
}

/** The consistency proof from size `first` to size `second` (RFC 9162 §2.1.4.1). */
export function consistencyProof(first: number, second: number, read: ReadTile): Promise<Uint8Array[]> {
  return rangeHashes(consistencyProofRanges(first, second), read)
}
