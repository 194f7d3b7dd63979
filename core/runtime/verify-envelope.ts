/**
 * The client-side verifier of runtime envelopes (`cairn/runtime-verify`): what an application runs
 * on every signed answer before it relies on it. It needs only WebCrypto and RFC 8785 (browsers,
 * Node, workers): the signature against the deployment's published JWKS, the binding against the
 * request the application sent, the receipt and wire digests against the bytes received, and the
 * Kai time window against the application's own clock.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import canonicalize from 'canonicalize'
import { kaiMicroPulses } from '../time/kai.js'

/** The request the application sent, and what it expects the answer to be bound to. */
export interface SentRequest {
  readonly method: 'GET' | 'POST'
  /** The path as called, from `/api/sdk/v1/` (without the deployment's base path or a query). */
  readonly path: string
  /** The JSON body sent (omit for none). */
  readonly body?: unknown
  readonly applicationId: string
  readonly audience: string
  /** The deployment's host (and port), as in its base URL: refuses answers signed for another deployment. */
  readonly domain: string
  /** When the application pins a revocation head (e.g. its session's), the answer must carry it. */
  readonly revocationHead?: string
}

export interface VerifyEnvelopeOptions {
  /** The deployment's JWKS (`GET /api/oidc/jwks`), fetched over TLS or pinned. */
  readonly jwks: { readonly keys: readonly JsonWebKey[] }
  /** The application's clock, epoch milliseconds. @default Date.now() */
  readonly now?: number
  /** Tolerated clock difference in milliseconds. @default 30000 */
  readonly clockSkewMs?: number
}

export type EnvelopeVerdict<Wire = unknown> =
  | { readonly ok: true; readonly wire: Wire; readonly receiptDigest: string; readonly expiresAtKaiUPulse: number }
  | { readonly ok: false; readonly errors: readonly string[] }

type Json = Record<string, unknown>

/** Schema strings of the parts every envelope carries. */
const RECEIPT_SCHEMA = 'cairn.v124.authenticated_runtime_receipt'
const BINDING_SCHEMA = 'cairn.v124.transport_binding'
const SIGNATURE_SCHEMA = 'cairn.v124.transport_signature'

/** Properties the receipt and the binding must agree on. */
const SHARED = ['method', 'path', 'requestDigest', 'wireDigest', 'applicationId', 'audience', 'issuedAtKaiUPulse', 'expiresAtKaiUPulse', 'revocationHead'] as const

/**
 * @example
 * const verdict = await verifyRuntimeEnvelope(await response.json(), { method: 'POST', path: '/api/sdk/v1/runtime/qualify', body, applicationId, audience, domain: 'cairn.example' }, { jwks })
 * if (!verdict.ok) throw new Error(verdict.errors.join('; '))
 */
export async function verifyRuntimeEnvelope<Wire = unknown>(envelope: unknown, sent: SentRequest, options: VerifyEnvelopeOptions): Promise<EnvelopeVerdict<Wire>> {
  if (!isObject(envelope) || !isObject(envelope.receipt) || !isObject(envelope.transportBinding) || !isObject(envelope.transportSignature) || !('wire' in envelope)) {
    return refused('not a signed runtime envelope (schema, wire, receipt, transportBinding, transportSignature)')
  }
  const { receipt, transportBinding: binding, transportSignature: signature } = envelope
  if (typeof envelope.schema !== 'string' || !/^cairn\.v124\.signed_[a-z_]+_envelope$/.test(envelope.schema)) return refused('unknown envelope schema')
  if (receipt.schema !== RECEIPT_SCHEMA || binding.schema !== BINDING_SCHEMA || signature.schema !== SIGNATURE_SCHEMA) return refused('unknown receipt, binding or signature schema')

  const errors: string[] = []
  if (!(await signatureHolds(binding, signature, options.jwks, errors))) return { ok: false, errors }

  // The signature covers the binding only; everything else must agree with it.
  const wireDigest = await sha256Hex(canonicalBytes(envelope.wire))
  if (binding.wireDigest !== wireDigest) errors.push('the wire is not the one the binding signed (wireDigest differs)')
  const { receiptDigest, ...unsignedReceipt } = receipt
  if (receiptDigest !== (await sha256Hex(canonicalBytes(unsignedReceipt))) || binding.receiptDigest !== receiptDigest) errors.push('the receipt is not the one the binding signed (receiptDigest differs)')
  for (const name of SHARED) if (receipt[name] !== binding[name]) errors.push(`the receipt's ${name} differs from the binding's`)

  const requestDigest = await sha256Hex(canonicalBytes({ method: sent.method, path: sent.path, body: sent.body ?? null }))
  if (binding.method !== sent.method || binding.path !== sent.path) errors.push(`the answer is bound to ${String(binding.method)} ${String(binding.path)}, not to the request sent`)
  if (binding.requestDigest !== requestDigest) errors.push('the answer is bound to another request body (requestDigest differs)')
  if (binding.applicationId !== sent.applicationId) errors.push('the answer is bound to another application')
  if (binding.audience !== sent.audience) errors.push('the answer is bound to another audience')
  if (binding.domain !== sent.domain) errors.push('the answer was signed for another deployment')
  if (sent.revocationHead !== undefined && binding.revocationHead !== sent.revocationHead) errors.push('the answer is bound to another revocation head')

  const now = options.now ?? Date.now()
  const skew = options.clockSkewMs ?? 30_000
  const issued = binding.issuedAtKaiUPulse
  const expires = binding.expiresAtKaiUPulse
  if (typeof issued !== 'number' || typeof expires !== 'number' || expires < issued) errors.push('the Kai time window is malformed')
  else {
    if (BigInt(expires) < kaiMicroPulses(now - skew)) errors.push('the answer has expired')
    if (BigInt(issued) > kaiMicroPulses(now + skew)) errors.push('the answer was issued in the future')
  }
  if (errors.length > 0) return { ok: false, errors }
  return { ok: true, wire: envelope.wire as Wire, receiptDigest: receiptDigest as string, expiresAtKaiUPulse: expires as number }
}

async function signatureHolds(binding: Json, signature: Json, jwks: VerifyEnvelopeOptions['jwks'], errors: string[]): Promise<boolean> {
  const jwk = jwks.keys.find((key) => (key as { kid?: string }).kid === signature.kid)
  if (!jwk) return failed(errors, 'the signing key is not in the deployment\'s JWKS (unknown kid)')
  if (binding.issuerRootKid !== signature.kid) return failed(errors, 'the binding names another issuer key than the one that signed')
  const algorithm = WEBCRYPTO[String(signature.alg)]
  if (!algorithm || (jwk.alg !== undefined && jwk.alg !== signature.alg)) return failed(errors, `the signature algorithm ${String(signature.alg)} does not match the key`)
  const sig = fromBase64Url(signature.sig)
  if (!sig) return failed(errors, 'the signature is not base64url')
  try {
    const key = await crypto.subtle.importKey('jwk', jwk, algorithm.importParams, false, ['verify'])
    if (await crypto.subtle.verify(algorithm.verifyParams, key, sig, canonicalBytes(binding))) return true
  } catch {
    return failed(errors, 'the signing key cannot be used to verify')
  }
  return failed(errors, 'the transport signature does not verify over the binding')
}

const WEBCRYPTO: Readonly<Record<string, { importParams: AlgorithmIdentifier | EcKeyImportParams | RsaHashedImportParams; verifyParams: AlgorithmIdentifier | EcdsaParams }>> = {
  ES256: { importParams: { name: 'ECDSA', namedCurve: 'P-256' }, verifyParams: { name: 'ECDSA', hash: 'SHA-256' } },
  EdDSA: { importParams: { name: 'Ed25519' }, verifyParams: { name: 'Ed25519' } },
  RS256: { importParams: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, verifyParams: { name: 'RSASSA-PKCS1-v1_5' } },
}

function canonicalBytes(value: unknown): Uint8Array<ArrayBuffer> {
  const text = canonicalize(value)
  if (text === undefined) throw new TypeError('Value has no JSON form')
  return new TextEncoder().encode(text)
}

/**
 * Synchronous SHA-256 (@noble/hashes, pure JavaScript like the rest of this verifier): the digests
 * here cover a few hundred bytes each, where a WebCrypto round trip costs far more than the hash.
 */
async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return bytesToHex(sha256(bytes))
}

function fromBase64Url(text: unknown): Uint8Array<ArrayBuffer> | undefined {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  return Uint8Array.from(binary, (char) => char.charCodeAt(0))
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function failed(errors: string[], error: string): false {
  errors.push(error)
  return false
}

const refused = (error: string): { ok: false; errors: readonly string[] } => ({ ok: false, errors: [error] })

/** The client half of private domain additions ships with the verifier (`cairn/runtime-verify`). */
export { decryptPrivateAddition, type EncryptedAddition, type PrivateAdditionExpectation, type DecryptVerdict } from './decrypt-private-addition.js'
