/**
 * The two digests of a seal from one pass over the payload: the sealed bytes begin with the
 * payload's bytes up to the carrier's insertion point, so that prefix is hashed once and the hash
 * state forked (node:crypto `Hash.copy`): once finished with the payload's tail (the payload
 * digest), once continued with the sealed file's remaining parts (the sealed digest). The ZIP
 * package rewrites the file, so there the payload is hashed twice (once bare, once inside the package).
 * A carrier's proof marker left unsearched by `sealableOf` is searched for in the same pass, each
 * chunk right after it is hashed.
 */
import { createHash, type Hash } from 'node:crypto'
import { MarkerSearch } from './marker-search.js'
import { sha256HexOfParts, updateWatched } from './node-digest.js'

export interface SealDigests {
  readonly payloadSha256: string
  /** Whether the payload holds the marker searched for (false when none was). */
  readonly markerFound: boolean
  /** SHA-256 of the sealed file given as the parts `embedParts` wrote. */
  sealedSha256(sealedParts: readonly Uint8Array[]): string
}

const hexOf = (hash: Hash, parts: readonly Uint8Array[]) => {
  for (const part of parts) hash.update(part)
  return hash.digest('hex')
}

/** `at`: the carrier's insertion point in `payload`, undefined for the package; `marker`: `Sealable.unsearchedMarker`. */
export function sealDigests(payload: Uint8Array, at: number | undefined, marker?: Uint8Array): SealDigests {
  // One search over the whole payload, prefix then tail: they are contiguous, so a marker may straddle them.
  const search = marker && new MarkerSearch(marker)
  const watch = search && ((chunk: Uint8Array) => search.update(chunk))
  if (at === undefined) {
    // A small package is one part (the payload inlined with the proof): both digests go one-shot.
    return {
      payloadSha256: sha256HexOfParts([payload], watch),
      markerFound: search !== undefined && search.found !== -1,
      sealedSha256: sha256HexOfParts,
    }
  }
  const prefix: Hash = updateWatched(createHash('sha256'), payload.subarray(0, at), watch)
  const payloadSha256 = updateWatched(prefix.copy(), payload.subarray(at), watch).digest('hex')
  return {
    payloadSha256,
    markerFound: search !== undefined && search.found !== -1,
    sealedSha256(parts) {
      // An inserting carrier's first part is exactly payload[0, at), already in `prefix`.
      if (parts[0]?.length !== at) throw new RangeError('The sealed parts do not start with the payload prefix the digest was forked at')
      return hexOf(prefix, parts.slice(1))
    },
  }
}
