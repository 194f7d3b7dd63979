/**
 * Which identity each public key belongs to. A key belongs to at most one identity, so a key proof
 * always names one account; the document (keyed by the keyId, expected absent when bound) makes
 * that hold even when two binds race.
 */
import type { CollectionSpec, Write } from '../../ports/store.js'
import type { CoreDeps } from '../usecases/use-case.js'

export const IDENTITY_KEYS = 'identity-keys'

export const identityKeysCollection: CollectionSpec = {
  name: IDENTITY_KEYS,
  indexes: [{ name: 'byUserId', fields: ['userId', 'boundAt'] }],
}

export interface KeyOwnerRecord {
  readonly keyId: string
  readonly userId: string
  readonly boundAt: string
}

/** @example bindKeyOwnerWrite({ keyId, userId, boundAt }) */
export function bindKeyOwnerWrite(record: KeyOwnerRecord): Write {
  return { kind: 'put', collection: IDENTITY_KEYS, key: record.keyId, value: { ...record }, expect: { kind: 'absent' } }
}

/** The user id the key is bound to, if any. */
export async function keyOwnerOf(deps: Pick<CoreDeps, 'store'>, keyId: string): Promise<string | undefined> {
  const doc = await deps.store.get(IDENTITY_KEYS, keyId)
  return doc && (doc.value as unknown as KeyOwnerRecord).userId
}
