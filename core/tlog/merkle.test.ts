/**
 * Golden vectors from RFC 9162's reference test data (transparency-dev/merkle testonly and
 * proof/verify_test.go: the eight leaves, every root, inclusion and consistency proofs) and
 * properties over random trees: tile-based proofs equal the RFC definition and verify.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { EMPTY_TREE_HASH, leafHash, merkleTreeHash, nodeHash } from './merkle.js'
import { consistencyProofRanges, inclusionProofRanges } from './proof-ranges.js'
import { extendTiles, edgeTileCoordinates, type Tile } from './tile-builder.js'
import { consistencyProof, inclusionProof, rangeHash, treeRoot, type ReadTile } from './tile-hashes.js'
import { rootFromInclusionProof, verifyConsistency, verifyInclusion } from './verify-proofs.js'

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'hex'))

const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(bytes)
const ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
]
const INCLUSION = [
  { index: 0, size: 8, proof: ['96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7', '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4'] },
  { index: 5, size: 8, proof: ['bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b', 'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0', 'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7'] },
  { index: 2, size: 3, proof: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  { index: 1, size: 5, proof: ['6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d', '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', 'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b'] },
]
const CONSISTENCY = [
  { first: 1, second: 8, proof: ['96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7', '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4'] },
  { first: 6, second: 8, proof: ['0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a', 'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0', 'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7'] },
  { first: 2, second: 5, proof: ['5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', 'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b'] },
  { first: 6, second: 7, proof: ['0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a', 'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f', 'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7'] },
]

/** Tiles built the way the integrator builds them, batch by batch, kept in a map. */
function tilesFor(leafHashes: readonly Uint8Array[], batches: readonly number[] = [leafHashes.length]): { read: ReadTile; tiles: Map<string, Tile> } {
  const tiles = new Map<string, Tile>()
  let size = 0
  for (const batch of [...batches, leafHashes.length]) {
    const next = Math.min(leafHashes.length, size + batch)
    if (next === size) continue
    const edges = edgeTileCoordinates(size).flatMap((edge) => (edge.width === 0 ? [] : [tiles.get(`${edge.level}/${edge.index}`)!]))
    for (const tile of extendTiles(size, edges, leafHashes.slice(size, next))) tiles.set(`${tile.level}/${tile.index}`, tile)
    size = next
  }
  return { tiles, read: async (level, index) => tiles.get(`${level}/${index}`)?.hashes }
}

const hashesOf = (count: number) => Array.from({ length: count }, (_, i) => leafHash(new TextEncoder().encode(`leaf ${i}`)))

describe('RFC 9162 Merkle tree (golden vectors)', () => {
  const hashes = LEAVES.map(leafHash)

  it('computes every root of the reference tree, the empty one included', async () => {
    expect(hex(EMPTY_TREE_HASH)).toBe(ROOTS[0])
    for (let size = 0; size <= 8; size++) {
      expect(hex(merkleTreeHash(hashes.slice(0, size)))).toBe(ROOTS[size])
      expect(hex(await treeRoot(size, tilesFor(hashes).read))).toBe(ROOTS[size])
    }
  })

  it('produces and verifies the reference inclusion proofs', async () => {
    const { read } = tilesFor(hashes)
    for (const vector of INCLUSION) {
      const proof = await inclusionProof(vector.index, vector.size, read)
      expect(proof.map(hex)).toEqual(vector.proof)
      expect(verifyInclusion(vector.index, vector.size, hashes[vector.index]!, proof, bytes(ROOTS[vector.size]!))).toBe(true)
    }
  })

  it('produces and verifies the reference consistency proofs', async () => {
    const { read } = tilesFor(hashes)
    for (const vector of CONSISTENCY) {
      const proof = await consistencyProof(vector.first, vector.second, read)
      expect(proof.map(hex)).toEqual(vector.proof)
      expect(verifyConsistency(vector.first, vector.second, proof, bytes(ROOTS[vector.first]!), bytes(ROOTS[vector.second]!))).toBe(true)
    }
  })

  it('refuses corrupted inclusion proofs (wrong index, size, leaf, root, extra or missing hashes, flipped bits)', () => {
    const vector = INCLUSION[1]!
    const proof = vector.proof.map(bytes)
    const root = bytes(ROOTS[8]!)
    const leaf = hashes[5]!
    expect(verifyInclusion(4, 8, leaf, proof, root)).toBe(false)
    expect(verifyInclusion(6, 8, leaf, proof, root)).toBe(false)
    expect(verifyInclusion(5, 16, leaf, proof, root)).toBe(false)
    expect(verifyInclusion(5, 4, leaf, proof, root)).toBe(false)
    expect(verifyInclusion(5, 8, hashes[4]!, proof, root)).toBe(false)
    expect(verifyInclusion(5, 8, leaf, proof, EMPTY_TREE_HASH)).toBe(false)
    expect(verifyInclusion(5, 8, leaf, [...proof, root], root)).toBe(false)
    expect(verifyInclusion(5, 8, leaf, [root, ...proof], root)).toBe(false)
    expect(verifyInclusion(5, 8, leaf, proof.slice(0, 2), root)).toBe(false)
    expect(verifyInclusion(5, 8, leaf, [new Uint8Array(), ...proof], root)).toBe(false)
    for (let i = 0; i < proof.length; i++) {
      const flipped = proof.map((hash, j) => (j === i ? hash.map((byte, k) => (k === 0 ? byte ^ 8 : byte)) : hash))
      expect(verifyInclusion(5, 8, leaf, flipped, root)).toBe(false)
    }
    expect(rootFromInclusionProof(8, 8, leaf, proof)).toBeUndefined()
  })

  it('refuses corrupted consistency proofs and time travel', () => {
    const vector = CONSISTENCY[1]!
    const proof = vector.proof.map(bytes)
    const [root6, root8] = [bytes(ROOTS[6]!), bytes(ROOTS[8]!)]
    expect(verifyConsistency(6, 8, proof, root6, root8)).toBe(true)
    expect(verifyConsistency(5, 8, proof, root6, root8)).toBe(false)
    expect(verifyConsistency(7, 8, proof, root6, root8)).toBe(false)
    expect(verifyConsistency(6, 16, proof, root6, root8)).toBe(false)
    expect(verifyConsistency(6, 8, proof, root8, root6)).toBe(false)
    expect(verifyConsistency(6, 8, [], root6, root8)).toBe(false)
    expect(verifyConsistency(6, 8, proof.slice(0, 2), root6, root8)).toBe(false)
    expect(verifyConsistency(6, 8, [...proof, root8], root6, root8)).toBe(false)
    expect(verifyConsistency(8, 6, proof, root8, root6)).toBe(false)
    expect(verifyConsistency(8, 8, [], root8, root8)).toBe(true)
    expect(verifyConsistency(8, 8, [], root6, root8)).toBe(false)
    expect(verifyConsistency(0, 8, [], root6, root8)).toBe(true)
    expect(verifyConsistency(0, 8, proof, root6, root8)).toBe(false)
  })

  it('lists proof ranges as RFC 9162 PATH and SUBPROOF do', () => {
    expect(inclusionProofRanges(5, 8)).toEqual([{ start: 4, end: 5 }, { start: 6, end: 8 }, { start: 0, end: 4 }])
    expect(consistencyProofRanges(6, 8)).toEqual([{ start: 4, end: 6 }, { start: 6, end: 8 }, { start: 0, end: 4 }])
    expect(consistencyProofRanges(4, 8)).toEqual([{ start: 4, end: 8 }])
    expect(() => inclusionProofRanges(3, 3)).toThrow(RangeError)
  })
})

describe('tiles (properties over random trees)', () => {
  it('tiles grown in any batches give the RFC root, and every tile hash is the MTH of its leaves', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1400 }), fc.array(fc.integer({ min: 1, max: 700 }), { maxLength: 6 }), async (size, batches) => {
        const hashes = hashesOf(size)
        const { read, tiles } = tilesFor(hashes, batches)
        expect(hex(await treeRoot(size, read))).toBe(hex(merkleTreeHash(hashes)))
        for (const tile of tiles.values()) {
          const span = 256 ** tile.level
          const first = tile.index * 256
          for (let i = 0; i < tile.hashes.length / 32; i++) {
            const expected = merkleTreeHash(hashes.slice((first + i) * span, (first + i + 1) * span))
            expect(hex(tile.hashes.subarray(i * 32, (i + 1) * 32))).toBe(hex(expected))
          }
        }
      }),
      { numRuns: 25 },
    )
  })

  it('inclusion and consistency proofs read from tiles verify against the RFC roots', async () => {
    const hashes = hashesOf(600)
    const { read } = tilesFor(hashes, [37, 300])
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 600 }).chain((size) => fc.tuple(fc.constant(size), fc.integer({ min: 0, max: size - 1 }), fc.integer({ min: 0, max: size }))), async ([size, index, first]) => {
        const root = merkleTreeHash(hashes.slice(0, size))
        expect(verifyInclusion(index, size, hashes[index]!, await inclusionProof(index, size, read), root)).toBe(true)
        const proof = await consistencyProof(first, size, read)
        expect(verifyConsistency(first, size, proof, merkleTreeHash(hashes.slice(0, first)), root)).toBe(true)
        expect(hex(await rangeHash({ start: 0, end: size }, read))).toBe(hex(root))
      }),
      { numRuns: 120 },
    )
  })

  it('serves a tree past two tile levels (70,000 leaves: the tlog-tiles example)', async () => {
    const hashes = hashesOf(70_000)
    const { read, tiles } = tilesFor(hashes, [65_536, 1])
    expect(tiles.get('0/273')!.hashes.length / 32).toBe(112)
    expect(tiles.get('1/1')!.hashes.length / 32).toBe(17)
    expect(tiles.get('2/0')!.hashes.length / 32).toBe(1)
    const root = merkleTreeHash(hashes)
    expect(hex(await treeRoot(70_000, read))).toBe(hex(root))
    expect(verifyInclusion(65_535, 70_000, hashes[65_535]!, await inclusionProof(65_535, 70_000, read), root)).toBe(true)
    expect(verifyConsistency(65_537, 70_000, await consistencyProof(65_537, 70_000, read), merkleTreeHash(hashes.slice(0, 65_537)), root)).toBe(true)
  })
})

describe('nodeHash', () => {
  it('is SHA-256(0x01 || left || right) for hashes and any other lengths, and a result never changes after later calls', () => {
    const reference = (left: Uint8Array, right: Uint8Array) => createHash('sha256').update(new Uint8Array([1])).update(left).update(right).digest('hex')
    fc.assert(fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 40 }), (left, right, other) => {
      const node = nodeHash(left, right)
      const kept = node.slice()
      expect(hex(node)).toBe(reference(left, right))
      expect(hex(nodeHash(right, left))).toBe(reference(right, left))
      expect(hex(nodeHash(left, other))).toBe(reference(left, other))
      expect(hex(nodeHash(other, right))).toBe(reference(other, right))
      expect(node).toEqual(kept)
      expect(node.buffer).not.toBe(nodeHash(left, right).buffer)
    }))
  })
})
