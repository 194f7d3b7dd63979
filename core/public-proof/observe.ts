/**
 * `POST /api/public-proof/observe`: a metadata-only trail for a public URL. The work is never
 * fetched or hosted; the record says only that someone pointed at this URL at this time. Observing
 * the same canonical URL again answers the first record with `created: false`.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { conflict, invalidInput, type DomainError } from '../errors/domain-error.js'
import { commitWithLeaves } from '../tlog/sequence.js'
import type { CoreDeps, UseCaseFor } from '../usecases/use-case.js'
import { json } from '../usecases/use-case.js'
import { canonicalSourceUrl } from './canonical-url.js'
import { observedRecordId, publicProofLeaf, publicProofRecords, publicRecordOf, type PublicProofRecord, type StoredPublicProof } from './records.js'
import { optionalLabel } from './labels.js'
import { sha256OfJson } from '../digest/sha256.js'

interface ObserveInput {
  readonly url: string
  readonly host: string
  readonly externalCreatorId?: string
  readonly namespace?: string
}

/** Reads `url` (or `sourceUrl`), and the optional `externalCreatorId` and `namespace`. */
export function decodeObserveRequest(body: unknown): Either<DomainError, ObserveInput> {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  const raw = fields.url ?? fields.sourceUrl
  if (typeof raw !== 'string' || raw === '') return E.left(invalidInput('url is required: the public http(s) URL to observe'))
  const canonical = canonicalSourceUrl(raw)
  if (E.isLeft(canonical)) return E.left(invalidInput(canonical.left))
  const externalCreatorId = optionalLabel(fields.externalCreatorId, 'externalCreatorId')
  if (E.isLeft(externalCreatorId)) return externalCreatorId
  const namespace = optionalLabel(fields.namespace, 'namespace')
  if (E.isLeft(namespace)) return namespace
  return E.right({
    url: canonical.right.url,
    host: canonical.right.host,
    ...(externalCreatorId.right === undefined ? {} : { externalCreatorId: externalCreatorId.right }),
    ...(namespace.right === undefined ? {} : { namespace: namespace.right }),
  })
}

/** The new record (pure). The namespace defaults to the URL's host. */
export function observedRecord(input: ObserveInput, nowMs: number): StoredPublicProof {
  const at = new Date(nowMs).toISOString()
  const record: PublicProofRecord = {
    id: observedRecordId(input.url),
    kind: 'observed',
    state: 'observed',
    sourceUrl: input.url,
    namespace: input.namespace ?? input.host,
    ...(input.externalCreatorId === undefined ? {} : { externalCreatorId: input.externalCreatorId }),
    createdAt: at,
    updatedAt: at,
  }
  return { ...record, publisher: 'observer', contentDigest: sha256OfJson({ sourceUrl: input.url }) }
}

export async function observe(deps: CoreDeps, body: unknown): Promise<Either<DomainError, { readonly record: PublicProofRecord; readonly created: boolean }>> {
  const input = decodeObserveRequest(body)
  if (E.isLeft(input)) return input
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await publicProofRecords.get(deps.store, observedRecordId(input.right.url))
    if (existing) return E.right({ record: publicRecordOf(existing.value), created: false })
    const stored = observedRecord(input.right, deps.clock.now())
    const record = publicRecordOf(stored)
    const { outcome } = await commitWithLeaves(
      deps,
      [publicProofRecords.put(stored.id!, stored, { kind: 'absent' })],
      [publicProofLeaf(record)],
      { actions: [{ kind: 'record', action: 'public_proof_observed', actorUserId: null }] },
    )
    if (outcome.ok) return E.right({ record, created: true })
    // Lost a race with another observer of the same URL: answer theirs.
  }
  return E.left(conflict('The URL was being observed concurrently; try again'))
}

export const observePublicProof: UseCaseFor<'observePublicProof'> = async (request, deps) => {
  const result = await observe(deps, request.body)
  return E.isLeft(result) ? result : E.right(json({ ok: true as const, record: result.right.record, created: result.right.created }))
}
