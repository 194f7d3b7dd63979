/**
 * Which identity each public key belongs to. A key belongs to at most one identity, so a key proof
 * always names one account; the document (keyed by the keyId, expected absent when bound) makes
 * that hold even when two binds race.
 */
import * as t from 'io-ts'
import type { CollectionSpec, Write } from '../../ports/store.js'
import { typedCollection } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'

export const IDENTITY_KEYS = 'identity-keys'

const KeyOwnerRecordCodec = t.readonly(t.type({ keyId: t.string, userId: t.string, boundAt: t.string }))
export type KeyOwnerRecord = t.TypeOf<typeof KeyOwnerRecordCodec>

export const identityKeys = typedCollection({ name: IDENTITY_KEYS, indexes: [{ name: 'byUserId', fields: ['userId', 'boundAt'] }] }, KeyOwnerRecordCodec)
export const identityKeysCollection: CollectionSpec = identityKeys.spec

/** @example bindKeyOwnerWrite({ keyId, userId, boundAt }) */
export function bindKeyOwnerWrite(record: KeyOwnerRecord): Write {
  return identityKeys.put(record.keyId, record, { kind: 'absent' })
}

/** The user id the key is bound to, if any. */
export async function keyOwnerOf(deps: Pick<CoreDeps, 'store'>, keyId: string): Promise<string | undefined> {
  return (await identityKeys.get(deps.store, keyId))?.value.userId
}
