/** Subtree hashes shared across a growing log give the same roots and proofs as computing each afresh. */
import { describe, expect, it } from 'vitest'
import { leafHash, merkleTreeHash } from './merkle.js'
import { extendTiles, edgeTileCoordinates, type Tile } from './tile-builder.js'
import { inclusionProof, treeRoot, type ReadTile, type SubtreeHashes } from './tile-hashes.js'
import { verifyInclusion } from './verify-proofs.js'

describe('subtree hashes shared between root and proofs', () => {
  it('match fresh computations at every size through two tiles', async () => {
    const tiles = new Map<string, Uint8Array>()
    const read: ReadTile = async (level, index) => tiles.get(`${level}/${index}`)
    const leaves: Uint8Array[] = []
    const known: SubtreeHashes = new Map()
    for (let size = 0; size < 600; size++) {
      const hash = leafHash(new TextEncoder().encode(`leaf ${size}`))
      const edges: Tile[] = edgeTileCoordinates(size)
        .filter((edge) => edge.width > 0)
        .map((edge) => ({ level: edge.level, index: edge.index, hashes: tiles.get(`${edge.level}/${edge.index}`)!.slice(0, edge.width * 32) }))
      for (const tile of extendTiles(size, edges, [hash])) tiles.set(`${tile.level}/${tile.index}`, tile.hashes)
      leaves.push(hash)
      const root = await treeRoot(size + 1, read, known)
      expect(root).toEqual(merkleTreeHash(leaves))
      for (const index of [size, Math.floor(size / 2), 0]) {
        const shared = await inclusionProof(index, size + 1, read, known)
        expect(shared).toEqual(await inclusionProof(index, size + 1, read))
        expect(verifyInclusion(index, size + 1, leaves[index]!, shared, root)).toBe(true)
      }
    }
  })
})
