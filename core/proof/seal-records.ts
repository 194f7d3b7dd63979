/** The registry of seals: one document per seal, keyed by its code, found by slug or payload digest. */
import * as t from 'io-ts'
import type { CollectionSpec, Write } from '../../ports/store.js'
import { nullableString, typedCollection } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { ProofSignature, ProofStatement, SealKind } from './format.js'
import { AssetManifestCodec } from './asset-manifest.js'

export const PROOF_SEALS = 'proof-seals'

/**
 * A seal as stored. `sha256` is the payload's (the original bytes). `manifest`, the owner's
 * CairnAssetManifest (SDK asset seals only), came after the first seals were stored: optional, so
 * those still decode.
 */
const SealRecordCodec = t.readonly(t.intersection([
  t.type({
    code: t.string, slug: t.string, sha256: t.string, statementSha256: t.string, sealKind: SealKind, ownerUserId: nullableString,
    createdAtMs: t.number, statement: ProofStatement, signatures: t.readonlyArray(ProofSignature),
  }),
  t.partial({ manifest: AssetManifestCodec }),
]))
export type SealRecord = t.TypeOf<typeof SealRecordCodec>

export const proofSeals = typedCollection({
  name: PROOF_SEALS,
  uniqueKeys: [{ name: 'bySlug', field: 'slug' }],
  indexes: [{ name: 'bySha256', fields: ['sha256', 'createdAtMs'] }, { name: 'byStatement', fields: ['statementSha256'] }],
}, SealRecordCodec)

export const proofCollections: readonly CollectionSpec[] = [proofSeals.spec]

export function sealRecordWrite(record: SealRecord): Write {
  return proofSeals.put(record.code, record, { kind: 'absent' })
}

export async function sealByCode(deps: Pick<CoreDeps, 'store'>, code: string): Promise<SealRecord | undefined> {
  return (await proofSeals.get(deps.store, code))?.value
}

export async function sealBySlug(deps: Pick<CoreDeps, 'store'>, slug: string): Promise<SealRecord | undefined> {
  const document = await deps.store.getByUnique(PROOF_SEALS, 'bySlug', slug)
  return document ? proofSeals.decode(document) : undefined
}

/** The newest seals of a payload digest (at most `limit`). */
export async function sealsBySha256(deps: Pick<CoreDeps, 'store'>, sha256: string, limit = 20): Promise<SealRecord[]> {
  const page = await deps.store.query(PROOF_SEALS, { index: 'bySha256', equals: [sha256], limit, order: 'desc' })
  return page.items.map(proofSeals.decode)
}
