/**
 * Growing the tiles when leaves are integrated: leaf hashes are appended to the rightmost level-0
 * tile; each tile that fills up contributes its Merkle Tree Hash to the rightmost tile one level
 * up. Pure (a full tile reduces through the content-keyed subtree memo): the caller loads the
 * rightmost tiles of the old tree and stores the tiles that changed.
 */
import { HASH_SIZE } from './merkle.js'
import { completeSubtreeHash } from './subtree-memo.js'
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

/** The rightmost tile of one level while leaves are appended: its hashes so far (`count`) in a buffer with room for more. */
interface GrowingEdge {
  index: number
  bytes: Uint8Array
  count: number
  changed: boolean
}

/** Appends `hash` to the edge of `level`; a tile it fills is final and sends its hash one level up. */
function append(edges: GrowingEdge[], changed: Tile[], level: number, hash: Uint8Array): void {
  const edge = (edges[level] ??= { index: 0, bytes: new Uint8Array(TILE_WIDTH * HASH_SIZE), count: 0, changed: false })
  if (hash.length !== HASH_SIZE) throw new Error(`A tile hash is ${hash.length} bytes, not ${HASH_SIZE}`)
  if (edge.bytes.length === edge.count * HASH_SIZE) {
    const grown = new Uint8Array(TILE_WIDTH * HASH_SIZE)
    grown.set(edge.bytes)
    edge.bytes = grown
  }
  edge.bytes.set(hash, edge.count * HASH_SIZE)
  edge.count++
  edge.changed = true
  if (edge.count === TILE_WIDTH) {
    changed.push({ level, index: edge.index, hashes: edge.bytes })
    edges[level] = { index: edge.index + 1, bytes: new Uint8Array(TILE_WIDTH * HASH_SIZE), count: 0, changed: false }
    append(edges, changed, level + 1, completeSubtreeHash(edge.bytes, TILE_WIDTH))
  }
}

/**
 * The tiles that change when `leafHashes` are appended to a tree of `size` leaves.
 * `edgeTiles` holds the non-empty rightmost tiles of the old tree (see edgeTileCoordinates), each
 * exactly as wide as that tree makes it; they are read, never written. Hashes are copied once into
 * one buffer per level (a seal appends one hash to a tile of up to 255: no list of them).
 *
 * @example extendTiles(0, [], [leafHash(a)]) // [{ level: 0, index: 0, hashes: <32 bytes> }]
 */
export function extendTiles(size: number, edgeTiles: readonly Tile[], leafHashes: readonly Uint8Array[]): Tile[] {
  const edges: GrowingEdge[] = []
  for (const edge of edgeTileCoordinates(size)) {
    const stored = edgeTiles.find((tile) => tile.level === edge.level && tile.index === edge.index)
    const width = stored ? stored.hashes.length / HASH_SIZE : 0
    if (width !== edge.width) throw new Error(`Tile ${edge.level}/${edge.index} holds ${width} hashes, expected ${edge.width}`)
    // Room for every new leaf (a level never grows by more), so a seal's one leaf copies the tile once and allocates nothing more.
    const bytes = new Uint8Array(Math.min(TILE_WIDTH, width + leafHashes.length) * HASH_SIZE)
    if (stored) bytes.set(stored.hashes)
    edges[edge.level] = { index: edge.index, bytes, count: width, changed: false }
  }
  const changed: Tile[] = []
  for (const hash of leafHashes) append(edges, changed, 0, hash)
  edges.forEach((edge, level) => {
    if (edge.changed) changed.push({ level, index: edge.index, hashes: edge.bytes.length === edge.count * HASH_SIZE ? edge.bytes : edge.bytes.slice(0, edge.count * HASH_SIZE) })
  })
  return changed
}
