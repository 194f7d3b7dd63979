/**
 * Verified replay, additions and checkpoints: answers at exactly the head the caller names, or a
 * refusal. A page is read at the domain record's head (additions are immutable once written, so the
 * page is one consistent prefix of the chain), bounded by count and event bytes, and resumable:
 * `partial` means more follow, continue with `afterHead = head`.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { ComponentType } from '../../contract/components.js'
import { RUNTIME_AUTHORITY } from '../../contract/schemas/runtime/authority.js'
import { canonicalJsonBytes } from '../../digest/canonical-json.js'
import { sha256Hex, sha256OfJson } from '../../digest/sha256.js'
import { fromBase64Url, toBase64Url } from '../../encoding/base64url.js'
import { conflict, notFound, type DomainError } from '../../errors/domain-error.js'
import { json, type CoreDeps, type UseCaseFor } from '../../usecases/use-case.js'
import { revocationHeadOf } from '../revocation-head.js'
import { runtimeCaller } from '../runtime-caller.js'
import { signEnvelope } from '../signed-envelope.js'
import {
  additionKeyOf, domainKeyOf, genesisDomainHead, headAfter, indexProjection, MAX_REPLAY_ADDITIONS, MAX_REPLAY_EVENT_BYTES, replayAdditionOf,
  type AdditionRecord, type DomainRecord, type DomainRef,
} from './domain-records.js'
import { domainAdditions, domains } from './stored-records.js'

type ReplayProjection = ComponentType<'V124DomainReplayProjection'>
type CheckpointProjection = ComponentType<'V124DomainCheckpointProjection'>

/** The domain, the addition `afterHead` names (undefined at genesis) and the additions after it, up to the bound. */
export interface LoadedPage {
  readonly record: DomainRecord
  readonly after: AdditionRecord | undefined
  readonly rows: readonly AdditionRecord[]
}

const NOT_A_HEAD = 'afterHead is not a head of this domain; nothing is answered at another head'

export async function loadDomain(deps: Pick<CoreDeps, 'store'>, domain: DomainRef): Promise<Either<DomainError, DomainRecord>> {
  const stored = await domains.get(deps.store, domainKeyOf(domain))
  return stored ? E.right(stored.value) : E.left(notFound('No such domain for this application'))
}

export async function additionAtHead(deps: Pick<CoreDeps, 'store'>, domain: DomainRef, head: string): Promise<AdditionRecord | undefined> {
  const stored = await deps.store.getByUnique(domainAdditions.name, 'byHead', `${domainKeyOf(domain)}:${head}`)
  return stored && domainAdditions.decode(stored)
}

/** Reads the page after `afterHead` at the record's head; the caller has checked the record's digests. */
export async function loadPage(deps: Pick<CoreDeps, 'store'>, record: DomainRecord, afterHead: string | null): Promise<Either<DomainError, LoadedPage>> {
  const domain = { applicationId: record.applicationId, domainId: record.domainId }
  const after = afterHead === null ? undefined : await additionAtHead(deps, domain, afterHead)
  if (afterHead !== null && (!after || after.sequence > record.sequence)) return E.left(conflict(NOT_A_HEAD))
  const first = after ? after.sequence + 1 : 0
  const last = Math.min(record.sequence, first + MAX_REPLAY_ADDITIONS - 1)
  const sequences = Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i)
  const docs = await Promise.all(sequences.map((sequence) => domainAdditions.get(deps.store, additionKeyOf(domain, sequence))))
  const rows = docs.flatMap((doc) => (doc ? [doc.value] : []))
  if (rows.length !== docs.length) throw new Error(`Domain ${domainKeyOf(domain)} is missing an addition below its head`)
  return E.right({ record, after, rows })
}

/** The additions a page answers: in order, at least one when there is one, within the byte bound. */
export function boundedRows(rows: readonly AdditionRecord[]): readonly AdditionRecord[] {
  const taken: AdditionRecord[] = []
  let bytes = 0
  for (const row of rows) {
    const size = Math.floor((row.exactEventBytesB64u.length * 3) / 4) // unpadded base64url: the exact byte count
    if (taken.length > 0 && bytes + size > MAX_REPLAY_EVENT_BYTES) break
    taken.push(row)
    bytes += size
  }
  return taken
}

/** The heads and cursors of a page: `head` is the newest answered head, `priorHead` the head before it. */
export function pageHeads(page: LoadedPage, taken: readonly AdditionRecord[]) {
  const newest = taken.at(-1) ?? page.after
  return {
    afterHead: page.after?.newHead ?? null,
    afterCursor: page.after ? String(page.after.sequence) : null,
    cursor: newest ? String(newest.sequence) : null,
    priorHead: newest?.priorHead ?? null,
    head: newest?.newHead ?? null,
    status: (newest?.sequence ?? -1) < page.record.sequence ? ('partial' as const) : ('complete' as const),
    namespaces: newest?.namespaces ?? {},
  }
}

/** A wire's own receipt digest: SHA-256 of its canonical JSON without `receiptDigest`. */
function withReceiptDigest<W extends Record<string, unknown>>(wire: W): W & { receiptDigest: string } {
  return { ...wire, receiptDigest: sha256OfJson(wire) }
}

/** Pure: the replay projection of a loaded page. */
export function replayProjection(page: LoadedPage): ReplayProjection {
  const taken = boundedRows(page.rows)
  const heads = pageHeads(page, taken)
  const domain = { applicationId: page.record.applicationId, domainId: page.record.domainId }
  const unsigned = {
    schema: 'cairn.v124.domain_replay_projection' as const,
    status: heads.status,
    applicationId: page.record.applicationId,
    domainId: page.record.domainId,
    registryDigest: page.record.registryDigest,
    reducerDigest: page.record.reducerDigest,
    afterHead: heads.afterHead,
    afterCursor: heads.afterCursor,
    cursor: heads.cursor,
    priorHead: heads.priorHead,
    head: heads.head,
    namespace: indexProjection(heads.namespaces, heads.head ?? genesisDomainHead(domain)),
    additions: taken.map(replayAdditionOf),
    authority: RUNTIME_AUTHORITY,
  }
  return withReceiptDigest(unsigned)
}

/** The shared body of replay and additions: same request, same projection, each bound to its own path. */
function replayUseCase<Id extends 'replayDomain' | 'listDomainAdditions'>(operationId: Id): UseCaseFor<Id> {
  const useCase: UseCaseFor<'replayDomain'> = async (request, deps) => {
    const caller = runtimeCaller(request.principal, request.body.applicationId)
    if (E.isLeft(caller)) return caller
    const body = request.body
    const record = await loadDomain(deps, { applicationId: caller.right.applicationId, domainId: body.domainId })
    if (E.isLeft(record)) return record
    if (record.right.registryDigest !== body.expectedRegistryDigest) return E.left(conflict('expectedRegistryDigest is not this domain\'s registry digest'))
    if (record.right.reducerDigest !== body.expectedReducerDigest) return E.left(conflict('expectedReducerDigest is not this domain\'s reducer digest'))
    const page = await loadPage(deps, record.right, body.afterHead)
    if (E.isLeft(page)) return page
    const wire = replayProjection(page.right)
    const envelope = await signEnvelope(deps, 'cairn.v124.signed_domain_replay_envelope', wire, {
      operationId, params: request.params, body, applicationId: caller.right.applicationId, audience: caller.right.applicationId,
      revocationHead: await revocationHeadOf(deps, caller.right.applicationId),
    })
    return E.right(json(envelope, { 'cache-control': 'no-store' }))
  }
  return useCase as unknown as UseCaseFor<Id>
}

/** `POST /api/sdk/v1/domains/verified-replay`. */
export const replayDomain: UseCaseFor<'replayDomain'> = replayUseCase('replayDomain')
/** `POST /api/sdk/v1/domains/verified-additions`. */
export const listDomainAdditions: UseCaseFor<'listDomainAdditions'> = replayUseCase('listDomainAdditions')

/** Pure: the immutable checkpoint through an addition (its bytes depend only on the chain up to it). */
export function checkpointProjection(record: DomainRecord, through: AdditionRecord): CheckpointProjection {
  const namespace = indexProjection(through.namespaces, through.newHead)
  const statement = {
    schema: 'cairn.v124.domain_checkpoint',
    applicationId: record.applicationId,
    domainId: record.domainId,
    registryDigest: record.registryDigest,
    reducerDigest: record.reducerDigest,
    throughHead: through.newHead,
    sequence: through.sequence,
    namespace,
  }
  const bytes = canonicalJsonBytes(statement)
  return withReceiptDigest({
    schema: 'cairn.v124.domain_checkpoint_projection' as const,
    status: 'immutable' as const,
    applicationId: record.applicationId,
    domainId: record.domainId,
    registryDigest: record.registryDigest,
    reducerDigest: record.reducerDigest,
    throughHead: through.newHead,
    cursor: String(through.sequence),
    namespace,
    exactCheckpointBytesB64u: toBase64Url(bytes),
    checkpointDigest: sha256Hex(bytes),
    authority: RUNTIME_AUTHORITY,
  })
}

/** `POST /api/sdk/v1/domains/verified-checkpoint`: the checkpoint through an exact head of the domain. */
export const checkpointDomain: UseCaseFor<'checkpointDomain'> = async (request, deps) => {
  const caller = runtimeCaller(request.principal, request.body.applicationId)
  if (E.isLeft(caller)) return caller
  const domain = { applicationId: caller.right.applicationId, domainId: request.body.domainId }
  const record = await loadDomain(deps, domain)
  if (E.isLeft(record)) return record
  const through = await additionAtHead(deps, domain, request.body.throughHead)
  if (!through || through.sequence > record.right.sequence) return E.left(conflict('throughHead is not a head of this domain'))
  // The link the Store verified when it appended: the addition's value chains its prior head to its head.
  if (headAfter(through.priorHead, through) !== through.newHead || !fromBase64Url(through.exactEventBytesB64u)) throw new Error(`Domain ${domainKeyOf(domain)} has an addition that does not chain`)
  const wire = checkpointProjection(record.right, through)
  const envelope = await signEnvelope(deps, 'cairn.v124.signed_domain_checkpoint_envelope', wire, {
    operationId: 'checkpointDomain', params: request.params, body: request.body, applicationId: caller.right.applicationId, audience: caller.right.applicationId,
    revocationHead: await revocationHeadOf(deps, caller.right.applicationId),
  })
  return E.right(json(envelope, { 'cache-control': 'no-store' }))
}
