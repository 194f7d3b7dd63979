/**
 * Verified replay and checkpoints of a domain's append-only stream. Heads chain as in
 * core/digest/chain.ts; `null` heads and cursors mean the domain's genesis (before any addition).
 */
import * as t from 'io-ts'
import { struct } from '../../define.js'
import { Base64Url, NonNegativeInteger } from '../../primitives.js'
import { RuntimeAuthority } from './authority.js'
import { V124Digest } from './digests.js'
import { V124ApplicationId } from './identifiers.js'
import { Cursor, nullable, RuntimeId, Slug } from './values.js'

/** Replay (or list additions) after an exact head, pinned to registry and reducer digests. */
export const V124VerifiedReplayRequest = struct(
  'V124VerifiedReplayRequest',
  {
    applicationId: V124ApplicationId,
    domainId: RuntimeId,
    afterHead: nullable(V124Digest),
    expectedRegistryDigest: V124Digest,
    expectedReducerDigest: V124Digest,
  },
  {},
  'Replay a domain after `afterHead` (null: from genesis) with pinned registry and reducer digests.',
)

/** A checkpoint through an exact head. */
export const V124VerifiedCheckpointRequest = struct(
  'V124VerifiedCheckpointRequest',
  { applicationId: V124ApplicationId, domainId: RuntimeId, throughHead: V124Digest },
  {},
  'Ask for the immutable checkpoint of a domain through an exact head.',
)

/** A namespace's exact bytes at a head. */
export const V124DomainNamespaceProjection = struct(
  'V124DomainNamespaceProjection',
  { name: Slug, exactBytesB64u: Base64Url, digest: V124Digest, head: V124Digest },
  {},
  'Byte-exact projection of one namespace (base64url) with its digest and the head it was projected at.',
)

/** One addition of a domain stream, with its exact event bytes and the heads it moved. */
export const V124DomainReplayAddition = struct(
  'V124DomainReplayAddition',
  {
    appendId: RuntimeId,
    sequence: NonNegativeInteger,
    cursor: Cursor,
    exactEventBytesB64u: Base64Url,
    eventDigest: V124Digest,
    causalParents: t.array(V124Digest),
    priorHead: nullable(V124Digest),
    newHead: V124Digest,
    namespaceHead: V124Digest,
    namespaceDigest: V124Digest,
  },
  {},
  'One addition: exact event bytes, event digest, causal parents (event digests), the domain head before and after, and the namespace head and digest after.',
)

/** Replay result; `partial` means more additions exist after `head` (continue with afterHead = head). */
export const V124DomainReplayProjection = struct(
  'V124DomainReplayProjection',
  {
    schema: t.literal('cairn.v124.domain_replay_projection'),
    status: t.keyof({ complete: null, partial: null }),
    applicationId: V124ApplicationId,
    domainId: RuntimeId,
    registryDigest: V124Digest,
    reducerDigest: V124Digest,
    afterHead: nullable(V124Digest),
    afterCursor: nullable(Cursor),
    cursor: nullable(Cursor),
    priorHead: nullable(V124Digest),
    head: nullable(V124Digest),
    namespace: V124DomainNamespaceProjection,
    additions: t.array(V124DomainReplayAddition),
    receiptDigest: V124Digest,
    authority: RuntimeAuthority,
  },
  {},
  'Closed-shape replay: additions after `afterHead` up to `head`, with the namespace projection at `head`. `status` is `complete` or `partial` (more additions follow).',
)

/** Immutable checkpoint bytes through a verified head. */
export const V124DomainCheckpointProjection = struct(
  'V124DomainCheckpointProjection',
  {
    schema: t.literal('cairn.v124.domain_checkpoint_projection'),
    status: t.literal('immutable'),
    applicationId: V124ApplicationId,
    domainId: RuntimeId,
    registryDigest: V124Digest,
    reducerDigest: V124Digest,
    throughHead: V124Digest,
    cursor: Cursor,
    namespace: V124DomainNamespaceProjection,
    exactCheckpointBytesB64u: Base64Url,
    checkpointDigest: V124Digest,
    receiptDigest: V124Digest,
    authority: RuntimeAuthority,
  },
  {},
  'Immutable checkpoint of a domain through `throughHead`: exact checkpoint bytes and their digest.',
)

/** This file's components by name, spread into `runtimeComponents`. */
export const domainComponents = {
  V124VerifiedReplayRequest,
  V124VerifiedCheckpointRequest,
  V124DomainNamespaceProjection,
  V124DomainReplayAddition,
  V124DomainReplayProjection,
  V124DomainCheckpointProjection,
} as const
