/**
 * A domain of the Universal Runtime: an application's append-only chain of exact event bytes. Each
 * addition is one entry of the domain's Store stream (so the domain head is the Store's head chain,
 * core/digest/chain.ts), mirrored by one addition document the replay reads by sequence and by head.
 * Every addition writes one namespace; the reducer keeps, per namespace, the newest event's exact
 * bytes and a namespace head chained over that namespace's events. Private payloads live in their
 * own documents, never in the chain or the addition document, and are read only for a viewer who
 * is granted them (private-additions.ts).
 */
import type { ComponentType } from '../../contract/components.js'
import { chainHead, entryDigestOf } from '../../digest/chain.js'
import { canonicalJsonBytes } from '../../digest/canonical-json.js'
import { sha256Hex, sha256OfJson } from '../../digest/sha256.js'
import { toBase64Url } from '../../encoding/base64url.js'
import type { CollectionSpec } from '../../../ports/store.js'
import type { AdditionRecord, ChainedAddition, DomainRecord, NamespaceIndex, PrivateRecord } from './stored-records.js'

export type PortableSealedArtifact = ComponentType<'V124PortableSealedArtifact'>

/** The domain records (registry and reducer digests, source artifact, current head), keyed by `domainKey`. */
export const RUNTIME_DOMAINS = 'runtime_domains'
/** One document per addition, keyed `domainKey:sequence`, unique by head and by appendId. */
export const RUNTIME_DOMAIN_ADDITIONS = 'runtime_domain_additions'
/** Private payloads of additions, keyed `domainKey:sequence`; read only for granted viewers. */
export const RUNTIME_DOMAIN_PRIVATE = 'runtime_domain_private'
/** Access grants to a domain's private additions, keyed by SHA-256 of the grant handle. */
export const RUNTIME_DOMAIN_GRANTS = 'runtime_domain_grants'

// Each spec is typed with its record's codec in stored-records.ts (grants: grant-record.ts).
export const domainsSpec: CollectionSpec = { name: RUNTIME_DOMAINS }
export const domainAdditionsSpec: CollectionSpec = {
  name: RUNTIME_DOMAIN_ADDITIONS,
  uniqueKeys: [{ name: 'byHead', field: 'headKey' }, { name: 'byAppend', field: 'appendKey' }],
  indexes: [{ name: 'byEvent', fields: ['domainKey', 'eventDigest'] }],
}
export const domainPrivateSpec: CollectionSpec = { name: RUNTIME_DOMAIN_PRIVATE }
export const domainGrantsSpec: CollectionSpec = { name: RUNTIME_DOMAIN_GRANTS, indexes: [{ name: 'byDomain', fields: ['domainKey', 'grantedAtMs'] }] }

export const domainCollections: readonly CollectionSpec[] = [domainsSpec, domainAdditionsSpec, domainPrivateSpec, domainGrantsSpec]

/** The domain registry as data: its digest is what clients pin as `expectedRegistryDigest`. */
export const DOMAIN_REGISTRY = {
  schema: 'cairn.v124.domain_registry',
  version: 'cairn.v124.domain_registry.1',
  namespaces: '^[a-z][a-z0-9._-]{0,127}$',
  maxNamespacesPerDomain: 64,
  maxEventBytes: 65536,
  maxPrivatePayloadBytes: 65536,
  maxAdditionsPerAppend: 100,
  visibility: ['private', 'grant'],
} as const
/** A runtime id (appendIds, subject ids, domain ids): 1–256 URL-unreserved characters. */
export const RUNTIME_ID = /^[A-Za-z0-9._~-]{1,256}$/
/** A namespace name the domain registry admits. */
export const NAMESPACE_NAME = new RegExp(DOMAIN_REGISTRY.namespaces)

/** The domain reducer as data: its digest is what clients pin as `expectedReducerDigest`. */
export const DOMAIN_REDUCER = {
  schema: 'cairn.v124.domain_reducer',
  version: 'cairn.v124.domain_reducer.1',
  rule: 'each addition writes one namespace: its body is the exact bytes of its newest event, its head chains SHA-256 of {"eventDigest","namespace"} from null; the index projection is the RFC 8785 JSON {"namespaces":{name:{"digest","head"}}}',
} as const
export const DOMAIN_REGISTRY_DIGEST = sha256OfJson(DOMAIN_REGISTRY)
export const DOMAIN_REDUCER_DIGEST = sha256OfJson(DOMAIN_REDUCER)

/** The name of the namespace projection a replay and a checkpoint carry: the index of all namespaces. */
export const INDEX_NAMESPACE = 'namespaces'

/** Replay pages: at most this many additions, and no more event bytes than this after the first. */
export const MAX_REPLAY_ADDITIONS = 100
export const MAX_REPLAY_EVENT_BYTES = 512 * 1024

export interface DomainRef {
  readonly applicationId: string
  readonly domainId: string
}

export const domainKeyOf = (domain: DomainRef): string => `${domain.applicationId}:${domain.domainId}`
export const domainStreamOf = (domain: DomainRef): string => `runtime.domain.${domainKeyOf(domain)}`
export const additionKeyOf = (domain: DomainRef, sequence: number): string => `${domainKeyOf(domain)}:${sequence}`

/** The head of a domain with no addition yet (heads on the wire are null there; projections need a digest). */
export function genesisDomainHead(domain: DomainRef): string {
  return sha256OfJson({ schema: 'cairn.v124.domain_genesis', applicationId: domain.applicationId, domainId: domain.domainId })
}

// The stored records themselves are declared with their codecs in stored-records.ts.
export type { AdditionRecord, ChainedAddition, DomainRecord, NamespaceIndex, PrivateRecord }

/** The wire addition of a replay. */
export type ReplayAddition = ComponentType<'V124DomainReplayAddition'>
export type NamespaceProjection = ComponentType<'V124DomainNamespaceProjection'>

/** A namespace head after `eventDigest` was written to `namespace`. */
export function nextNamespaceHead(prior: string | null, namespace: string, eventDigest: string): string {
  return chainHead(prior, sha256OfJson({ namespace, eventDigest }))
}

/** The value a Store stream entry holds for an addition, and the head it chains to after `priorHead`. */
export function chainedValueOf(addition: ChainedAddition): ChainedAddition {
  return {
    schema: 'cairn.v124.domain_addition',
    appendId: addition.appendId,
    exactEventBytesB64u: addition.exactEventBytesB64u,
    eventDigest: addition.eventDigest,
    causalParents: [...addition.causalParents],
    namespaceHead: addition.namespaceHead,
    namespaceDigest: addition.namespaceDigest,
  }
}

export function headAfter(priorHead: string | null, addition: ChainedAddition): string {
  return chainHead(priorHead, entryDigestOf(chainedValueOf(addition)))
}

/** The wire form of a stored addition. The cursor is its decimal sequence. */
export function replayAdditionOf(record: AdditionRecord): ReplayAddition {
  return {
    appendId: record.appendId,
    sequence: record.sequence,
    cursor: String(record.sequence),
    exactEventBytesB64u: record.exactEventBytesB64u,
    eventDigest: record.eventDigest,
    causalParents: [...record.causalParents],
    priorHead: record.priorHead,
    newHead: record.newHead,
    namespaceHead: record.namespaceHead,
    namespaceDigest: record.namespaceDigest,
  }
}

/**
 * The index namespace projection at `head` (the domain's genesis head before any addition): the
 * RFC 8785 bytes of `{"namespaces":{…}}`, their digest and the head.
 */
export function indexProjection(namespaces: NamespaceIndex, head: string): NamespaceProjection {
  const bytes = canonicalJsonBytes({ namespaces })
  return { name: INDEX_NAMESPACE, exactBytesB64u: toBase64Url(bytes), digest: sha256Hex(bytes), head }
}
