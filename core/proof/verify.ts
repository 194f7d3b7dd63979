/**
 * The offline verifier: exact bytes and trust material in, a deterministic verdict out. Pure (no
 * Store, no network, WebCrypto only), so the server, `cairn verify` and the /verify page in a
 * browser run this same function.
 */
import * as E from 'fp-ts/lib/Either.js'
import { verifyInclusionReceipt } from '../tlog/verify-receipt.js'
import { checkpointOrigin } from './checkpoint-origin.js'
import { SEAL_LEAF_KIND, type ProofBundle, type ProofObject, type SealKind } from './format.js'
import { partsSearch, type DigestWatch } from './marker-search.js'
import { openArtifact, type OpenFailure } from './open-artifact.js'
import { concatBytes } from './bytes.js'
import type { Crc32 } from './crc32.js'
import type { Ed25519Verify } from '../tlog/signed-note.js'
import { jwkThumbprintOf, sha256HexOf, verifySignature, type VerificationJwk } from './web-crypto.js'

/** What a verifier trusts: the published proof key set (kept forever) and pinned log keys (C2SP verifier keys). */
export interface TrustMaterial {
  readonly proofKeys: readonly (VerificationJwk & { readonly kid: string; readonly alg?: string; readonly use?: string })[]
  readonly logKeys: readonly string[]
}

/**
 * SHA-256 (hex) of bytes given as consecutive parts. Node callers pass node:crypto's streaming hash
 * (`nodeSha256Parts`), which shows `watch` each chunk right after hashing it, so the search for a
 * second SVG proof rides the hash's pass; a digest that does not watch leaves the verifier a pass of its own.
 */
export type DigestParts = (parts: readonly Uint8Array[], watch?: DigestWatch) => Promise<string> | string

/** WebCrypto needs one buffer: parts are joined first (a browser's copy is cheap next to reading the file). */
const webCryptoDigest: DigestParts = (parts) => sha256HexOf(parts.length === 1 ? parts[0]! : concatBytes(...parts))

/**
 * The whole-file primitives, injectable so Node runs its native ones (`nodeVerifyOptions`) while
 * the browser keeps the portable defaults (WebCrypto SHA-256, CRC-32 in JavaScript).
 */
export interface VerifyOptions {
  readonly digest?: DigestParts
  readonly crc32?: Crc32
  /** Ed25519 checks (EdDSA statement signatures and the log checkpoint); WebCrypto and @noble otherwise. */
  readonly ed25519?: Ed25519Verify
}

export type VerdictKind = SealKind | 'unknown'

export interface Verdict {
  readonly ok: boolean
  /** Which strength the file carries: `integrity-seal`, `proof-object`, or `unknown` when no proof could be read. */
  readonly kind: VerdictKind
  /** Plain sentences, each starting with what failed: Payload digest, Signature, Unknown key, Log inclusion, Malformed carrier, Unknown format version, Two proofs, Countersignature, No proof found. */
  readonly errors: readonly string[]
  readonly warnings: readonly string[]
  /** SHA-256 of the payload (the bytes without the proof). */
  readonly sha256?: string
  readonly byteLength?: number
  readonly filename?: string
  readonly proof?: ProofBundle
  readonly details?: VerdictDetails
}

export interface VerdictDetails {
  readonly carrier: string
  readonly format: string
  readonly mediaType: string
  readonly sealedAt: string
  readonly kaiPulseEternal: number
  readonly owner: { readonly userId: string; readonly username?: string } | null
  readonly countersignedByOwner: boolean
  readonly signatures: readonly { readonly kid: string; readonly alg: string; readonly verified: boolean }[]
  readonly log: { readonly origin: string | null; readonly leafIndex: number; readonly treeSize: number; readonly included: boolean }
  readonly issuer: string
}

/**
 * @example const verdict = await verifyArtifact(sealedBytes, { proofKeys: jwks.keys, logKeys: [logKey] })
 */
export async function verifyArtifact(bytes: Uint8Array, trust: TrustMaterial, options: VerifyOptions = {}): Promise<Verdict> {
  const opened = openArtifact(bytes, { ...(options.crc32 ? { crc32: options.crc32 } : {}), deferPayloadSearch: true })
  const refused = (failure: OpenFailure): Verdict => ({ ok: false, kind: 'unknown', errors: [failure.error], warnings: [], byteLength: bytes.length })
  if (E.isLeft(opened)) return refused(opened.left)
  const { payloadParts, proof, statementBytes, payloadUnsearched } = opened.right
  const payloadLength = payloadParts.reduce((sum, part) => sum + part.length, 0)
  const { statement } = proof
  const errors: string[] = []
  const warnings: string[] = []

  const digest = options.digest ?? webCryptoDigest
  // Node's digests and Ed25519 answer synchronously: each is awaited only when it is a promise (an await is a turn of the microtask queue).
  // A second SVG proof is searched for in the chunks the payload's hash reads, not in a pass of its own.
  const search = payloadUnsearched && partsSearch(payloadParts, payloadUnsearched.marker)
  const payloadDigest = digest(payloadParts, search?.watch)
  const sha256 = typeof payloadDigest === 'string' ? payloadDigest : await payloadDigest
  if (payloadUnsearched && search?.found()) return refused(payloadUnsearched.failure)
  if (sha256 !== statement.payload.sha256 || payloadLength !== statement.payload.length || statement.bundle.sha256 !== statement.payload.sha256) {
    errors.push(`Payload digest: the payload hashes to ${sha256} (${payloadLength} bytes) but the proof names ${statement.payload.sha256} (${statement.payload.length} bytes)`)
  }

  const signatures = await checkSignatures(proof, statementBytes, trust, errors, options.ed25519)
  // The same digest as the payload's: on Node a synchronous hash, not a WebCrypto round trip through the thread pool.
  const statementDigest = digest([statementBytes])
  const log = checkLog(proof, typeof statementDigest === 'string' ? statementDigest : await statementDigest, trust, errors, options.ed25519)
  const countersignedByOwner = proof.countersignatures?.length ? await checkCountersignatures(proof, statementBytes, errors) : false
  if (statement.sealKind === 'integrity-seal') warnings.push('Integrity-only seal: it proves these bytes existed unchanged at that time; it is not a verified proof object and names no owner')

  return {
    ok: errors.length === 0,
    kind: statement.sealKind,
    errors,
    warnings,
    sha256,
    byteLength: payloadLength,
    filename: statement.payload.fileName,
    proof: statement.bundle,
    details: {
      carrier: statement.carrier,
      format: statement.format,
      mediaType: statement.payload.mediaType,
      sealedAt: statement.bundle.ts,
      kaiPulseEternal: statement.bundle.kaiPulseEternal,
      owner: statement.owner ? { userId: statement.owner.userId, ...(statement.owner.username ? { username: statement.owner.username } : {}) } : null,
      countersignedByOwner,
      signatures,
      log,
      issuer: statement.issuer.baseUrl,
    },
  }
}

async function checkSignatures(proof: ProofObject, statementBytes: Uint8Array, trust: TrustMaterial, errors: string[], ed25519?: Ed25519Verify): Promise<VerdictDetails['signatures']> {
  if (proof.signatures.length === 0) errors.push('Signature: the proof carries no signature')
  const results: { kid: string; alg: string; verified: boolean }[] = []
  for (const signature of proof.signatures) {
    const key = trust.proofKeys.find((candidate) => candidate.kid === signature.kid)
    if (!key) {
      errors.push(`Unknown key: ${signature.kid} is not in the trusted proof key set`)
      results.push({ kid: signature.kid, alg: signature.alg, verified: false })
      continue
    }
    const check = key.alg === undefined || key.alg === signature.alg ? verifySignature(signature.alg, key, statementBytes, signature.sig, ed25519) : false
    const verified = typeof check === 'boolean' ? check : await check
    if (!verified) errors.push(`Signature: the ${signature.alg} signature by ${signature.kid} does not cover this statement`)
    results.push({ kid: signature.kid, alg: signature.alg, verified })
  }
  return results
}

function checkLog(proof: ProofObject, statementSha256: string, trust: TrustMaterial, errors: string[], ed25519?: Ed25519Verify): VerdictDetails['log'] {
  const leaf = { kind: SEAL_LEAF_KIND, statementSha256 }
  const origin = checkpointOrigin(proof.log.checkpoint)
  let lastError = 'no log key is trusted'
  for (const logKey of trust.logKeys) {
    const verdict = verifyInclusionReceipt(leaf, proof.log, logKey, ed25519)
    if (verdict.ok) return { origin, leafIndex: proof.log.leafIndex, treeSize: proof.log.treeSize, included: true }
    lastError = verdict.error
  }
  if (origin !== proof.statement.issuer.logOrigin) lastError = `the checkpoint is from log ${origin ?? 'unknown'}, not ${proof.statement.issuer.logOrigin}`
  errors.push(`Log inclusion: ${lastError}`)
  return { origin, leafIndex: proof.log.leafIndex, treeSize: proof.log.treeSize, included: false }
}

async function checkCountersignatures(proof: ProofObject, statementBytes: Uint8Array, errors: string[]): Promise<boolean> {
  const allowed = proof.statement.owner?.idKeyThumbprints ?? []
  let verifiedOne = false
  for (const countersignature of proof.countersignatures ?? []) {
    const jwk = countersignature.jwk as VerificationJwk
    if (!allowed.includes(await jwkThumbprintOf(jwk))) {
      errors.push('Countersignature: its key is not one of the owner ID keys the statement names')
      continue
    }
    if (!(await verifySignature(countersignature.alg, jwk, statementBytes, countersignature.sig))) errors.push('Countersignature: the owner signature does not cover this statement')
    else verifiedOne = true
  }
  return verifiedOne
}
