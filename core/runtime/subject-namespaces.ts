/**
 * A subject's namespaces: what its published sealed sources define, reduced in publication order.
 * Each publication is one entry of the subject's append-only stream, so the subject's head is that
 * stream's head (a genesis digest before the first); a namespace's projection at a head is the
 * exact bytes the newest publication at or before that head gave it, with the head of that
 * publication. The reducer (`cairn.v124.reducer.1`) reads a source's payload: a JSON object with a
 * `namespaces` member maps each Slug name to a JSON value, whose RFC 8785 bytes are the namespace's
 * exact bytes; any other payload defines no namespace.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { ComponentType } from '../contract/components.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import { sha256Hex, sha256OfJson } from '../digest/sha256.js'
import { fromBase64Url, toBase64Url } from '../encoding/base64url.js'
import type { Json, StreamEntry } from '../../ports/store.js'
import { CorruptDocumentError } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { RUNTIME_REDUCER_VERSION, RUNTIME_REGISTRY_VERSION } from './runtime-versions.js'

/** The stream of one subject's source publications. */
export const subjectStreamOf = (subjectId: string): string => `runtime.subjects.${subjectId}`

/** The head of a subject with no publication yet. */
export function genesisSubjectHead(subjectId: string): string {
  return sha256OfJson({ schema: 'cairn.v124.subject_genesis', subjectId })
}

/** Namespace names the registry admits (the contract's Slug), and how many one source may define. */
const NAMESPACE_NAME = /^[a-z][a-z0-9._-]{0,127}$/
export const MAX_NAMESPACES_PER_SOURCE = 64

/** What the registry and reducer are, as data: their digests are what clients pin. */
export const NAMESPACE_REGISTRY = {
  schema: 'cairn.v124.namespace_registry',
  version: RUNTIME_REGISTRY_VERSION,
  names: NAMESPACE_NAME.source,
  maxNamespacesPerSource: MAX_NAMESPACES_PER_SOURCE,
  sourceKinds: ['sealed-json', 'sealed-file'],
} as const
export const NAMESPACE_REDUCER = {
  schema: 'cairn.v124.namespace_reducer',
  version: RUNTIME_REDUCER_VERSION,
  rule: 'newest publication wins per name; namespace bytes are the RFC 8785 JSON of payload.namespaces[name]',
} as const
export const REGISTRY_DIGEST = sha256OfJson(NAMESPACE_REGISTRY)
export const REDUCER_DIGEST = sha256OfJson(NAMESPACE_REDUCER)

/**
 * One publication as stored in the subject's stream. `namespaces`: name → exact namespace bytes
 * (base64url), as the reducer read them from the payload.
 */
const SubjectPublicationCodec = t.readonly(t.type({
  schema: t.literal('cairn.v124.subject_source_publication'), subjectId: t.string, ownerUserId: t.string, applicationId: t.string, sourceKind: t.string,
  artifactSha256: t.string, payloadSha256: t.string, filename: t.string, mimeType: t.string, namespaces: t.readonly(t.record(t.string, t.string)), publishedAtMs: t.number,
}))
export type SubjectPublication = t.TypeOf<typeof SubjectPublicationCodec>

/** A publication read back from its stream; an entry the codec refuses is a corrupt store. */
function publicationOf(entry: StreamEntry): SubjectPublication {
  const decoded = SubjectPublicationCodec.decode(entry.value)
  if (E.isLeft(decoded)) throw new CorruptDocumentError(entry.stream, String(entry.sequence), decoded.left)
  return decoded.right
}

/**
 * The namespaces a source payload defines, or a sentence saying why it defines them wrongly.
 *
 * @example reduceSource(new TextEncoder().encode('{"namespaces":{"profile":{"name":"Ada"}}}'), 'application/json')
 */
export function reduceSource(payload: Uint8Array, mediaType: string): { readonly sourceKind: string; readonly namespaces: Record<string, string> } | string {
  if (!/^application\/(.+\+)?json\b/.test(mediaType)) return { sourceKind: 'sealed-file', namespaces: {} }
  let parsed: unknown
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload))
  } catch {
    return { sourceKind: 'sealed-file', namespaces: {} }
  }
  const defined = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>).namespaces : undefined
  if (defined === undefined) return { sourceKind: 'sealed-json', namespaces: {} }
  if (typeof defined !== 'object' || defined === null || Array.isArray(defined)) return 'the payload\'s namespaces member must be a JSON object of name → value'
  const entries = Object.entries(defined as Record<string, unknown>)
  if (entries.length > MAX_NAMESPACES_PER_SOURCE) return `a source defines at most ${MAX_NAMESPACES_PER_SOURCE} namespaces`
  const bad = entries.find(([name]) => !NAMESPACE_NAME.test(name))
  if (bad) return 'namespace names must be lowercase names of 1-128 characters (letters, digits, . _ -) starting with a letter'
  try {
    return { sourceKind: 'sealed-json', namespaces: Object.fromEntries(entries.map(([name, value]) => [name, toBase64Url(canonicalJsonBytes(value))])) }
  } catch {
    return 'a namespace value has no RFC 8785 form (a number out of range)'
  }
}

/** One namespace at a head. */
export interface NamespaceProjection {
  readonly name: string
  readonly exactBytesB64u: string
  readonly digest: string
  readonly head: string
}

/** A subject at one head. */
export interface SubjectProjection {
  readonly subjectId: string
  readonly head: string
  readonly namespaces: ReadonlyMap<string, NamespaceProjection>
  /** The publication the head is at (undefined at genesis). */
  readonly latest: SubjectPublication | undefined
}

/**
 * The subject's projection at `atHead` (its current head when absent); undefined when `atHead` is
 * not a head the subject's stream ever had.
 *
 * @example await subjectProjection(deps, 'usr_ada')
 */
export async function subjectProjection(deps: Pick<CoreDeps, 'store'>, subjectId: string, atHead?: string): Promise<SubjectProjection | undefined> {
  const genesis = genesisSubjectHead(subjectId)
  const namespaces = new Map<string, NamespaceProjection>()
  let head = genesis
  let latest: SubjectPublication | undefined
  if (atHead === genesis) return { subjectId, head, namespaces, latest }
  let after: string | undefined
  do {
    const page = await deps.store.readStream<Json>(subjectStreamOf(subjectId), { limit: 1000, ...(after ? { after } : {}) })
    for (const entry of page.items) {
      const publication = publicationOf(entry)
      for (const [name, bytes] of Object.entries(publication.namespaces)) {
        namespaces.set(name, { name, exactBytesB64u: bytes, digest: sha256Hex(fromBase64Url(bytes) ?? new Uint8Array()), head: entry.head })
      }
      head = entry.head
      latest = publication
      if (atHead === entry.head) return { subjectId, head, namespaces, latest }
    }
    after = page.nextCursor ?? undefined
  } while (after)
  return atHead === undefined ? { subjectId, head, namespaces, latest } : undefined
}

/** A publication's sealed source with its exact bytes from custody, as the portable artifact a wire carries. */
export function portableSourceOf(publication: SubjectPublication, bytes: Uint8Array): ComponentType<'V124PortableSealedArtifact'> {
  return {
    schema: 'cairn.v124.portable_sealed_artifact', exactBytesB64u: toBase64Url(bytes), filename: publication.filename, mimeType: publication.mimeType,
    artifactSha256: publication.artifactSha256, payloadSha256: publication.payloadSha256,
  }
}
