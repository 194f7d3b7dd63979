/**
 * Inline (non-component) value codecs the runtime schemas share. They publish as plain string,
 * integer or object schemas, so the 184-component count is untouched. Each one names the single
 * rule a family of properties follows (docs/decisions.md).
 */
import * as t from 'io-ts'
import { patternString } from '../../primitives.js'
import { V124Digest } from './digests.js'

/**
 * Identifiers of runtime things (domains, executions, subjects, actors, participants, idempotency
 * keys…): 1–256 RFC 3986 unreserved characters, because several travel as URL path segments
 * (`/execution/by-idempotency/{applicationId}/{domainId}/{operationKind}/{semanticIdempotencyKey}`).
 *
 * @example RuntimeId.is('exec_01J9Z3') // true
 */
export const RuntimeId = patternString('RuntimeId', /^[A-Za-z0-9._~-]{1,256}$/, {
  description: 'Identifier of 1-256 URL-unreserved characters (safe as a path segment)',
})

/** Lowercase names from a vocabulary the spec leaves open: rails, namespaces, profiles, purposes, operations. */
export const Slug = patternString('Slug', /^[a-z][a-z0-9._-]{0,127}$/, { description: 'Lowercase name, 1-128 characters' })

/** An OAuth scope token (RFC 6749 §3.3), e.g. `cairn:runtime.read`. */
export const ScopeName = patternString('ScopeName', /^[\x21\x23-\x5B\x5D-\x7E]+$/, { description: 'OAuth scope token' })

/** Opaque server-issued handles (authority sessions, access grants): unguessable base64url, ≥ 128 bits. */
export const OpaqueHandle = patternString('OpaqueHandle', /^[A-Za-z0-9_-]{22,512}$/, {
  contentEncoding: 'base64url',
  description: 'Opaque handle; never identity or proof authority',
})

/** One-use nonces: base64url of at least 12 bytes (96 bits). */
export const Nonce = patternString('Nonce', /^[A-Za-z0-9_-]{16,512}$/, { contentEncoding: 'base64url' })

/** Opaque position in an append-only domain stream; clients hand it back unchanged. */
export const Cursor = patternString('Cursor', /^[A-Za-z0-9._~-]{1,512}$/, { description: 'Opaque stream cursor' })

/** Audience a signature or session is bound to (the application's audience string). */
export const Audience = patternString('Audience', /^\S{1,512}$/, { description: 'Audience the object is bound to' })

/** Key identifier in Cairn's JWKS or in an identity proof. */
export const KeyId = patternString('KeyId', /^\S{1,256}$/)

/** A media type (RFC 6838), parameters allowed, e.g. `image/svg+xml`. */
export const MediaType = patternString('MediaType', /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(\s*;.*)?$/)

/** A file name as the sealed artifact was named; informational, never part of its identity. */
export const Filename = patternString('Filename', /^[^/\\\u0000]{1,255}$/)

/** A version label (semantic version or release name). */
export const VersionLabel = patternString('VersionLabel', /^\S{1,64}$/)

/** The JWS algorithms Cairn signs and verifies with (ports/key-store.ts `SigningAlgorithm`). */
export const SignatureAlgorithm = t.keyof({ EdDSA: null, ES256: null }, 'SignatureAlgorithm')

/** Runtime routes are GET or POST only (the Universal Runtime table), so bindings name one of those. */
export const RuntimeMethod = t.keyof({ GET: null, POST: null }, 'RuntimeMethod')

/** A runtime route path as called (path parameters filled in), without query or fragment. */
export const RuntimePath = patternString('RuntimePath', /^\/api\/sdk\/v1\/[^\s?#]*$/)

/** Host (and optional port) of the issuing deployment, from its {base_url}. */
export const HostName = patternString('HostName', /^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$/)

/** `null` or `codec`; null marks a genesis (no prior head) or an absent value the spec requires. */
export function nullable<C extends t.Mixed>(codec: C): t.UnionC<[C, t.NullC]> {
  return t.union([codec, t.null])
}

/** Failures write nothing: the count of writes is the literal 0 (spec Errors rule 3). */
export const ZeroWrites = t.literal(0)

/** Participant id → head: the compare-and-swap set of an execution (JSON object, order-free). */
export const ParticipantHeads = t.record(RuntimeId, V124Digest, 'ParticipantHeads')
