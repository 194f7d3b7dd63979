/**
 * What a browser session issued: the grants whose code was authorized by that sign-in (same user,
 * same `authTimeMs`). RP-initiated logout revokes them with the session, so signing out of Cairn
 * also ends every access and refresh token that sign-in handed to relying parties.
 */
import type { CoreDeps } from '../usecases/use-case.js'
import { GRANTS } from './collections.js'
import { authEvent, commitDecision } from './decision.js'
import { revokeGrantWrites } from './grants.js'
import type { GrantRecord } from './records.js'
import * as E from 'fp-ts/lib/Either.js'

/** @example await revokeSessionGrants(deps, principal.userId, principal.authTimeMs) // right(2) */
export async function revokeSessionGrants(deps: CoreDeps, userId: string, authTimeMs: number) {
  return commitDecision(deps, async () => {
    const page = await deps.store.query(GRANTS, { index: 'byUserClient', equals: [userId], limit: 1000 })
    const now = deps.clock.now()
    const issued = page.items.filter((doc) => {
      const grant = doc.value as unknown as GrantRecord
      return grant.authTimeMs === authTimeMs && grant.revokedAtMs === null
    })
    const writes = issued.flatMap((doc) => revokeGrantWrites({ record: doc.value as unknown as GrantRecord, version: doc.version }, 'signed out', now))
    return { writes, actions: issued.map(() => authEvent('grant_revoked', userId)), answer: E.right(issued.length) }
  })
}
