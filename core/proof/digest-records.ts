/**
 * Connect records: a digest recorded on a user's behalf (no bytes travel, nothing is sealed).
 * The record, its action-ledger `record` event and its log leaf are one commit.
 */
import * as t from 'io-ts'
import type { CollectionSpec, Write } from '../../ports/store.js'
import { nullableNumber, nullableString, typedCollection } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'

export const PROOF_RECORDS = 'proof-records'
export const RECORD_LEAF_KIND = 'cairn.record'

/** `clientId`: the OAuth client that recorded the digest on the owner's behalf. */
const DigestRecordCodec = t.readonly(t.type({
  code: t.string, sha256: t.string, byteLength: nullableNumber, filename: nullableString, mimeType: nullableString,
  ownerUserId: t.string, clientId: t.string, createdAtMs: t.number, verifyUrl: t.string,
}))
export type DigestRecord = t.TypeOf<typeof DigestRecordCodec>

const proofRecords = typedCollection({ name: PROOF_RECORDS, indexes: [{ name: 'bySha256', fields: ['sha256', 'createdAtMs'] }] }, DigestRecordCodec)
export const digestRecordCollections: readonly CollectionSpec[] = [proofRecords.spec]

export function digestRecordWrite(record: DigestRecord): Write {
  return proofRecords.put(record.code, record, { kind: 'absent' })
}

export async function recordByCode(deps: Pick<CoreDeps, 'store'>, code: string): Promise<DigestRecord | undefined> {
  return (await proofRecords.get(deps.store, code))?.value
}

export async function recordsBySha256(deps: Pick<CoreDeps, 'store'>, sha256: string, limit = 20): Promise<DigestRecord[]> {
  const page = await deps.store.query(PROOF_RECORDS, { index: 'bySha256', equals: [sha256], limit, order: 'desc' })
  return page.items.map(proofRecords.decode)
}
