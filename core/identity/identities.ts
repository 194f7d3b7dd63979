/**
 * Identities: who signed in with an ID proof. An identity has a username, a display name and the
 * public keys bound to it; it never carries proof authority (spec: identity sits beneath public
 * verification). Stored in the `identities` collection, keyed by user id, unique by username.
 */
import * as t from 'io-ts'
import type { CollectionSpec, Json } from '../../ports/store.js'
import { nullableString, typedCollection } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'

export const IDENTITIES = 'identities'

/** A public key bound to an identity by a verified ID proof. `publicKeyRawB64u`: 32 bytes (Ed25519) or the 65-byte uncompressed P-256 point. */
const BoundKeyCodec = t.readonly(t.type({ keyId: t.string, alg: t.keyof({ EdDSA: null, ES256: null }), publicKeyRawB64u: t.string, boundAt: t.string }))
export type BoundKey = t.TypeOf<typeof BoundKeyCodec>

/** `username` is lowercase and unique; `localUid` the SDK's local identifier of the identity (CairnIdContinueRequest.localUid). */
const IdentityRecordCodec = t.readonly(t.type({
  userId: t.string, username: t.string, displayName: t.string, email: nullableString, localUid: t.string,
  keys: t.readonlyArray(BoundKeyCodec), createdAt: t.string, updatedAt: t.string,
}))
export type IdentityRecord = t.TypeOf<typeof IdentityRecordCodec>

export const identities = typedCollection({
  name: IDENTITIES,
  uniqueKeys: [{ name: 'byUsername', field: 'username' }],
  indexes: [{ name: 'byCreatedAt', fields: ['createdAt'] }],
}, IdentityRecordCodec)
export const identitiesCollection: CollectionSpec = identities.spec

export async function getIdentity(deps: Pick<CoreDeps, 'store'>, userId: string): Promise<{ record: IdentityRecord; version: number } | undefined> {
  const doc = await identities.get(deps.store, userId)
  return doc && { record: doc.value, version: doc.version }
}

export async function getIdentityByUsername(deps: Pick<CoreDeps, 'store'>, username: string): Promise<{ record: IdentityRecord; version: number } | undefined> {
  const doc = await deps.store.getByUnique(IDENTITIES, 'byUsername', username.toLowerCase())
  return doc && { record: identities.decode(doc), version: doc.version }
}

/** The record as a Store value. */
export function identityValue(record: IdentityRecord): Json {
  return IdentityRecordCodec.encode(record)
}

/** Business tier comes from the deployment configuration, by username. */
export function isBusinessTier(deps: Pick<CoreDeps, 'config'>, username: string): boolean {
  return (deps.config.deployment.businessAccounts ?? []).some((name) => name.toLowerCase() === username.toLowerCase())
}
