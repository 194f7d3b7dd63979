/**
 * Sealing, the pure half: choose the carrier, refuse what cannot be sealed, build the statement
 * and its log leaf, and assemble the sealed bytes once signatures and the inclusion receipt exist.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { SigningKey } from '../../ports/key-store.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import { sha256Hex } from '../digest/sha256.js'
import { kaiPulseEternalAt } from '../time/kai.js'
import type { InclusionReceipt } from '../tlog/inclusion.js'
import { concatBytes, toBase64Url, utf8 } from './bytes.js'
import { carrierForPayload, carrierOfArtifact, type Carrier } from './carriers/index.js'
import { crc32Hex, jsCrc32, type Crc32 } from './crc32.js'
import { sealedFileOf, type SealedFile } from './sealed-file.js'
import { PROOF_FORMAT, SEAL_LEAF_KIND, type Countersignature, type ProofObject, type ProofOwner, type ProofSignature, type ProofStatement, type SealKind, type SealLeaf } from './format.js'

/** `CairnProofBundle.kind` of each strength. */
export const BUNDLE_KIND: Readonly<Record<SealKind, string>> = { 'integrity-seal': 'cairn.integrity_seal', 'proof-object': 'cairn.proof_object' }
export const PAYLOAD_VERSION = 1

export interface SealInput {
  readonly payload: Uint8Array
  readonly fileName: string
  readonly mediaType: string
  readonly sealKind: SealKind
  readonly owner?: ProofOwner
  readonly createdAtMs: number
  /** Short public handles of the seal (its verify path is `/verify/<code>`). */
  readonly code: string
  readonly slug: string
  /** The service's public base URL, without a trailing slash. */
  readonly baseUrl: string
  readonly logOrigin: string
  /** The payload's SHA-256 when the caller already has it (hex); computed here otherwise. */
  readonly payloadSha256?: string
  /** The payload's CRC-32 when the carrier checksums it (the package) and the caller already has it; computed here otherwise. */
  readonly payloadCrc32?: number
  /** What `sealableOf` found for this payload, when the caller already asked (large files are walked once, not twice). */
  readonly sealable?: Sealable
}

/** A payload that can carry a proof: its carrier, and where that carrier inserts it (none for the package, which rewrites the file). */
export interface Sealable {
  readonly carrier: Carrier
  readonly insertionPoint?: number
  /**
   * Set when `searchWhileHashing` left the search for an existing proof to the caller: the carrier's
   * proof marker, to search for as the payload is hashed (`sealDigests`). Where it occurs, the payload
   * is sealable only if `alreadySealed` says it is not sealed.
   */
  readonly unsearchedMarker?: Uint8Array
}

export interface PreparedSeal extends Sealable {
  readonly payload: Uint8Array
  readonly statement: ProofStatement
  /** The bytes every signature covers: the statement's RFC 8785 canonical JSON. */
  readonly statementBytes: Uint8Array
  readonly leaf: SealLeaf
}

export const verifyPathOf = (code: string) => `/verify/${code}`

/** Whether `bytes` already carry a proof (sealing them again is refused: proofs never nest). */
export function alreadySealed(bytes: Uint8Array): boolean {
  const extraction = carrierOfArtifact(bytes)?.extract(bytes, { thorough: false })
  return extraction?.kind === 'sealed' || extraction?.kind === 'multiple'
}

export const ALREADY_SEALED = 'The file is already sealed; a second seal is refused (verify it instead, or seal the original bytes)'

/**
 * The payload's carrier and insertion point, or why these bytes cannot be sealed (a sentence for a
 * 400). `searchWhileHashing`: the caller hashes the payload next and searches it for a carrier's
 * proof marker in the same pass, so a marker carrier's payload is not searched here (`unsearchedMarker`).
 */
export function sealableOf(payload: Uint8Array, mediaType: string, fileName: string, options: { readonly searchWhileHashing?: boolean } = {}): E.Either<string, Sealable> {
  if (payload.length === 0) return E.left('The file is empty; there is nothing to seal')
  const carrier = carrierForPayload(payload, mediaType, fileName)
  const survey = carrier.survey && carrier.recognises(payload) ? carrier.survey(payload) : undefined
  // Only where this carrier is also the one `alreadySealed` would ask (content decides that, not the declared type).
  const unsearchedMarker = options.searchWhileHashing && !survey && carrier.proofMarker && carrierOfArtifact(payload) === carrier ? carrier.proofMarker : undefined
  if (!unsearchedMarker && (survey ? survey.sealed : alreadySealed(payload))) return E.left(ALREADY_SEALED)
  const problem = survey ? survey.problem : carrier.problem(payload)
  if (problem) return E.left(problem)
  const insertionPoint = survey ? survey.insertionPoint : carrier.insertionPoint?.(payload)
  return E.right({ carrier, ...(insertionPoint === undefined ? {} : { insertionPoint }), ...(unsearchedMarker ? { unsearchedMarker } : {}) })
}

/** The statement to sign, or why these bytes cannot be sealed (a sentence for a 400). */
export function prepareSeal(input: SealInput): E.Either<string, PreparedSeal> {
  const { payload } = input
  const sealable = input.sealable ? E.right(input.sealable) : sealableOf(payload, input.mediaType, input.fileName)
  if (E.isLeft(sealable)) return sealable
  const { carrier } = sealable.right
  const sha256 = input.payloadSha256 ?? sha256Hex(payload)
  // The package's headers hold the payload's CRC-32: signed, so a verifier need not compute it again.
  const crc32 = carrier.checksumsPayload ? { crc32: crc32Hex(input.payloadCrc32 ?? jsCrc32(payload)) } : {}
  const verifyPath = verifyPathOf(input.code)
  const statement: ProofStatement = {
    format: PROOF_FORMAT,
    sealKind: input.sealKind,
    carrier: carrier.name,
    payload: { sha256, length: payload.length, mediaType: input.mediaType, fileName: input.fileName, ...crc32 },
    bundle: {
      kind: BUNDLE_KIND[input.sealKind],
      payloadVersion: PAYLOAD_VERSION,
      createdAtMs: input.createdAtMs,
      ts: new Date(input.createdAtMs).toISOString(),
      code: input.code,
      slug: input.slug,
      verifyPath,
      verifyUrl: `${input.baseUrl}${verifyPath}`,
      kaiPulseEternal: kaiPulseEternalAt(input.createdAtMs),
      sha256,
    },
    issuer: { baseUrl: input.baseUrl, logOrigin: input.logOrigin },
    ...(input.owner ? { owner: input.owner } : {}),
  }
  const statementBytes = canonicalJsonBytes(statement)
  // Not `{ ...sealable.right, payload, … }`: an object that starts with a spread and adds members is built on V8's slow path (µs).
  const { insertionPoint } = sealable.right
  return E.right({ carrier, ...(insertionPoint === undefined ? {} : { insertionPoint }), payload, statement, statementBytes, leaf: sealLeafOf(statementBytes) })
}

/** The log leaf of a statement: anyone holding the statement rebuilds it. */
export function sealLeafOf(statementBytes: Uint8Array): SealLeaf {
  return { kind: SEAL_LEAF_KIND, statementSha256: sha256Hex(statementBytes) }
}

export async function signStatement(statementBytes: Uint8Array, key: Pick<SigningKey, 'kid' | 'alg' | 'sign'>): Promise<ProofSignature> {
  return { kid: key.kid, alg: key.alg, sig: toBase64Url(await key.sign(statementBytes)) }
}

/**
 * The sealed file: the payload with the proof object embedded by its carrier, as parts (`bytes`
 * joins them when read). The package's payload CRC-32 is the statement's when it signs one (v2);
 * otherwise (a v1 package countersigned) `crc32` computes it (Node passes its native one).
 */
export function assembleSealed(
  prepared: Pick<PreparedSeal, 'carrier' | 'insertionPoint' | 'payload' | 'statement'> & Partial<Pick<PreparedSeal, 'statementBytes'>>,
  signatures: readonly ProofSignature[],
  log: InclusionReceipt,
  countersignatures: readonly Countersignature[] = [],
  crc32?: Crc32,
): SealedFile & { readonly proof: ProofObject } {
  const proof: ProofObject = {
    statement: prepared.statement,
    signatures: [...signatures],
    log: { ...log, inclusionProof: [...log.inclusionProof] },
    ...(countersignatures.length > 0 ? { countersignatures: [...countersignatures] } : {}),
  }
  const signedCrc32 = prepared.statement.payload.crc32
  const proofBytes = prepared.statementBytes ? proofBytesOf(proof, prepared.statementBytes) : canonicalJsonBytes(proof)
  const parts = prepared.carrier.embedParts(prepared.payload, proofBytes, prepared.statement.payload.fileName, {
    ...(crc32 ? { crc32 } : {}),
    ...(signedCrc32 === undefined ? {} : { payloadCrc32: Number.parseInt(signedCrc32, 16) }),
    ...(prepared.insertionPoint === undefined ? {} : { insertionPoint: prepared.insertionPoint }),
  })
  return Object.assign(sealedFileOf(parts), { proof })
}

/**
 * The proof's RFC 8785 bytes around the statement's, already canonical from signing: members sort
 * as countersignatures, log, signatures, statement, so the statement's bytes close the object and
 * are not canonicalised a second time. The golden vectors pin that this equals `canonicalJsonBytes(proof)`.
 */
function proofBytesOf(proof: ProofObject, statementBytes: Uint8Array): Uint8Array {
  const { statement: _statement, ...rest } = proof
  const head = canonicalJsonBytes(rest)
  // `{…members…}` + `,"statement":` + statement + `}`: the head's closing brace gives way to the statement member.
  return concatBytes(head.subarray(0, head.length - 1), STATEMENT_MEMBER, statementBytes, CLOSE_BRACE)
}

const STATEMENT_MEMBER = utf8(',"statement":')
const CLOSE_BRACE = utf8('}')
