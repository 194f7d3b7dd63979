/**
 * The one builder of every `V124Signed*Envelope`: the wire, the authenticated receipt of the call,
 * the transport binding (method, path, request/wire/receipt digests, application, audience, Kai
 * time window, revocation head) and a detached signature over the binding's RFC 8785 bytes by a
 * KeyStore key published in the JWKS. The exact bytes are documented in docs/runtime.md.
 */
import type { ComponentType } from '../contract/components.js'
import { pathParameters } from '../contract/operation.js'
import { operationsById, type OperationId } from '../contract/operations/index.js'
import { RUNTIME_AUTHORITY } from '../contract/schemas/runtime/authority.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import { sha256OfJson } from '../digest/sha256.js'
import { toBase64Url } from '../encoding/base64url.js'
import { kaiMomentAt } from '../time/kai.js'
import type { CoreDeps } from '../usecases/use-case.js'

/** How long a signed answer may be relied on: five minutes, long enough for a retry, short enough to go stale. */
export const ENVELOPE_LIFETIME_MS = 5 * 60 * 1000

/** The algorithm runtime answers are signed with (WebCrypto verifies it everywhere). */
export const ENVELOPE_ALG = 'ES256'

export type TransportBinding = ComponentType<'V124TransportBinding'>
export type RuntimeReceipt = ComponentType<'V124AuthenticatedRuntimeReceipt'>
export type TransportSignature = ComponentType<'V124TransportSignature'>

/** A signed runtime answer around `wire`. */
export interface SignedEnvelope<Schema extends string, Wire> {
  readonly schema: Schema
  readonly wire: Wire
  readonly receipt: RuntimeReceipt
  readonly transportBinding: TransportBinding
  readonly transportSignature: TransportSignature
}

/** What an answer is bound to besides its wire. */
export interface EnvelopeBinding {
  /** The operation answered; its method and path (parameters filled in) are bound. */
  readonly operationId: OperationId
  readonly params: Readonly<Record<string, string>>
  /** The decoded request body (`undefined` for none). */
  readonly body: unknown
  readonly applicationId: string
  readonly audience: string
  readonly revocationHead: string
  /** When the authority behind the answer was revoked (closed sessions); null otherwise. */
  readonly revokedAtKaiUPulse?: number | null
  /** `requestDigestOf(method, path, body)` when the caller computed it already (large bodies are canonicalised once). */
  readonly requestDigest?: string
}

/**
 * The request digest: SHA-256 of the RFC 8785 JSON `{"body":…,"method":…,"path":…}` with
 * `body: null` when none was sent. A client recomputes it from what it sent.
 *
 * @example requestDigestOf('POST', '/api/sdk/v1/runtime/qualify', { applicationId: 'app', operations: [] })
 */
export function requestDigestOf(method: string, path: string, body: unknown): string {
  return sha256OfJson({ method, path, body: body ?? null })
}

/** The receipt's digest: SHA-256 of its canonical JSON without `receiptDigest`. */
export function receiptDigestOf(receipt: Omit<RuntimeReceipt, 'receiptDigest'>): string {
  return sha256OfJson(receipt)
}

/** The route path as called: the operation's path with its parameters filled in (runtime ids need no encoding). */
export function calledPath(operationId: OperationId, params: Readonly<Record<string, string>>): { readonly method: 'GET' | 'POST'; readonly path: string } {
  const op = operationsById.get(operationId)
  if (!op || (op.method !== 'GET' && op.method !== 'POST')) throw new TypeError(`${operationId} is not a runtime operation`)
  let path = op.path
  for (const name of pathParameters(op.path)) path = path.replace(`{${name}}`, encodeURIComponent(params[name] ?? ''))
  return { method: op.method, path }
}

/**
 * @example const envelope = await signEnvelope(deps, 'cairn.v124.signed_operational_capability_envelope', report, binding)
 */
export async function signEnvelope<const Schema extends string, Wire>(
  deps: Pick<CoreDeps, 'clock' | 'keys' | 'config'>,
  schema: Schema,
  wire: Wire,
  binding: EnvelopeBinding,
): Promise<SignedEnvelope<Schema, Wire>> {
  const now = deps.clock.now()
  const issued = kaiMomentAt(now)
  const expiresAtKaiUPulse = kaiMomentAt(now + ENVELOPE_LIFETIME_MS).uPulse
  const { method, path } = calledPath(binding.operationId, binding.params)
  const requestDigest = binding.requestDigest ?? requestDigestOf(method, path, binding.body)
  const wireDigest = sha256OfJson(wire)
  const unsignedReceipt = {
    schema: 'cairn.v124.authenticated_runtime_receipt' as const,
    method,
    path,
    requestDigest,
    wireDigest,
    applicationId: binding.applicationId,
    audience: binding.audience,
    issuedAtKaiUPulse: issued.uPulse,
    expiresAtKaiUPulse,
    revocationHead: binding.revocationHead,
    revokedAtKaiUPulse: binding.revokedAtKaiUPulse ?? null,
    authority: RUNTIME_AUTHORITY,
  }
  const receipt: RuntimeReceipt = { ...unsignedReceipt, receiptDigest: receiptDigestOf(unsignedReceipt) }
  const key = await deps.keys.current(ENVELOPE_ALG)
  const transportBinding: TransportBinding = {
    schema: 'cairn.v124.transport_binding',
    domain: new URL(deps.config.baseUrl).host,
    issuerRootKid: key.kid,
    method,
    path,
    requestDigest,
    wireDigest,
    receiptDigest: receipt.receiptDigest,
    applicationId: binding.applicationId,
    audience: binding.audience,
    issuedAtKaiPulse: issued.pulse,
    issuedAtKaiUPulse: issued.uPulse,
    expiresAtKaiUPulse,
    revocationHead: binding.revocationHead,
    authority: RUNTIME_AUTHORITY,
  }
  const sig = await key.sign(canonicalJsonBytes(transportBinding))
  return {
    schema,
    wire,
    receipt,
    transportBinding,
    transportSignature: { schema: 'cairn.v124.transport_signature', kid: key.kid, alg: key.alg as 'ES256', sig: toBase64Url(sig) },
  }
}
