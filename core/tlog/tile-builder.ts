/**
 * Growing the tiles when leaves are integrated: leaf hashes are appended to the rightmost level-0
 * tile; each tile that fills up contributes its Merkle Tree Hash to the rightmost tile one level
 * up. Pure: the caller loads the rightmost tiles of the old tree and stores the tiles that changed.
 */
import { HASH_SIZE, merkleTreeHash } from './merkle.js'
import { tileSpan, TILE_WIDTH } from './tile-paths.js'

export interface Tile {
  readonly level: number
  readonly index: number
  /** 1 to 256 hashes, concatenated. */
  readonly hashes: Uint8Array
}

/** Where the rightmost (possibly empty) tile of each level sits in a tree of `size` leaves. */
export function edgeTileCoordinates(size: number): { readonly level: number; readonly index: number; readonly width: number }[] {
  const edges = []
  for (let level = 0; level === 0 || tileSpan(level) <= size; level++) {
    const hashesAtLevel = Math.floor(size / tileSpan(level))
    edges.push({ level, index: Math.floor(hashesAtLevel / TILE_WIDTH), width: hashesAtLevel % TILE_WIDTH })
  }
  return edges
}

function splitHashes(bytes: Uint8Array): Uint8Array[] {
  const hashes: Uint8Array[] = []
  for (let at = 0; at < bytes.length; at += HASH_SIZE) hashes.push(bytes.slice(at, at + HASH_SIZE))
  return hashes
}

function concat(hashes: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(hashes.length * HASH_SIZE)
  hashes.forEach((hash, i) => out.set(hash, i * HASH_SIZE))
  return out
}

/**
 * The tiles that change when `leafHashes` are appended to a tree of `size` leaves.
 * `edgeTiles` holds the non-empty rightmost tiles of the old tree (see edgeTileCoordinates), each
 * exactly as wide as that tree makes it.
 *
 * @example extendTiles(0, [], [leafHash(a)]) // [{ level: 0, index: 0, hashes: <32 bytes> }]
 */
export function extendTiles(size: number, edgeTiles: readonly Tile[], leafHashes: readonly Uint8Array[]): Tile[] {
  const edges = new Map<number, { index: number; hashes: Uint8Array[] }>()
  for (const edge of edgeTileCoordinates(size)) {
    const stored = edgeTiles.find((tile) => tile.level === edge.level && tile.index === edge.index)
    const hashes = stored ? splitHashes(stored.hashes) : []
    if (hashes.length !== edge.width) throw new Error(`Tile ${edge.level}/${edge.index} holds ${hashes.length} hashes, expected ${edge.width}`)
    edges.set(edge.level, { index: edge.index, hashes })
  }
  // Each changed tile's hashes, concatenated once at the end: a tile's list is never touched again
  // once it is full (its level moves on to a fresh list).
  const changed = new Map<string, { readonly level: number; readonly index: number; readonly hashes: Uint8Array[] }>()
  const append = (level: number, hash: Uint8Array): void => {
    let edge = edges.get(level)
    if (!edge) edges.set(level, (edge = { index: 0, hashes: [] }))
    edge.hashes.push(hash)
    changed.set(`${level}/${edge.index}`, { level, index: edge.index, hashes: edge.hashes })
    if (edge.hashes.length === TILE_WIDTH) {
      const full = edge.hashes
      edges.set(level, { index: edge.index + 1, hashes: [] })
      append(level + 1, merkleTreeHash(full))
    }
  }
  for (const hash of leafHashes) append(0, hash)
  return [...changed.values()].map(({ level, index, hashes }) => ({ level, index, hashes: concat(hashes) }))
}
