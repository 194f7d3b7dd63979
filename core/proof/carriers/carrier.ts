/** What every carrier does: put a proof into a payload's bytes and take it out again, exactly. */
import { concatBytes } from '../bytes.js'
import type { Crc32 } from '../crc32.js'
import type { CarrierName } from '../format.js'

export type Extraction =
  | {
      readonly kind: 'sealed'
      /** The payload as views into the sealed bytes, in order (no copy). */
      readonly payloadParts: readonly Uint8Array[]
      readonly proofBytes: Uint8Array
      /** For carriers that insert: the span of the sealed bytes the proof occupies (payload = before + after). */
      readonly seam?: { readonly start: number; readonly end: number }
      /**
       * Set when `deferPayloadSearch` left the search for a second proof to the caller: the marker
       * must not occur in any payload part (each searched on its own), or the file holds two proofs
       * and is refused with `error`, as the extraction would have refused it as `multiple`.
       */
      readonly payloadUnsearched?: { readonly marker: Uint8Array; readonly error: string }
    }
  | { readonly kind: 'unsealed' }
  | { readonly kind: 'malformed'; readonly error: string }
  | { readonly kind: 'multiple'; readonly error: string }

export interface EmbedOptions {
  /** For carriers that checksum what they write (the package: its proof entry, and the payload unless `payloadCrc32` is given); Node passes its native one. */
  readonly crc32?: Crc32
  /** The payload's CRC-32 when it is already known (a v2 statement signs it): the payload is then not read at all. */
  readonly payloadCrc32?: number
  /** `insertionPoint(payload)` when the caller already has it: finding it walks a large PNG's chunks. */
  readonly insertionPoint?: number
}

/** What sealing asks of a payload before anything else: is it sealed already, can it carry a proof, where would the proof go. */
export interface PayloadSurvey {
  readonly sealed: boolean
  readonly problem?: string
  readonly insertionPoint?: number
}

export interface Carrier {
  readonly name: CarrierName
  /** Whether the carrier's bytes hold the payload's CRC-32 (the package's ZIP headers): from cairn.proof.v2 the statement signs it. */
  readonly checksumsPayload?: boolean
  /** Whether `bytes` (sealed or not) are in this carrier's format, judged by their content. */
  recognises(bytes: Uint8Array): boolean
  /** Why `payload` cannot carry a proof (truncated, malformed), or undefined when it can. */
  problem(payload: Uint8Array): string | undefined
  /** The sealed bytes. Deterministic: the same payload, proof and name always give the same bytes. */
  embed(payload: Uint8Array, proofBytes: Uint8Array, fileName: string): Uint8Array
  /**
   * The same bytes as `embed`, as consecutive parts: the payload's bytes are views into `payload`,
   * never copies, so a sealed file can be hashed and sent without a second file-sized buffer.
   */
  embedParts(payload: Uint8Array, proofBytes: Uint8Array, fileName: string, options?: EmbedOptions): readonly Uint8Array[]
  /**
   * Whether `sealed` is exactly what `embedParts` writes for these arguments, joined, answered
   * without building the parts (a verifier asks it of every file). The exactness check of a carrier
   * that rewrites the file (the package: its extraction has no seam); a file extracted without a
   * seam by a carrier without it is refused as not exact.
   */
  isEmbedding?(sealed: Uint8Array, payload: Uint8Array, proofBytes: Uint8Array, fileName: string, options?: EmbedOptions): boolean
  /**
   * Where `embed` inserts: the sealed bytes begin with exactly `payload[0, at)`, so one hash of
   * that prefix serves both the payload and the sealed digest. Undefined when the carrier
   * rewrites the whole file (the ZIP package).
   */
  insertionPoint?(payload: Uint8Array): number
  /**
   * `sealed`, `problem` and `insertionPoint` from one pass, for a carrier whose every answer walks
   * the whole file (a PNG's chunks: a thousand pages of a 64 MiB image, each walk about 0.6 ms).
   * Only for payloads this carrier `recognises`, where it is also the carrier that would extract.
   */
  survey?(payload: Uint8Array): PayloadSurvey
  /** The bytes inserted at the insertion point, given the payload's bytes before it (carriers that insert). */
  seamBytes?(prefix: Uint8Array, proofBytes: Uint8Array): Uint8Array
  /**
   * The seam an earlier version of this carrier wrote for the same prefix and proof, still
   * accepted by the verifier (a PDF trailer that did not yet repeat the previous one's entries):
   * one more exact form, so nothing else can hide in the seam.
   */
  earlierSeamBytes?(prefix: Uint8Array, proofBytes: Uint8Array): Uint8Array
  /**
   * For a carrier whose proof is found by searching the whole file for the bytes it begins with
   * (SVG's `<metadata id="cairn-proof">`): every occurrence is a proof element. Finding them takes a
   * pass over the file, so sealing and verifying search the chunks they hash instead
   * (`MarkerSearch`): `sealableOf` and `extract` leave that search to them when asked.
   */
  readonly proofMarker?: Uint8Array
  /** Whether a payload split as `prefix` + `suffix` has its insertion point exactly at the split. */
  atSeam?(prefix: Uint8Array, suffix: Uint8Array): boolean
  /**
   * The payload and the proof's bytes, as found; callers check that embedding them again gives
   * `sealed`. `thorough: false` (sealing asks only "is there a proof?") may skip whole-file scans
   * that only refine why a file is not sealed. `deferPayloadSearch` (a carrier with a `proofMarker`):
   * a file whose proof is found is not searched for a second one outside its seam; the caller
   * searches the payload parts as it hashes them (`payloadUnsearched`).
   */
  extract(sealed: Uint8Array, options?: { readonly thorough?: boolean; readonly deferPayloadSearch?: boolean }): Extraction
}

/** `embedParts` of a carrier that inserts: payload before the point, the seam bytes, the rest. */
export function partsAtInsertionPoint(carrier: Carrier, payload: Uint8Array, proofBytes: Uint8Array, options: EmbedOptions = {}): readonly Uint8Array[] {
  const at = options.insertionPoint ?? carrier.insertionPoint!(payload)
  const prefix = payload.subarray(0, at)
  return [prefix, carrier.seamBytes!(prefix, proofBytes), payload.subarray(at)]
}

/** `embed` of a carrier that inserts: its parts joined. */
export function embedAtInsertionPoint(carrier: Carrier, payload: Uint8Array, proofBytes: Uint8Array): Uint8Array {
  return concatBytes(...partsAtInsertionPoint(carrier, payload, proofBytes))
}
