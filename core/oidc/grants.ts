/**
 * Grants and their revocation. Revoking a grant is one write, and every access and refresh token
 * it issued checks the grant, so "revoke everything" never has to find each token.
 */
import type { Write } from '../../ports/store.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import { grants } from './collections.js'
import type { GrantRecord } from './records.js'

export interface LoadedGrant {
  readonly record: GrantRecord
  readonly version: number
}

/** @example const grant = await loadGrant(deps, grantId) */
export async function loadGrant(deps: Pick<CoreDeps, 'store'>, grantId: string): Promise<LoadedGrant | undefined> {
  const doc = await grants.get(deps.store, grantId)
  return doc && { record: doc.value, version: doc.version }
}

/** Whether the access token `jti` of this grant still stands. @example accessTokenStands(grant, jti) */
export function accessTokenStands(grant: GrantRecord, jti: string): boolean {
  return grant.revokedAtMs === null && grant.revokedAccessTokens[jti] === undefined
}

/** The write that revokes a grant (nothing if it already is). @example revokeGrantWrites(grant, 'code reused', now) */
export function revokeGrantWrites(grant: LoadedGrant, reason: string, nowMs: number): Write[] {
  if (grant.record.revokedAtMs !== null) return []
  const record: GrantRecord = { ...grant.record, revokedAtMs: nowMs, revokedReason: reason, revokedAccessTokens: {} }
  return [grants.put(record.grantId, record, unchangedSince(grant.version))]
}

/**
 * The write that revokes one access token of a grant; entries of tokens already expired are
 * dropped, so the list stays as short as ten minutes of issuance.
 *
 * @example revokeAccessTokenWrites(grant, claims.jti, claims.exp, now)
 */
export function revokeAccessTokenWrites(grant: LoadedGrant, jti: string, exp: number, nowMs: number): Write[] {
  if (!accessTokenStands(grant.record, jti)) return []
  const nowSeconds = Math.floor(nowMs / 1000)
  const kept = Object.entries(grant.record.revokedAccessTokens).filter(([, expiresAt]) => expiresAt > nowSeconds)
  const record: GrantRecord = { ...grant.record, revokedAccessTokens: Object.fromEntries([...kept, [jti, exp]]) }
  return [grants.put(record.grantId, record, unchangedSince(grant.version))]
}
