/**
 * Sealed bytes as the runtime carries them (exact, base64url, never re-serialised) and their
 * publication to content-addressed custody. Publication is coordination only: the bytes stay the
 * authority.
 */
import * as t from 'io-ts'
import { struct } from '../../define.js'
import { Base64Url, Sha256Hex } from '../../primitives.js'
import { RuntimeAuthority } from './authority.js'
import { V124Digest } from './digests.js'
import { V124ApplicationId } from './identifiers.js'
import { Filename, MediaType, OpaqueHandle, Slug } from './values.js'

/** A sealed artifact's exact bytes with the digests a receiver recomputes before trusting it. */
export const V124PortableSealedArtifact = struct(
  'V124PortableSealedArtifact',
  {
    schema: t.literal('cairn.v124.portable_sealed_artifact'),
    exactBytesB64u: Base64Url,
    filename: Filename,
    mimeType: MediaType,
    artifactSha256: Sha256Hex,
    payloadSha256: Sha256Hex,
  },
  {},
  'Exact sealed bytes (base64url) with the SHA-256 of those bytes and of the payload they carry. Receivers recompute both.',
)

/** An identity artifact's exact bytes and their digest. */
export const V124ExactIdentityArtifact = struct(
  'V124ExactIdentityArtifact',
  { exactBytesB64u: Base64Url, digest: V124Digest },
  {},
  'Exact bytes of an identity artifact (base64url) and the SHA-256 of those bytes.',
)

/** Publish one sealed source under an open authority session. */
export const V124SealedSourcePublicationRequest = struct(
  'V124SealedSourcePublicationRequest',
  { applicationId: V124ApplicationId, authoritySessionHandle: OpaqueHandle, sourceArtifact: V124PortableSealedArtifact },
  {},
  'Publish exact sealed bytes to content-addressed custody under an open authority session.',
)

/**
 * `published` on first custody, `already-published` when the same bytes were already held
 * (content addressing makes publication idempotent).
 */
export const V124SealedSourcePublicationResult = struct(
  'V124SealedSourcePublicationResult',
  {
    schema: t.literal('cairn.v124.sealed_source_publication_result'),
    status: t.keyof({ published: null, 'already-published': null }),
    sourceKind: Slug,
    artifactSha256: Sha256Hex,
    sourceBindingDigest: V124Digest,
    authority: RuntimeAuthority,
  },
  {},
  'Result of a sealed source publication. Coordination only; the published bytes remain the authority.',
)

/** This file's components by name, spread into `runtimeComponents`. */
export const sourceComponents = {
  V124PortableSealedArtifact,
  V124ExactIdentityArtifact,
  V124SealedSourcePublicationRequest,
  V124SealedSourcePublicationResult,
} as const
