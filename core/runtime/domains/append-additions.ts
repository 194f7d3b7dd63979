/**
 * How domain additions get written. No HTTP operation appends directly: a committed staged
 * execution appends its plan's events (core/runtime/execution-domain.ts, through `planDomainAppend`
 * in the execute commit), and embedders and tests may append with `appendDomainAdditions`.
 * `createDomain` declares a domain once (its source artifact and owner, registry and reducer digests);
 * `appendDomainAdditions` appends a batch in ONE Store commit guarded by the expected head (the
 * stream append's head expectation and the domain record's version), so concurrent appenders
 * serialise and a lost race writes nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { isRight } from 'fp-ts/lib/Either.js'
import type { Write } from '../../../ports/store.js'
import { unchangedSince } from '../../usecases/typed-collection.js'
import { V124PortableSealedArtifact } from '../../contract/schemas/runtime/sources.js'
import { sha256Hex } from '../../digest/sha256.js'
import { fromBase64Url, toBase64Url } from '../../encoding/base64url.js'
import { conflict, invalidInput, notFound, unprocessable, type DomainError } from '../../errors/domain-error.js'
import type { CoreDeps } from '../../usecases/use-case.js'
import {
  additionKeyOf, DOMAIN_REDUCER_DIGEST, DOMAIN_REGISTRY, DOMAIN_REGISTRY_DIGEST, domainKeyOf, domainStreamOf, headAfter, nextNamespaceHead, replayAdditionOf,
  NAMESPACE_NAME, RUNTIME_ID, chainedValueOf,
  type AdditionRecord, type DomainRecord, type DomainRef, type NamespaceIndex, type PortableSealedArtifact, type PrivateRecord, type ReplayAddition,
} from './domain-records.js'
import { domainAdditions, domainPrivate, domains } from './stored-records.js'

const APPLICATION_ID = /^[a-z0-9](?:[a-z0-9._-]{0,126}[a-z0-9])?$/
const DIGEST = /^[0-9a-f]{64}$/

/** One addition to append. */
export interface NewDomainAddition {
  readonly appendId: string
  readonly namespace: string
  /** The exact public event bytes (1 byte to 64 KiB). */
  readonly eventBytes: Uint8Array
  /** Event digests of earlier additions of the domain (or of earlier additions of this batch). */
  readonly causalParents?: readonly string[]
  /** A private payload, shown only to viewers granted it (`private`: its owner; `grant`: grant holders for the namespace). */
  readonly private?: { readonly visibility: 'private' | 'grant'; readonly ownerSubjectId: string; readonly payload: Uint8Array }
}

export interface AppendResult {
  readonly head: string
  readonly sequence: number
  readonly additions: readonly ReplayAddition[]
}

/**
 * Declares a domain owned by `ownerSubjectId` (the owner of `sourceArtifact`: embedders vouch for it).
 *
 * @example await createDomain(deps, { applicationId: 'com.example.notes', domainId: 'notes' }, sourceArtifact, 'usr_ada')
 */
export async function createDomain(deps: Pick<CoreDeps, 'store' | 'clock'>, domain: DomainRef, sourceArtifact: PortableSealedArtifact, ownerSubjectId: string): Promise<Either<DomainError, DomainRecord>> {
  if (!APPLICATION_ID.test(domain.applicationId) || !RUNTIME_ID.test(domain.domainId)) return E.left(invalidInput('applicationId must be an application id and domainId a runtime id'))
  if (!RUNTIME_ID.test(ownerSubjectId)) return E.left(invalidInput('ownerSubjectId must be a runtime id'))
  if (!isRight(V124PortableSealedArtifact.decode(sourceArtifact))) return E.left(invalidInput('sourceArtifact must be a V124PortableSealedArtifact'))
  const bytes = fromBase64Url(sourceArtifact.exactBytesB64u)
  if (!bytes || sha256Hex(bytes) !== sourceArtifact.artifactSha256) return E.left(unprocessable('sourceArtifact.artifactSha256 is not the SHA-256 of its exact bytes'))
  const existing = await domains.get(deps.store, domainKeyOf(domain))
  if (existing) {
    const held = existing.value
    const same = held.sourceArtifact.artifactSha256 === sourceArtifact.artifactSha256 && held.ownerSubjectId === ownerSubjectId
    return same ? E.right(held) : E.left(conflict('This domain already exists with another source artifact or owner'))
  }
  const record = newDomainRecord(domain, { sourceArtifact, ownerSubjectId }, deps.clock.now())
  const outcome = await deps.store.commit([domains.put(domainKeyOf(domain), record, { kind: 'absent' })])
  if (!outcome.ok) return E.left(conflict('This domain was created concurrently; read it again'))
  return E.right(record)
}

/** What a new domain is created with: its source artifact and that artifact's owner, who owns the domain. */
export interface DomainOrigin {
  readonly sourceArtifact: PortableSealedArtifact
  readonly ownerSubjectId: string
}

/** A domain before its first addition, pinned to today's registry and reducer. */
function newDomainRecord(domain: DomainRef, origin: DomainOrigin, createdAtMs: number): DomainRecord {
  return {
    applicationId: domain.applicationId, domainId: domain.domainId,
    registryDigest: DOMAIN_REGISTRY_DIGEST, reducerDigest: DOMAIN_REDUCER_DIGEST,
    sourceArtifact: { ...origin.sourceArtifact }, ownerSubjectId: origin.ownerSubjectId, head: null, sequence: -1, createdAtMs,
  }
}

/** Input rules that need no Store: a sentence for the first broken one. */
function inputProblem(additions: readonly NewDomainAddition[]): string | undefined {
  if (additions.length === 0 || additions.length > DOMAIN_REGISTRY.maxAdditionsPerAppend) return `append 1 to ${DOMAIN_REGISTRY.maxAdditionsPerAppend} additions at once`
  const ids = new Set<string>()
  for (const [i, addition] of additions.entries()) {
    if (!RUNTIME_ID.test(addition.appendId)) return `additions[${i}].appendId must be 1-256 unreserved characters`
    if (ids.has(addition.appendId)) return `additions[${i}].appendId repeats an appendId of this batch`
    ids.add(addition.appendId)
    if (!NAMESPACE_NAME.test(addition.namespace)) return `additions[${i}].namespace must be a lowercase name of 1-128 characters`
    if (addition.eventBytes.length === 0 || addition.eventBytes.length > DOMAIN_REGISTRY.maxEventBytes) return `additions[${i}].eventBytes must be 1 to ${DOMAIN_REGISTRY.maxEventBytes} bytes`
    const parents = addition.causalParents ?? []
    if (parents.some((parent) => !DIGEST.test(parent)) || new Set(parents).size !== parents.length) return `additions[${i}].causalParents must be distinct event digests`
    const secret = addition.private
    if (secret) {
      if (secret.visibility !== 'private' && secret.visibility !== 'grant') return `additions[${i}].private.visibility must be private or grant`
      if (!RUNTIME_ID.test(secret.ownerSubjectId)) return `additions[${i}].private.ownerSubjectId must be a runtime id`
      if (secret.payload.length > DOMAIN_REGISTRY.maxPrivatePayloadBytes) return `additions[${i}].private.payload must be at most ${DOMAIN_REGISTRY.maxPrivatePayloadBytes} bytes`
    }
  }
  return undefined
}

/**
 * Append `additions` after `expectedHead` (null: the domain has no addition yet), all or none.
 *
 * @example await appendDomainAdditions(deps, { applicationId, domainId }, null, [{ appendId: 'a1', namespace: 'notes', eventBytes }])
 */
export async function appendDomainAdditions(
  deps: Pick<CoreDeps, 'store'>,
  domain: DomainRef,
  expectedHead: string | null,
  additions: readonly NewDomainAddition[],
): Promise<Either<DomainError, AppendResult>> {
  const planned = await planDomainAppend(deps, domain, expectedHead, additions)
  if (E.isLeft(planned)) return planned
  const outcome = await deps.store.commit(planned.right.writes)
  if (!outcome.ok) return E.left(conflict('The domain moved while appending; nothing was appended'))
  return E.right(planned.right.result)
}

/** Appends at the head the domain has when the append is planned. */
export const AT_CURRENT_HEAD = Symbol('the domain head when read')

/** An append's writes (the domain record first) and what it answers once they are committed. */
export interface DomainAppendPlan {
  readonly writes: readonly Write[]
  readonly result: AppendResult
  /** The domain's owner (undefined for a domain stored before owners were recorded). */
  readonly domainOwnerSubjectId: string | undefined
}

/**
 * Reads what an append needs and builds its writes, writing nothing: for callers that commit the
 * append together with writes of their own (a staged execution appends its plan's events in the
 * commit that moves its participant heads). The writes expect the domain record's version and the
 * stream's head, so the commit fails whole if the domain moved since. With `createWith`, a domain
 * that does not exist yet is created by the same writes (expecting its absence), with that source
 * artifact and owner. `AT_CURRENT_HEAD` appends at whatever head the domain has when it is read (the writes
 * still expect that head).
 *
 * @example const planned = await planDomainAppend(deps, domain, head, additions, { createWith: { sourceArtifact: candidate, ownerSubjectId }, nowMs })
 */
export async function planDomainAppend(
  deps: Pick<CoreDeps, 'store'>,
  domain: DomainRef,
  expectedHead: string | null | typeof AT_CURRENT_HEAD,
  additions: readonly NewDomainAddition[],
  options: { readonly createWith?: DomainOrigin; readonly nowMs?: number } = {},
): Promise<Either<DomainError, DomainAppendPlan>> {
  const problem = inputProblem(additions)
  if (problem) return E.left(invalidInput(problem))
  const domainKey = domainKeyOf(domain)
  const stored = await domains.get(deps.store, domainKey)
  if (!stored && !options.createWith) return E.left(notFound('No such domain'))
  const record: DomainRecord = stored ? stored.value : newDomainRecord(domain, options.createWith!, options.nowMs ?? 0)
  if (expectedHead !== AT_CURRENT_HEAD && record.head !== expectedHead) return E.left(conflict('expectedHead is not the domain\'s head; nothing was appended'))
  const taken = await Promise.all(additions.map((a) => deps.store.getByUnique(domainAdditions.name, 'byAppend', `${domainKey}:${a.appendId}`)))
  if (taken.some(Boolean)) return E.left(conflict('An appendId of this batch was already appended to the domain'))
  const batchEvents = new Set<string>()
  const knownParents = new Set<string>()
  const wanted = [...new Set(additions.flatMap((a) => a.causalParents ?? []))]
  const found = await Promise.all(wanted.map((parent) => deps.store.query(domainAdditions.name, { index: 'byEvent', equals: [domainKey, parent], limit: 1 })))
  wanted.forEach((parent, i) => { if (found[i]!.items.length > 0) knownParents.add(parent) })
  const last = record.head === null ? undefined : await domainAdditions.get(deps.store, additionKeyOf(domain, record.sequence))
  let namespaces: NamespaceIndex = last ? last.value.namespaces : {}

  const writes: Write[] = []
  const appended: AdditionRecord[] = []
  let head = record.head
  let sequence = record.sequence
  for (const [i, addition] of additions.entries()) {
    const eventDigest = sha256Hex(addition.eventBytes)
    const parents = addition.causalParents ?? []
    if (parents.some((parent) => !knownParents.has(parent) && !batchEvents.has(parent))) return E.left(unprocessable(`additions[${i}].causalParents names an event that is not an earlier addition of this domain`))
    if (!(addition.namespace in namespaces) && Object.keys(namespaces).length >= DOMAIN_REGISTRY.maxNamespacesPerDomain) return E.left(unprocessable(`a domain has at most ${DOMAIN_REGISTRY.maxNamespacesPerDomain} namespaces`))
    const namespaceHead = nextNamespaceHead(namespaces[addition.namespace]?.head ?? null, addition.namespace, eventDigest)
    const chained = chainedValueOf({
      schema: 'cairn.v124.domain_addition', appendId: addition.appendId, exactEventBytesB64u: toBase64Url(addition.eventBytes),
      eventDigest, causalParents: parents, namespaceHead, namespaceDigest: eventDigest,
    })
    const newHead = headAfter(head, chained)
    sequence += 1
    namespaces = { ...namespaces, [addition.namespace]: { digest: eventDigest, head: namespaceHead } }
    const row: AdditionRecord = {
      ...chained, domainKey, headKey: `${domainKey}:${newHead}`, appendKey: `${domainKey}:${addition.appendId}`, sequence,
      namespace: addition.namespace, priorHead: head, newHead, namespaces, privateAccess: addition.private ? { visibility: addition.private.visibility, ownerSubjectId: addition.private.ownerSubjectId } : null,
    }
    writes.push({ kind: 'append', stream: domainStreamOf(domain), value: chained, expectHead: head })
    writes.push(domainAdditions.put(additionKeyOf(domain, sequence), row, { kind: 'absent' }))
    if (addition.private) {
      const secret: PrivateRecord = { payloadB64u: toBase64Url(addition.private.payload) }
      writes.push(domainPrivate.put(additionKeyOf(domain, sequence), secret, { kind: 'absent' }))
    }
    batchEvents.add(eventDigest)
    appended.push(row)
    head = newHead
  }
  const next: DomainRecord = { ...record, head, sequence }
  writes.unshift(domains.put(domainKey, next, unchangedSince(stored?.version ?? null)))
  return E.right({ writes, result: { head: head!, sequence, additions: appended.map(replayAdditionOf) }, domainOwnerSubjectId: record.ownerSubjectId })
}
