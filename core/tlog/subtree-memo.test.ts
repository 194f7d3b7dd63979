/** Remembered subtree hashes are keyed by content: never stale, never another tree's, bounded. */
import { describe, expect, it } from 'vitest'
import { leafHash, merkleTreeHash } from './merkle.js'
import { completeSubtreeHash } from './subtree-memo.js'

const hashesOf = (tag: string, count: number) => Array.from({ length: count }, (_, i) => leafHash(new TextEncoder().encode(`${tag} ${i}`)))
const joined = (hashes: readonly Uint8Array[]) => new Uint8Array(hashes.flatMap((hash) => [...hash]))

describe('completeSubtreeHash', () => {
  it('is MTH of its leaf hashes, for every power of two up to a tile, remembered or not', () => {
    for (let round = 0; round < 2; round++) {
      for (let count = 1; count <= 256; count *= 2) {
        const hashes = hashesOf('a', count)
        expect(completeSubtreeHash(joined(hashes), count), `${count}`).toEqual(merkleTreeHash(hashes))
      }
    }
  })

  it('answers for the bytes it is given: one changed leaf hash, another log at the same position, past its capacity', () => {
    const hashes = hashesOf('b', 64)
    const first = completeSubtreeHash(joined(hashes), 64)
    const changed = [...hashes]
    changed[63] = leafHash(new TextEncoder().encode('other'))
    expect(completeSubtreeHash(joined(changed), 64)).toEqual(merkleTreeHash(changed))
    expect(completeSubtreeHash(joined(changed), 64)).not.toEqual(first)
    for (let i = 0; i < 300; i++) completeSubtreeHash(joined(hashesOf(`filler ${i}`, 4)), 4)
    expect(completeSubtreeHash(joined(hashes), 64)).toEqual(first)
  })
})
