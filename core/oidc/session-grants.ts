/**
 * What a browser session issued: the grants whose code was authorized by that sign-in (same user,
 * same `authTimeMs`). RP-initiated logout revokes them with the session, so signing out of Cairn
 * also ends every access and refresh token that sign-in handed to relying parties.
 */
import type { CoreDeps } from '../usecases/use-case.js'
import { grants } from './collections.js'
import { authEvent, commitDecision } from './decision.js'
import { revokeGrantWrites } from './grants.js'
import * as E from 'fp-ts/lib/Either.js'

/** @example await revokeSessionGrants(deps, principal.userId, principal.authTimeMs) // right(2) */
export async function revokeSessionGrants(deps: CoreDeps, userId: string, authTimeMs: number) {
  return commitDecision(deps, async () => {
    const page = await deps.store.query(grants.name, { index: 'byUserClient', equals: [userId], limit: 1000 })
    const now = deps.clock.now()
    const issued = page.items
      .map((doc) => ({ record: grants.decode(doc), version: doc.version }))
      .filter(({ record }) => record.authTimeMs === authTimeMs && record.revokedAtMs === null)
    const writes = issued.flatMap((grant) => revokeGrantWrites(grant, 'signed out', now))
    return { writes, actions: issued.map(() => authEvent('grant_revoked', userId)), answer: E.right(issued.length) }
  })
}
