/**
 * Merkle Tree Hashes of complete subtrees, remembered by the leaf hashes they reduce (the key is
 * those bytes themselves). MTH is a pure function of them, so a remembered hash cannot be wrong,
 * whatever log, store or tree it came from. Why: every seal integrates one leaf into the same
 * partial tile, and the root and proof need that tile's complete subtrees again — up to 255
 * SHA-256 node hashes in JavaScript per seal, of which all but the newest few are the same as last time.
 */
import { merkleTreeHash } from './merkle.js'

/** At most this many subtrees (each key at most a tile half, 4 KiB): a bounded, small cache. */
const CAPACITY = 256
/** Below this many leaf hashes, building the key costs about what reducing them does. */
const SMALLEST = 4

const remembered = new Map<string, Uint8Array>()

function keyOf(hashes: Uint8Array): string {
  return String.fromCharCode.apply(null, hashes as unknown as number[])
}

/** MTH of `count` consecutive 32-byte leaf hashes, `bytes` being exactly those hashes; `count` a power of two. */
export function completeSubtreeHash(bytes: Uint8Array, count: number): Uint8Array {
  const split = () => Array.from({ length: count }, (_, i) => bytes.subarray(i * 32, (i + 1) * 32))
  if (count < SMALLEST) return merkleTreeHash(split())
  const key = keyOf(bytes)
  const found = remembered.get(key)
  if (found) return found
  const hash = merkleTreeHash(split())
  if (remembered.size >= CAPACITY) remembered.delete(remembered.keys().next().value!)
  remembered.set(key, hash)
  return hash
}
