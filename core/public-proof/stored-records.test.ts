/**
 * Public proof records are a typed collection: what observing writes is stored in the shape it
 * always had and reads back decoded; a stored record its codec refuses is reported by the lookups
 * as a corrupt stored document (CorruptDocumentError naming the record and field).
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { memoryDeps } from '../../hosts/http/describe-env.js'
import { ANONYMOUS } from '../auth/principal.js'
import { collections } from '../usecases/collections.js'
import { CorruptDocumentError } from '../usecases/typed-collection.js'
import type { UseCase } from '../usecases/use-case.js'
import { publicProofUseCases } from './index.js'
import { observe, observedRecord } from './observe.js'
import { PUBLIC_PROOF_RECORDS, publicProofRecords } from './records.js'

async function freshDeps() {
  const deps = memoryDeps()
  await deps.store.declare(collections)
  return deps
}
const lookUp = (deps: Awaited<ReturnType<typeof freshDeps>>, id: string) =>
  (publicProofUseCases.getPublicProof as unknown as UseCase)({ params: { id }, query: {}, body: undefined, principal: ANONYMOUS }, deps)

describe('stored public proof records', () => {
  it('are stored as observing built them, bookkeeping included, and read back decoded', async () => {
    const deps = await freshDeps()
    const observed = await observe(deps, { url: 'https://shop.example/items/1', externalCreatorId: 'maker-1' })
    if (E.isLeft(observed)) throw new Error(observed.left.message)
    const id = observed.right.record.id!
    const expected = observedRecord({ url: 'https://shop.example/items/1', host: 'shop.example', externalCreatorId: 'maker-1' }, deps.clock.now())
    expect((await deps.store.get(PUBLIC_PROOF_RECORDS, id))!.value).toEqual(expected)
    expect((await publicProofRecords.get(deps.store, id))?.value).toEqual(expected)
  })

  it('that the codec refuses are a corrupt stored document to the lookups', async () => {
    const deps = await freshDeps()
    const id = 'pp_corrupt'
    const corrupt = { id, kind: 'observed', state: 'observed', sourceUrl: 'https://shop.example/', namespace: 'shop.example', createdAt: 'yesterday', publisher: 'observer' }
    await deps.store.commit([{ kind: 'put', collection: PUBLIC_PROOF_RECORDS, key: id, value: corrupt, expect: { kind: 'absent' } }])
    const found = lookUp(deps, id)
    await expect(found).rejects.toBeInstanceOf(CorruptDocumentError)
    await expect(found).rejects.toThrow(`Stored document ${PUBLIC_PROOF_RECORDS}/${id} does not match its codec at createdAt, contentDigest`)
  })
})
