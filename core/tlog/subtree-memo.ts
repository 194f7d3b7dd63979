/**
 * Merkle Tree Hashes of complete subtrees, remembered with the leaf hashes they reduce (a hit
 * must match those bytes exactly). MTH is a pure function of them, so a remembered hash cannot be wrong,
 * whatever log, store or tree it came from. Why: every seal integrates one leaf into the same
 * partial tile, and the root and proof need that tile's complete subtrees again — up to 255
 * SHA-256 node hashes per seal, of which all but the newest few are the same as last time.
 */
import { merkleTreeHash, nodeHash } from './merkle.js'

/** At most this many subtrees (each holding at most a tile, 8 KiB): a bounded, small cache. */
const CAPACITY = 256
/** Below this many leaf hashes, building the key costs about what reducing them does. */
const SMALLEST = 4

interface Remembered {
  /** A copy of the leaf hashes the subtree reduces: a hit must match them exactly. */
  readonly bytes: Uint8Array
  readonly hash: Uint8Array
}

/** Found by count and first leaf hash (a short key), then compared in full: building a key of all the bytes cost more than the compare. */
const remembered = new Map<string, Remembered>()

function keyOf(hashes: Uint8Array, count: number): string {
  return `${count}:${String.fromCharCode.apply(null, hashes.subarray(0, 32) as unknown as number[])}`
}

/** MTH of `count` consecutive 32-byte leaf hashes, `bytes` being exactly those hashes; `count` a power of two. */
export function completeSubtreeHash(bytes: Uint8Array, count: number): Uint8Array {
  if (count < SMALLEST) return merkleTreeHash(hashesOf(bytes, count))
  const key = keyOf(bytes, count)
  const found = remembered.get(key)
  if (found && sameBytes(found.bytes, bytes)) return found.hash
  // MTH of a complete subtree is the node hash of its halves' (RFC 9162 §2.1.1 with k = count / 2), and
  // its left half is usually remembered: a subtree the growing tile just completed costs a node hash
  // per level rather than count - 1 of them.
  const half = count / 2
  const hash = nodeHash(completeSubtreeHash(bytes.subarray(0, half * 32), half), completeSubtreeHash(bytes.subarray(half * 32, count * 32), half))
  remembered.delete(key)
  if (remembered.size >= CAPACITY) remembered.delete(remembered.keys().next().value!)
  remembered.set(key, { bytes: bytes.slice(), hash })
  return hash
}

/** The `count` 32-byte hashes in `bytes`, as views. */
function hashesOf(bytes: Uint8Array, count: number): Uint8Array[] {
  const hashes = new Array<Uint8Array>(count)
  for (let i = 0; i < count; i++) hashes[i] = bytes.subarray(i * 32, (i + 1) * 32)
  return hashes
}

/** Whether `a` and `b` hold the same bytes (compared four at a time where both line up). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let i = 0
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = a.length >>> 2
    const aWords = new Uint32Array(a.buffer, a.byteOffset, words)
    const bWords = new Uint32Array(b.buffer, b.byteOffset, words)
    for (; i < words; i++) if (aWords[i] !== bWords[i]) return false
    i = words << 2
  }
  for (; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
