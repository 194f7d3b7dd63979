/**
 * The public proof lookups: by canonical URL, by ID, and pages of a creator's or a namespace's
 * records, newest first.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Json, Store, StoredDocument } from '../../ports/store.js'
import { invalidInput, notFound } from '../errors/domain-error.js'
import type { UseCase } from '../usecases/use-case.js'
import { json } from '../usecases/use-case.js'
import { canonicalSourceUrl } from './canonical-url.js'
import { observedRecordId, PUBLIC_PROOF_RECORDS, publicRecordOf, type StoredPublicProof } from './records.js'

type StoredJson = StoredPublicProof & { readonly [key: string]: Json }

export function getStoredRecord(store: Store, id: string): Promise<StoredDocument<StoredJson> | undefined> {
  return store.get<StoredJson>(PUBLIC_PROOF_RECORDS, id)
}

/** By URL: the observation of that URL if there is one, else the newest published record for it. */
export const getPublicProofByUrl: UseCase = async (request, deps) => {
  const { url } = request.query as { url: string }
  const canonical = canonicalSourceUrl(url)
  if (E.isLeft(canonical)) return E.left(invalidInput(canonical.left))
  const observed = await getStoredRecord(deps.store, observedRecordId(canonical.right.url))
  if (observed) return E.right(json({ ok: true, record: publicRecordOf(observed.value) }))
  const newest = await deps.store.query<StoredJson>(PUBLIC_PROOF_RECORDS, { index: 'byUrl', equals: [canonical.right.url], order: 'desc', limit: 1 })
  const found = newest.items[0]
  return E.right(json({ ok: true, record: found ? publicRecordOf(found.value) : null }))
}

export const getPublicProof: UseCase = async (request, deps) => {
  const id = request.params.id ?? ''
  const found = await getStoredRecord(deps.store, id)
  return found ? E.right(json({ ok: true, record: publicRecordOf(found.value) })) : E.left(notFound(`No public proof record ${id}`))
}

function pageBy(index: 'byCreator' | 'byNamespace', param: string): UseCase {
  return async (request, deps) => {
    const value = request.params[param] ?? ''
    const { cursor, limit } = request.query as { cursor?: string; limit?: number }
    try {
      const page = await deps.store.query<StoredJson>(PUBLIC_PROOF_RECORDS, {
        index,
        equals: [value],
        order: 'desc',
        limit: limit ?? 50,
        ...(cursor === undefined ? {} : { after: cursor }),
      })
      return E.right(json({ ok: true, records: page.items.map((item) => publicRecordOf(item.value)), nextCursor: page.nextCursor }))
    } catch (error) {
      if (error instanceof RangeError) return E.left(invalidInput('cursor is not a cursor of this listing'))
      throw error
    }
  }
}

export const listPublicProofsByCreator = pageBy('byCreator', 'externalCreatorId')
export const listPublicProofsByNamespace = pageBy('byNamespace', 'namespace')
