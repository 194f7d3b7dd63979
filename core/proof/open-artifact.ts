/**
 * Opening a sealed file: find its carrier, take the proof out, and insist the file is exactly what
 * sealing that payload with that proof writes (nothing added, nothing reformatted).
 */
import * as E from 'fp-ts/lib/Either.js'
import { canonicalJson } from '../digest/canonical-json.js'
import { concatBytes, equalBytes, utf8Text } from './bytes.js'
import { carrierOfArtifact, type Carrier } from './carriers/index.js'
import { PROOF_FORMAT, ProofObject } from './format.js'

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
}

export function openArtifact(bytes: Uint8Array): E.Either<OpenFailure, OpenedArtifact> {
  if (bytes.length === 0) return E.left({ kind: 'empty', error: 'The file is empty' })
  const carrier = carrierOfArtifact(bytes)
  const unsealed = { kind: 'unsealed', error: 'No proof found: the file is not a sealed PNG, SVG, PDF, JSON file or package artifact' } as const
  if (!carrier) return E.left(unsealed)
  const extraction = carrier.extract(bytes)
  if (extraction.kind === 'unsealed') return E.left(unsealed)
  if (extraction.kind === 'malformed') return E.left({ kind: 'malformed-carrier', error: `Malformed carrier: ${extraction.error}` })
  if (extraction.kind === 'multiple') return E.left({ kind: 'two-proofs', error: `Two proofs: ${extraction.error}` })
  const { payloadParts, proofBytes, seam } = extraction
  const text = utf8Text(proofBytes)
  let parsed: unknown
  try {
    parsed = text === undefined ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  if (parsed === undefined || canonicalOrUndefined(parsed) !== text) return E.left({ kind: 'malformed-carrier', error: 'Malformed carrier: the proof is not RFC 8785 canonical JSON' })
  const format = (parsed as { statement?: { format?: unknown } } | null)?.statement?.format
  if (format !== PROOF_FORMAT) return E.left({ kind: 'unknown-format', error: `Unknown format version: ${JSON.stringify(format ?? null)}; this verifier reads ${PROOF_FORMAT}` })
  const proof = ProofObject.decode(parsed)
  if (E.isLeft(proof)) return E.left({ kind: 'malformed-carrier', error: 'Malformed carrier: the proof does not have the cairn.proof.v1 shape' })
  if (proof.right.statement.carrier !== carrier.name) return E.left({ kind: 'malformed-carrier', error: `Malformed carrier: the proof was sealed into a ${proof.right.statement.carrier} carrier but the file is ${carrier.name}` })
  const exact = seam
    ? isExactSeam(carrier, bytes, seam, proofBytes)
    : equalBytes(carrier.embed(joinParts(payloadParts), proofBytes, proof.right.statement.payload.fileName), bytes)
  if (!exact) return E.left({ kind: 'malformed-carrier', error: 'Malformed carrier: the file holds bytes beyond the payload and its proof (changed after sealing)' })
  let joined: Uint8Array | undefined
  return E.right({
    carrier,
    payloadParts,
    get payload() {
      return (joined ??= joinParts(payloadParts))
    },
    proofBytes,
    proof: proof.right,
  })
}

/** RFC 8785 has no form for some parsed values (a number too large, `1e999`, parses to Infinity). */
function canonicalOrUndefined(value: unknown): string | undefined {
  try {
    return canonicalJson(value)
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
  return equalBytes(sealed.subarray(seam.start, seam.end), carrier.seamBytes(prefix, proofBytes))
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
