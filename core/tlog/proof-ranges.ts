/**
 * Which subtrees an RFC 9162 proof is made of (§2.1.3.1 PATH and §2.1.4.1 PROOF/SUBPROOF),
 * as ranges of leaves [start, end). A prover turns each range into its Merkle Tree Hash; the
 * ranges come out in the order the proof lists them (from the leaf up).
 */
import { splitPoint } from './merkle.js'

export interface LeafRange {
  readonly start: number
  readonly end: number
}

/** PATH(index, D[0:size]). @example inclusionProofRanges(0, 2) // [{ start: 1, end: 2 }] */
export function inclusionProofRanges(index: number, size: number): LeafRange[] {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) {
    throw new RangeError(`No inclusion proof for leaf ${index} in a tree of size ${size}`)
  }
  const ranges: LeafRange[] = []
  let start = 0
  let end = size
  let m = index
  while (end - start > 1) {
    const k = splitPoint(end - start)
    if (m < k) {
      ranges.unshift({ start: start + k, end })
      end = start + k
    } else {
      ranges.unshift({ start, end: start + k })
      start += k
      m -= k
    }
  }
  return ranges
}

/** PROOF(first, D[0:second]); empty when first is 0 or equals second. */
export function consistencyProofRanges(first: number, second: number): LeafRange[] {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second) {
    throw new RangeError(`No consistency proof from size ${first} to size ${second}`)
  }
  if (first === 0 || first === second) return []
  const siblings: LeafRange[] = []
  let start = 0
  let end = second
  let m = first
  let startsAtOldRoot = true
  for (;;) {
    if (m === end - start) {
      if (!startsAtOldRoot) siblings.unshift({ start, end })
      return siblings
    }
    const k = splitPoint(end - start)
    if (m <= k) {
      siblings.unshift({ start: start + k, end })
      end = start + k
    } else {
      siblings.unshift({ start, end: start + k })
      start += k
      m -= k
      startsAtOldRoot = false
    }
  }
}
