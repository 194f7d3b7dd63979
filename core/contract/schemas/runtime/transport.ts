/**
 * What makes a runtime answer checkable offline: the receipt (what was asked and answered), the
 * transport binding (method, path, request, wire and receipt digests bound to issuer, audience and
 * time) and the transport signature over the binding.
 */
import * as t from 'io-ts'
import { struct } from '../../define.js'
import { Base64Url, KaiPulse, KaiUPulse } from '../../primitives.js'
import { RuntimeAuthority } from './authority.js'
import { V124Digest } from './digests.js'
import { V124ApplicationId } from './identifiers.js'
import { Audience, HostName, KeyId, nullable, RuntimeMethod, RuntimePath, SignatureAlgorithm } from './values.js'

/** Binds one signed answer to its request, wire, receipt, issuer key, audience and Kai time window. */
export const V124TransportBinding = struct(
  'V124TransportBinding',
  {
    schema: t.literal('cairn.v124.transport_binding'),
    domain: HostName,
    issuerRootKid: KeyId,
    method: RuntimeMethod,
    path: RuntimePath,
    requestDigest: V124Digest,
    wireDigest: V124Digest,
    receiptDigest: V124Digest,
    applicationId: V124ApplicationId,
    audience: Audience,
    issuedAtKaiPulse: KaiPulse,
    issuedAtKaiUPulse: KaiUPulse,
    expiresAtKaiUPulse: KaiUPulse,
    revocationHead: V124Digest,
    authority: RuntimeAuthority,
  },
  {},
  'Binding the transport signature covers: issuing host (`domain`), issuer key, method, path, request/wire/receipt digests, application, audience, Kai time window and revocation head.',
)

/** JWS-style detached signature (`kid`, `alg`, `sig`) over the canonical JSON of the transport binding. */
export const V124TransportSignature = struct(
  'V124TransportSignature',
  { schema: t.literal('cairn.v124.transport_signature'), kid: KeyId, alg: SignatureAlgorithm, sig: Base64Url },
  {},
  'Signature over the RFC 8785 canonical JSON of the transport binding; `kid` is in the JWKS, `sig` is base64url.',
)

/** Receipt of one authenticated runtime call; `revokedAtKaiUPulse` is null until the authority is revoked. */
export const V124AuthenticatedRuntimeReceipt = struct(
  'V124AuthenticatedRuntimeReceipt',
  {
    schema: t.literal('cairn.v124.authenticated_runtime_receipt'),
    method: RuntimeMethod,
    path: RuntimePath,
    requestDigest: V124Digest,
    wireDigest: V124Digest,
    applicationId: V124ApplicationId,
    audience: Audience,
    issuedAtKaiUPulse: KaiUPulse,
    expiresAtKaiUPulse: KaiUPulse,
    revocationHead: V124Digest,
    revokedAtKaiUPulse: nullable(KaiUPulse),
    authority: RuntimeAuthority,
    receiptDigest: V124Digest,
  },
  {},
  'Receipt of one authenticated runtime call. `receiptDigest` covers every other property. Coordination only.',
)

/** This file's components by name, spread into `runtimeComponents`. */
export const transportComponents = { V124TransportBinding, V124TransportSignature, V124AuthenticatedRuntimeReceipt } as const
