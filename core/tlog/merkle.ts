/**
 * RFC 9162 §2.1 Merkle tree hashing with SHA-256: a leaf hashes as SHA-256(0x00 || entry), an
 * interior node as SHA-256(0x01 || left || right). Tree sizes and indexes are JavaScript numbers
 * (exact up to 2^53 leaves), so every shift below is arithmetic, never a 32-bit bitwise operator.
 *
 * Pure and synchronous (@noble/hashes), so the same code verifies in Node and in a browser.
 */
import { sha256 } from './sha256-bytes.js'

export const HASH_SIZE = 32

/** The hash of the empty tree: SHA-256 of no bytes. */
export const EMPTY_TREE_HASH: Uint8Array = sha256(new Uint8Array())

/** @example leafHash(new Uint8Array()) // 6e340b9c… (RFC 9162 test vector) */
export function leafHash(entry: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + entry.length)
  input[0] = 0x00
  input.set(entry, 1)
  return sha256(input)
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + left.length + right.length)
  input[0] = 0x01
  input.set(left, 1)
  input.set(right, 1 + left.length)
  return sha256(input)
}

/** The largest power of two strictly below `n` (n > 1): RFC 9162's split point k. */
export function splitPoint(n: number): number {
  let k = 1
  while (k * 2 < n) k *= 2
  return k
}

export function isPowerOfTwo(n: number): boolean {
  let k = 1
  while (k < n) k *= 2
  return k === n
}

/** Half of `n`, rounded down (a right shift that stays exact above 2^32). */
export function half(n: number): number {
  return Math.floor(n / 2)
}

export function isOdd(n: number): boolean {
  return n % 2 === 1
}

/**
 * MTH(D[n]) over leaf hashes, straight from the RFC's definition: the reference the tile-based
 * code is tested against, and the reduction of a tile's hashes.
 */
export function merkleTreeHash(leafHashes: readonly Uint8Array[]): Uint8Array {
  if (leafHashes.length === 0) return EMPTY_TREE_HASH
  if (leafHashes.length === 1) return leafHashes[0]!
  const k = splitPoint(leafHashes.length)
  return nodeHash(merkleTreeHash(leafHashes.slice(0, k)), merkleTreeHash(leafHashes.slice(k)))
}

export function equalHashes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!
  return difference === 0
}
