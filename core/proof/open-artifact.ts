/**
 * Opening a sealed file: find its carrier, take the proof out, and insist the file is exactly what
 * sealing that payload with that proof writes (nothing added, nothing reformatted).
 */
import * as E from 'fp-ts/lib/Either.js'
import { canonicalJson, canonicalJsonWithMember } from '../digest/canonical-json.js'
import { concatBytes, equalBytes, utf8, utf8Text } from './bytes.js'
import { carrierOfArtifact, type Carrier, type Extraction } from './carriers/index.js'
import { jsCrc32, type Crc32 } from './crc32.js'
import { PROOF_FORMATS, ProofObject, signsPayloadCrc32 } from './format.js'
import { partsSearch } from './marker-search.js'

/** What failed, by category (the verdict's sentences start with these). */
export type OpenFailure =
  | { readonly kind: 'empty'; readonly error: string }
  | { readonly kind: 'unsealed'; readonly error: string }
  | { readonly kind: 'malformed-carrier'; readonly error: string }
  | { readonly kind: 'two-proofs'; readonly error: string }
  | { readonly kind: 'unknown-format'; readonly error: string }

export interface OpenedArtifact {
  readonly carrier: Carrier
  /** The payload as views into the file (hash these; no copy is made). */
  readonly payloadParts: readonly Uint8Array[]
  /** The payload as one array (joined on first access). */
  readonly payload: Uint8Array
  readonly proofBytes: Uint8Array
  readonly proof: ProofObject
  /** The statement's RFC 8785 bytes, which its signatures cover (written while the proof's canonical form was checked). */
  readonly statementBytes: Uint8Array
  /**
   * Set when `deferPayloadSearch` left the search for a second proof to the caller: no payload part
   * may hold `marker` (each searched as it is hashed, `partsSearch`), or the file is refused with `failure`.
   */
  readonly payloadUnsearched?: { readonly marker: Uint8Array; readonly failure: OpenFailure }
}

/**
 * `crc32`: the CRC a v1 ZIP package's exactness check runs over the payload (Node passes its native
 * one). A v2 package's headers are checked against the CRC-32 its statement signs, without a pass.
 * `deferPayloadSearch`: a caller about to hash the payload searches it for a second proof in the
 * same pass (an SVG's, see `payloadUnsearched`) instead of this function searching the whole file.
 */
export function openArtifact(bytes: Uint8Array, options: { readonly crc32?: Crc32; readonly deferPayloadSearch?: boolean } = {}): E.Either<OpenFailure, OpenedArtifact> {
  if (bytes.length === 0) return E.left({ kind: 'empty', error: 'The file is empty' })
  const carrier = carrierOfArtifact(bytes)
  const unsealed = { kind: 'unsealed', error: 'No proof found: the file is not a sealed PNG, SVG, PDF, JSON file or package artifact' } as const
  if (!carrier) return E.left(unsealed)
  const extraction = carrier.extract(bytes, options.deferPayloadSearch ? { deferPayloadSearch: true } : {})
  if (extraction.kind === 'unsealed') return E.left(unsealed)
  if (extraction.kind === 'malformed') return E.left({ kind: 'malformed-carrier', error: `Malformed carrier: ${extraction.error}` })
  if (extraction.kind === 'multiple') return E.left(twoProofs(extraction.error))
  const unsearched = extraction.payloadUnsearched
  const opened = openExtracted(carrier, bytes, extraction, options.crc32, unsearched && { marker: unsearched.marker, failure: twoProofs(unsearched.error) })
  // A file holding a second proof is refused as two proofs whatever else is wrong with it, as when the extraction searched.
  if (unsearched && E.isLeft(opened) && partsSearch(extraction.payloadParts, unsearched.marker).found()) return E.left(twoProofs(unsearched.error))
  return opened
}

const twoProofs = (error: string): OpenFailure => ({ kind: 'two-proofs', error: `Two proofs: ${error}` })

/** The proof read and the file checked to be exactly its payload with that proof sealed in. */
function openExtracted(
  carrier: Carrier,
  bytes: Uint8Array,
  extraction: Extract<Extraction, { readonly kind: 'sealed' }>,
  crc32: Crc32 | undefined,
  payloadUnsearched: OpenedArtifact['payloadUnsearched'],
): E.Either<OpenFailure, OpenedArtifact> {
  const { payloadParts, proofBytes, seam } = extraction
  const text = utf8Text(proofBytes)
  let parsed: unknown
  try {
    parsed = text === undefined ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  const canonical = parsed === undefined ? undefined : canonicalOrUndefined(parsed)
  if (canonical === undefined || canonical.text !== text) return E.left({ kind: 'malformed-carrier', error: 'Malformed carrier: the proof is not RFC 8785 canonical JSON' })
  const format = (parsed as { statement?: { format?: unknown } } | null)?.statement?.format
  if (typeof format !== 'string' || !PROOF_FORMATS.includes(format)) {
    return E.left({ kind: 'unknown-format', error: `Unknown format version: ${JSON.stringify(format ?? null)}; this verifier reads ${PROOF_FORMATS.join(' and ')}` })
  }
  // The codec's guard, not decode: the same answer for these codecs (none transforms a value), without
  // decode's Either and context per member, which cost a small file's verify several microseconds.
  if (!ProofObject.is(parsed)) return E.left({ kind: 'malformed-carrier', error: `Malformed carrier: the proof does not have the ${format} shape` })
  const proof = parsed
  const { statement } = proof
  if (statement.carrier !== carrier.name) return E.left({ kind: 'malformed-carrier', error: `Malformed carrier: the proof was sealed into a ${statement.carrier} carrier but the file is ${carrier.name}` })
  const signedCrc32 = carrier.checksumsPayload && signsPayloadCrc32(format) ? statement.payload.crc32 : undefined
  if (carrier.checksumsPayload && signsPayloadCrc32(format) && signedCrc32 === undefined) return E.left({ kind: 'malformed-carrier', error: `Malformed carrier: a ${format} package statement must name the payload's CRC-32` })
  // v2: the headers must hold the signed CRC-32 (the payload digest check then proves it is the payload's); v1: computed.
  // The proof entry's CRC-32 is computed either way, natively when the caller passes its CRC-32.
  const crc = { crc32: crc32 ?? jsCrc32, ...(signedCrc32 === undefined ? {} : { payloadCrc32: Number.parseInt(signedCrc32, 16) }) }
  const exact = seam
    ? isExactSeam(carrier, bytes, seam, proofBytes)
    : (carrier.isEmbedding?.(bytes, joinParts(payloadParts), proofBytes, statement.payload.fileName, crc) ?? false)
  if (!exact) return E.left({ kind: 'malformed-carrier', error: 'Malformed carrier: the file holds bytes beyond the payload and its proof (changed after sealing)' })
  return E.right(new Opened(carrier, payloadParts, proofBytes, proof, canonical.member, payloadUnsearched))
}

/**
 * The opened file, a class rather than an object literal with getters: V8 builds a literal with
 * accessors on a slow path (about 2 µs, once per verify); the getters on the prototype cost nothing.
 */
class Opened implements OpenedArtifact {
  /** The statement's canonical text from the canonical check, when that pass wrote it. */
  readonly #statementText: string | undefined
  #payload: Uint8Array | undefined
  #statementBytes: Uint8Array | undefined

  constructor(
    readonly carrier: Carrier,
    readonly payloadParts: readonly Uint8Array[],
    readonly proofBytes: Uint8Array,
    readonly proof: ProofObject,
    statementText: string | undefined,
    readonly payloadUnsearched: OpenedArtifact['payloadUnsearched'],
  ) {
    this.#statementText = statementText
  }

  get payload(): Uint8Array {
    return (this.#payload ??= joinParts(this.payloadParts))
  }

  get statementBytes(): Uint8Array {
    return (this.#statementBytes ??= utf8(this.#statementText ?? canonicalJson(this.proof.statement)))
  }
}

/**
 * The canonical text of the parsed proof and of its statement, from one pass; undefined where RFC
 * 8785 has no form for a parsed value (a number too large, `1e999`, parses to Infinity).
 */
function canonicalOrUndefined(value: unknown): ReturnType<typeof canonicalJsonWithMember> | undefined {
  try {
    return canonicalJsonWithMember(value, 'statement')
  } catch {
    return undefined
  }
}

function joinParts(parts: readonly Uint8Array[]): Uint8Array {
  return parts.length === 1 ? parts[0]! : concatBytes(...parts)
}

/**
 * Whether `sealed` is exactly its payload with the proof inserted where sealing inserts it: the
 * payload's insertion point is the seam, and the seam holds exactly the bytes sealing writes.
 * Only the (small) seam is compared; the payload is never copied.
 */
function isExactSeam(carrier: Carrier, sealed: Uint8Array, seam: { start: number; end: number }, proofBytes: Uint8Array): boolean {
  const prefix = sealed.subarray(0, seam.start)
  if (!carrier.atSeam?.(prefix, sealed.subarray(seam.end)) || !carrier.seamBytes) return false
  const written = sealed.subarray(seam.start, seam.end)
  if (carrier.earlierSeamBytes && equalBytes(written, carrier.earlierSeamBytes(prefix, proofBytes))) return true
  try {
    return equalBytes(written, carrier.seamBytes(prefix, proofBytes))
  } catch {
    return false // a prefix sealing would refuse today (an encrypted PDF) holds only an earlier seam
  }
}

/**
 * The original bytes of a sealed file: the payload without its proof.
 *
 * @example unseal(seal(x)) // x, byte for byte
 */
export function unseal(bytes: Uint8Array): Uint8Array {
  const opened = openArtifact(bytes)
  if (E.isLeft(opened)) throw new RangeError(opened.left.error)
  return opened.right.payload
}
