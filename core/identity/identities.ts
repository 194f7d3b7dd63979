/**
 * Identities: who signed in with an ID proof. An identity has a username, a display name and the
 * public keys bound to it; it never carries proof authority (spec: identity sits beneath public
 * verification). Stored in the `identities` collection, keyed by user id, unique by username.
 */
import type { CollectionSpec, Json } from '../../ports/store.js'
import type { CoreDeps } from '../usecases/use-case.js'

export const IDENTITIES = 'identities'

export const identitiesCollection: CollectionSpec = {
  name: IDENTITIES,
  uniqueKeys: [{ name: 'byUsername', field: 'username' }],
  indexes: [{ name: 'byCreatedAt', fields: ['createdAt'] }],
}

/** A public key bound to an identity by a verified ID proof. */
export interface BoundKey {
  readonly keyId: string
  readonly alg: 'EdDSA' | 'ES256'
  /** Raw public key, base64url: 32 bytes (Ed25519) or the 65-byte uncompressed P-256 point. */
  readonly publicKeyRawB64u: string
  readonly boundAt: string
}

export interface IdentityRecord {
  readonly userId: string
  /** Lowercase, unique. */
  readonly username: string
  readonly displayName: string
  readonly email: string | null
  /** The SDK's local identifier of the identity (CairnIdContinueRequest.localUid). */
  readonly localUid: string
  readonly keys: readonly BoundKey[]
  readonly createdAt: string
  readonly updatedAt: string
}

export async function getIdentity(deps: Pick<CoreDeps, 'store'>, userId: string): Promise<{ record: IdentityRecord; version: number } | undefined> {
  const doc = await deps.store.get(IDENTITIES, userId)
  return doc && { record: doc.value as unknown as IdentityRecord, version: doc.version }
}

export async function getIdentityByUsername(deps: Pick<CoreDeps, 'store'>, username: string): Promise<{ record: IdentityRecord; version: number } | undefined> {
  const doc = await deps.store.getByUnique(IDENTITIES, 'byUsername', username.toLowerCase())
  return doc && { record: doc.value as unknown as IdentityRecord, version: doc.version }
}

/** The record as a Store value. */
export function identityValue(record: IdentityRecord): Json {
  return record as unknown as Json
}

/** Business tier comes from the deployment configuration, by username. */
export function isBusinessTier(deps: Pick<CoreDeps, 'config'>, username: string): boolean {
  return (deps.config.deployment.businessAccounts ?? []).some((name) => name.toLowerCase() === username.toLowerCase())
}
