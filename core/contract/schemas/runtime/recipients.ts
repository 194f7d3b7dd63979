/**
 * Public recipient resolution (a consented alias to an encrypted, purpose-bound, one-use locator)
 * and the per-recipient key wrap private payloads use.
 */
import * as t from 'io-ts'
import { alias, describe, struct } from '../../define.js'
import { Base64Url, KaiUPulse, NonEmptyString, patternString } from '../../primitives.js'
import { RuntimeAuthority } from './authority.js'
import { V124Digest } from './digests.js'
import { V124ApplicationId } from './identifiers.js'
import { Nonce, OpaqueHandle, RuntimeId, Slug } from './values.js'

/** A P-256 coordinate: 32 bytes as unpadded base64url is exactly 43 characters. */
const P256Coordinate = patternString('P256Coordinate', /^[A-Za-z0-9_-]{43}$/, { contentEncoding: 'base64url' })

/** A consented public alias after normalisation (lowercase). */
const NormalizedAlias = patternString('NormalizedAlias', /^[a-z0-9][a-z0-9._-]{0,63}$/, { description: 'Lowercase normalised alias' })

/**
 * The sender's ephemeral EC P-256 public key as a JWK (RFC 7517/7518), in the form WebCrypto's
 * `exportKey('jwk')` gives for an ECDH public key (`key_ops` usually empty, `ext` true).
 */
export const V124PrivateRecipientEphemeralPublicKey = struct(
  'V124PrivateRecipientEphemeralPublicKey',
  {
    key_ops: t.array(t.keyof({ deriveKey: null, deriveBits: null })),
    ext: t.boolean,
    kty: t.literal('EC'),
    crv: t.literal('P-256'),
    x: P256Coordinate,
    y: P256Coordinate,
  },
  {},
  'Ephemeral ECDH public key (JWK, RFC 7517) on P-256; `x` and `y` are 43-character base64url coordinates.',
)

/** The content key wrapped for one recipient (ECDH-ES with the ephemeral key). */
export const V124PrivateRecipientWrapProjection = struct(
  'V124PrivateRecipientWrapProjection',
  {
    recipientSubjectId: RuntimeId,
    recipientAccessKeyHead: V124Digest,
    ephemeralPublicKeyJwk: V124PrivateRecipientEphemeralPublicKey,
    nonceB64u: Base64Url,
    wrappedContentKeyB64u: Base64Url,
    wrapDigest: V124Digest,
  },
  {},
  'Content key wrapped for one recipient, bound to the recipient subject and its access key head.',
)

/** Resolve a consented public alias for one purpose and one operation. */
export const V124PublicRecipientResolutionRequest = struct(
  'V124PublicRecipientResolutionRequest',
  {
    applicationId: V124ApplicationId,
    authoritySessionHandle: OpaqueHandle,
    expectedRequesterSubjectId: RuntimeId,
    normalizedAlias: NormalizedAlias,
    purpose: Slug,
    operationNonce: Nonce,
  },
  {},
  'Resolve a consented public alias to an encrypted, purpose-bound, one-use locator.',
)

/** A resolved alias: display label and an encrypted one-use locator. */
export const V124PublicRecipientResolutionSuccessWire = struct(
  'V124PublicRecipientResolutionSuccessWire',
  {
    schema: t.literal('cairn.v124.public_recipient_resolution_success_wire'),
    status: t.literal('succeeded'),
    applicationId: V124ApplicationId,
    normalizedAlias: NormalizedAlias,
    purpose: Slug,
    operationNonce: Nonce,
    display: NonEmptyString,
    encryptedLocatorB64u: Base64Url,
    expiresAtKaiUPulse: KaiUPulse,
    locatorDigest: V124Digest,
    authority: RuntimeAuthority,
  },
  {},
  'A resolved alias: the consented display label and an encrypted, purpose-bound, one-use locator that expires.',
)

/** Not resolved. No reason is given, so the answer never reveals whether an alias exists. */
export const V124PublicRecipientResolutionFailureWire = struct(
  'V124PublicRecipientResolutionFailureWire',
  { schema: t.literal('cairn.v124.public_recipient_resolution_failure_wire'), status: t.literal('failed') },
  {},
  'The alias was not resolved. Deliberately reason-free (privacy-safe: unknown, unconsented and rate-limited look alike).',
)

/** Success or failure, told apart by `status`. */
export const V124PublicRecipientResolutionWire = describe(
  alias('V124PublicRecipientResolutionWire', t.union([V124PublicRecipientResolutionSuccessWire, V124PublicRecipientResolutionFailureWire])),
  'Public recipient resolution result: success (`status: succeeded`) or failure (`status: failed`).',
)

/** This file's components by name, spread into `runtimeComponents`. */
export const recipientComponents = {
  V124PrivateRecipientEphemeralPublicKey,
  V124PrivateRecipientWrapProjection,
  V124PublicRecipientResolutionRequest,
  V124PublicRecipientResolutionSuccessWire,
  V124PublicRecipientResolutionFailureWire,
  V124PublicRecipientResolutionWire,
} as const
