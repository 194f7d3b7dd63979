/**
 * The public proof lookups: by canonical URL, by ID, and pages of a creator's or a namespace's
 * records, newest first.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Store } from '../../ports/store.js'
import { invalidInput, notFound } from '../errors/domain-error.js'
import type { UseCaseFor } from '../usecases/use-case.js'
import { json } from '../usecases/use-case.js'
import { canonicalSourceUrl } from './canonical-url.js'
import { observedRecordId, PUBLIC_PROOF_RECORDS, publicProofRecords, publicRecordOf } from './records.js'

/** By URL: the observation of that URL if there is one, else the newest published record for it. */
export const getPublicProofByUrl: UseCaseFor<'getPublicProofByUrl'> = async (request, deps) => {
  const { url } = request.query
  const canonical = canonicalSourceUrl(url)
  if (E.isLeft(canonical)) return E.left(invalidInput(canonical.left))
  const observed = await publicProofRecords.get(deps.store, observedRecordId(canonical.right.url))
  if (observed) return E.right(json({ ok: true as const, record: publicRecordOf(observed.value) }))
  const newest = await deps.store.query(PUBLIC_PROOF_RECORDS, { index: 'byUrl', equals: [canonical.right.url], order: 'desc', limit: 1 })
  const found = newest.items[0]
  return E.right(json({ ok: true as const, record: found ? publicRecordOf(publicProofRecords.decode(found)) : null }))
}

export const getPublicProof: UseCaseFor<'getPublicProof'> = async (request, deps) => {
  const id = request.params.id ?? ''
  const found = await publicProofRecords.get(deps.store, id)
  return found ? E.right(json({ ok: true as const, record: publicRecordOf(found.value) })) : E.left(notFound(`No public proof record ${id}`))
}

/** A page of records sharing `value` on `index`, newest first. */
async function listPage(store: Store, index: 'byCreator' | 'byNamespace', value: string, query: { readonly cursor?: string; readonly limit?: number }) {
  try {
    const page = await store.query(PUBLIC_PROOF_RECORDS, {
      index,
      equals: [value],
      order: 'desc',
      limit: query.limit ?? 50,
      ...(query.cursor === undefined ? {} : { after: query.cursor }),
    })
    return E.right(json({ ok: true as const, records: page.items.map((item) => publicRecordOf(publicProofRecords.decode(item))), nextCursor: page.nextCursor }))
  } catch (error) {
    if (error instanceof RangeError) return E.left(invalidInput('cursor is not a cursor of this listing'))
    throw error
  }
}

export const listPublicProofsByCreator: UseCaseFor<'listPublicProofsByCreator'> = (request, deps) =>
  listPage(deps.store, 'byCreator', request.params.externalCreatorId, request.query)
export const listPublicProofsByNamespace: UseCaseFor<'listPublicProofsByNamespace'> = (request, deps) =>
  listPage(deps.store, 'byNamespace', request.params.namespace, request.query)
