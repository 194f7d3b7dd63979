/**
 * Offline verification of RFC 9162 inclusion (§2.1.3.2) and consistency (§2.1.4.2) proofs.
 * Pure and synchronous: a verifier needs only the proof, the sizes and the signed roots.
 */
import { equalHashes, HASH_SIZE, half, isOdd, isPowerOfTwo, nodeHash } from './merkle.js'

const wellFormed = (hashes: readonly Uint8Array[]) => hashes.every((hash) => hash.length === HASH_SIZE)
const isSize = (n: number) => Number.isSafeInteger(n) && n >= 0

/** The root an inclusion proof leads to, or undefined when the proof cannot be for that leaf and size. */
export function rootFromInclusionProof(index: number, size: number, leaf: Uint8Array, proof: readonly Uint8Array[]): Uint8Array | undefined {
  if (!isSize(index) || !isSize(size) || index >= size || leaf.length !== HASH_SIZE || !wellFormed(proof)) return undefined
  let fn = index
  let sn = size - 1
  let r = leaf
  for (const p of proof) {
    if (sn === 0) return undefined
    if (isOdd(fn) || fn === sn) {
      r = nodeHash(p, r)
      if (!isOdd(fn)) {
        while (!isOdd(fn) && fn !== 0) {
          fn = half(fn)
          sn = half(sn)
        }
      }
    } else {
      r = nodeHash(r, p)
    }
    fn = half(fn)
    sn = half(sn)
  }
  return sn === 0 ? r : undefined
}

/** @example verifyInclusion(5, 8, leafHash(entry), proof, root) // true */
export function verifyInclusion(index: number, size: number, leaf: Uint8Array, proof: readonly Uint8Array[], root: Uint8Array): boolean {
  const computed = rootFromInclusionProof(index, size, leaf, proof)
  return computed !== undefined && equalHashes(computed, root)
}

/**
 * True when the tree of size `second` with root `secondRoot` extends the tree of size `first`
 * with root `firstRoot`. Equal sizes need equal roots and an empty proof; from size 0 anything
 * is consistent (with an empty proof).
 */
export function verifyConsistency(first: number, second: number, proof: readonly Uint8Array[], firstRoot: Uint8Array, secondRoot: Uint8Array): boolean {
  if (!isSize(first) || !isSize(second) || first > second || !wellFormed(proof)) return false
  if (first === second) return proof.length === 0 && equalHashes(firstRoot, secondRoot)
  if (first === 0) return proof.length === 0
  if (proof.length === 0) return false
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof]
  let fn = first - 1
  let sn = second - 1
  while (isOdd(fn)) {
    fn = half(fn)
    sn = half(sn)
  }
  let fr = path[0]!
  let sr = path[0]!
  for (const c of path.slice(1)) {
    if (sn === 0) return false
    if (isOdd(fn) || fn === sn) {
      fr = nodeHash(c, fr)
      sr = nodeHash(c, sr)
      if (!isOdd(fn)) {
        while (!isOdd(fn) && fn !== 0) {
          fn = half(fn)
          sn = half(sn)
        }
      }
    } else {
      sr = nodeHash(sr, c)
    }
    fn = half(fn)
    sn = half(sn)
  }
  return sn === 0 && equalHashes(fr, firstRoot) && equalHashes(sr, secondRoot)
}
