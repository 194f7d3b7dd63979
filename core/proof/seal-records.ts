/** The registry of seals: one document per seal, keyed by its code, found by slug or payload digest. */
import type { CollectionSpec, Json, Write } from '../../ports/store.js'
import type { CoreDeps } from '../usecases/use-case.js'
import type { ProofSignature, ProofStatement, SealKind } from './format.js'
import type { AssetManifest } from './asset-manifest.js'

export const PROOF_SEALS = 'proof-seals'

export const proofCollections: readonly CollectionSpec[] = [
  {
    name: PROOF_SEALS,
    uniqueKeys: [{ name: 'bySlug', field: 'slug' }],
    indexes: [{ name: 'bySha256', fields: ['sha256', 'createdAtMs'] }, { name: 'byStatement', fields: ['statementSha256'] }],
  },
]

export interface SealRecord {
  readonly code: string
  readonly slug: string
  /** SHA-256 of the payload (the original bytes). */
  readonly sha256: string
  readonly statementSha256: string
  readonly sealKind: SealKind
  readonly ownerUserId: string | null
  readonly createdAtMs: number
  readonly statement: ProofStatement
  readonly signatures: readonly ProofSignature[]
  /** The owner's CairnAssetManifest (SDK asset seals only). */
  readonly manifest?: AssetManifest
}

export function sealRecordWrite(record: SealRecord): Write {
  return { kind: 'put', collection: PROOF_SEALS, key: record.code, value: record as unknown as Json, expect: { kind: 'absent' } }
}

export async function sealByCode(deps: Pick<CoreDeps, 'store'>, code: string): Promise<SealRecord | undefined> {
  return (await deps.store.get(PROOF_SEALS, code))?.value as SealRecord | undefined
}

export async function sealBySlug(deps: Pick<CoreDeps, 'store'>, slug: string): Promise<SealRecord | undefined> {
  return (await deps.store.getByUnique(PROOF_SEALS, 'bySlug', slug))?.value as SealRecord | undefined
}

/** The newest seals of a payload digest (at most `limit`). */
export async function sealsBySha256(deps: Pick<CoreDeps, 'store'>, sha256: string, limit = 20): Promise<SealRecord[]> {
  const page = await deps.store.query(PROOF_SEALS, { index: 'bySha256', equals: [sha256], limit, order: 'desc' })
  return page.items.map((doc) => doc.value as unknown as SealRecord)
}
