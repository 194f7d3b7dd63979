/**
 * Connect records: a digest recorded on a user's behalf (no bytes travel, nothing is sealed).
 * The record, its action-ledger `record` event and its log leaf are one commit.
 */
import type { CollectionSpec, Json, Write } from '../../ports/store.js'
import type { CoreDeps } from '../usecases/use-case.js'

export const PROOF_RECORDS = 'proof-records'
export const RECORD_LEAF_KIND = 'cairn.record'

export const digestRecordCollections: readonly CollectionSpec[] = [{ name: PROOF_RECORDS, indexes: [{ name: 'bySha256', fields: ['sha256', 'createdAtMs'] }] }]

export interface DigestRecord {
  readonly code: string
  readonly sha256: string
  readonly byteLength: number | null
  readonly filename: string | null
  readonly mimeType: string | null
  readonly ownerUserId: string
  /** The OAuth client that recorded it on the owner's behalf. */
  readonly clientId: string
  readonly createdAtMs: number
  readonly verifyUrl: string
}

export function digestRecordWrite(record: DigestRecord): Write {
  return { kind: 'put', collection: PROOF_RECORDS, key: record.code, value: record as unknown as Json, expect: { kind: 'absent' } }
}

export async function recordByCode(deps: Pick<CoreDeps, 'store'>, code: string): Promise<DigestRecord | undefined> {
  return (await deps.store.get(PROOF_RECORDS, code))?.value as DigestRecord | undefined
}

export async function recordsBySha256(deps: Pick<CoreDeps, 'store'>, sha256: string, limit = 20): Promise<DigestRecord[]> {
  const page = await deps.store.query(PROOF_RECORDS, { index: 'bySha256', equals: [sha256], limit, order: 'desc' })
  return page.items.map((doc) => doc.value as unknown as DigestRecord)
}
