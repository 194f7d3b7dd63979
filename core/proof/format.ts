/**
 * The sealed proof object, format `cairn.proof.v2` (docs/proof-format.md). The proof is RFC 8785
 * canonical JSON: a signed `statement` about the payload (the exact bytes without the proof), the
 * statement's signatures by published proof keys, the transparency-log inclusion receipt of the
 * statement's leaf, and optional countersignatures by the owner's ID key.
 */
import * as t from 'io-ts'

/** The version sealing writes. */
export const PROOF_FORMAT = 'cairn.proof.v2'
/** The versions a verifier reads: every earlier one stays verifiable. v2 differs from v1 only in the package's statement (`payload.crc32`). */
export const PROOF_FORMATS: readonly string[] = ['cairn.proof.v1', PROOF_FORMAT]

/**
 * Whether a statement of this version signs the package payload's CRC-32 (`payload.crc32`): from
 * v2 it does, so a verifier checks the ZIP headers against the signed value instead of reading
 * the payload a second time (the payload digest already proves the payload is the sealed one).
 */
export const signsPayloadCrc32 = (format: string): boolean => format !== 'cairn.proof.v1'

/** The two strengths: integrity-only (these bytes existed unchanged then) or a proof object naming its owner. */
export const SealKind = t.keyof({ 'integrity-seal': null, 'proof-object': null }, 'SealKind')
export type SealKind = t.TypeOf<typeof SealKind>

/** How the proof travels inside the sealed bytes. */
export const CarrierName = t.keyof({ png: null, svg: null, pdf: null, json: null, zip: null }, 'CarrierName')
export type CarrierName = t.TypeOf<typeof CarrierName>

const Hex64 = t.refinement(t.string, (s) => /^[0-9a-f]{64}$/u.test(s), 'Sha256Hex')
const Crc32Hex = t.refinement(t.string, (s) => /^[0-9a-f]{8}$/u.test(s), 'Crc32Hex')
const Whole = t.refinement(t.number, (n) => Number.isSafeInteger(n) && n >= 0, 'NonNegativeInteger')

export const ProofBundle = t.type({
  kind: t.string,
  payloadVersion: Whole,
  createdAtMs: Whole,
  ts: t.string,
  code: t.string,
  slug: t.string,
  verifyPath: t.string,
  verifyUrl: t.string,
  kaiPulseEternal: t.number,
  sha256: Hex64,
}, 'ProofBundle')
export type ProofBundle = t.TypeOf<typeof ProofBundle>

export const ProofOwner = t.intersection([
  t.type({ userId: t.string }),
  /** RFC 7638 thumbprints of the owner's ID keys when sealed: a countersignature must come from one. */
  t.partial({ username: t.string, idKeyThumbprints: t.array(t.string) }),
], 'ProofOwner')
export type ProofOwner = t.TypeOf<typeof ProofOwner>

export const ProofStatement = t.intersection([
  t.type({
    format: t.string,
    sealKind: SealKind,
    carrier: CarrierName,
    payload: t.intersection([
      t.type({ sha256: Hex64, length: Whole, mediaType: t.string, fileName: t.string }),
      /** The package payload's CRC-32 as its ZIP headers write it (8 lowercase hex digits); from v2, in package statements only. */
      t.partial({ crc32: Crc32Hex }),
    ]),
    bundle: ProofBundle,
    issuer: t.type({ baseUrl: t.string, logOrigin: t.string }),
  }),
  t.partial({ owner: ProofOwner }),
], 'ProofStatement')
export type ProofStatement = t.TypeOf<typeof ProofStatement>

/** A signature over the statement's canonical JSON bytes by a proof key (`kid` in the proof key set). */
export const ProofSignature = t.type({ kid: t.string, alg: t.string, sig: t.string }, 'ProofSignature')
export type ProofSignature = t.TypeOf<typeof ProofSignature>

/** A countersignature over the same bytes by a key the statement names (the owner's ID key). */
export const Countersignature = t.type({
  role: t.literal('owner'),
  alg: t.string,
  jwk: t.record(t.string, t.string),
  sig: t.string,
}, 'Countersignature')
export type Countersignature = t.TypeOf<typeof Countersignature>

export const InclusionReceiptCodec = t.type({
  leafIndex: Whole,
  treeSize: Whole,
  checkpoint: t.string,
  inclusionProof: t.array(t.string),
}, 'InclusionReceipt')

export const ProofObject = t.intersection([
  t.type({
    statement: ProofStatement,
    signatures: t.array(ProofSignature),
    log: InclusionReceiptCodec,
  }),
  t.partial({ countersignatures: t.array(Countersignature) }),
], 'ProofObject')
export type ProofObject = t.TypeOf<typeof ProofObject>

/** The log leaf that proves a statement: its SHA-256, so the verifier rebuilds the leaf from the statement. */
export const SEAL_LEAF_KIND = 'cairn.seal'
export interface SealLeaf {
  readonly kind: typeof SEAL_LEAF_KIND
  readonly statementSha256: string
  readonly [field: string]: string
}
