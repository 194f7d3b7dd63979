/**
 * Consent: which scopes a user allowed a third-party client. First-party clients never ask.
 * Cairn has no consent screen of its own: the embedding application shows one (it learns what to
 * ask from the authorize answer `consent_required`) and records the user's yes with
 * `recordConsent` through the library; the browser then repeats the authorization request.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { sha256Hex } from '../digest/sha256.js'
import { invalidInput, notFound, type DomainError } from '../errors/domain-error.js'
import { getIdentity, isBusinessTier } from '../identity/identities.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { findClient } from './clients.js'
import { consents } from './collections.js'
import { authEvent, commitDecision, nothingToWrite } from './decision.js'
import type { ConsentRecord } from './records.js'
import { isSubset, refusedScopes, unknownScopes } from './scopes.js'

/** The Store key of a user's consent to a client. @example consentKey('usr_1', 'web') */
export function consentKey(userId: string, clientId: string): string {
  return sha256Hex(JSON.stringify([userId, clientId]))
}

/** Whether the user has consented to every one of `scopes` for `clientId`. @example await hasConsent(deps, userId, clientId, ['openid']) */
export async function hasConsent(deps: Pick<CoreDeps, 'store'>, userId: string, clientId: string, scopes: readonly string[]): Promise<boolean> {
  const doc = await consents.get(deps.store, consentKey(userId, clientId))
  return doc !== undefined && isSubset(scopes, doc.value.scopes)
}

export interface ConsentInput {
  readonly userId: string
  readonly clientId: string
  readonly scopes: readonly string[]
}

/**
 * Record that `userId` allows `clientId` the `scopes` (added to what was allowed before), with a
 * `consent_recorded` event in the action ledger. Call it only after the user said yes.
 *
 * @example
 * await recordConsent(deps, { userId: session.userId, clientId: 'partner', scopes: ['openid', 'cairn:record'] })
 */
export async function recordConsent(deps: CoreDeps, input: ConsentInput): Promise<Either<DomainError, ConsentRecord>> {
  const client = findClient(deps, input.clientId)
  if (!client) return E.left(notFound(`No client ${input.clientId} is registered`))
  const unknown = unknownScopes(input.scopes)
  if (unknown.length > 0 || input.scopes.length === 0) return E.left(invalidInput(`Consent needs known scopes; unknown: ${unknown.join(' ') || '(none given)'}`))
  const identity = await getIdentity(deps, input.userId)
  if (!identity) return E.left(notFound(`No account ${input.userId} exists`))
  const refused = refusedScopes(input.scopes, client, { businessTier: isBusinessTier(deps, identity.record.username) })
  if (refused.length > 0) return E.left(invalidInput(`The client may not be granted: ${refused.join(' ')}`))
  return commitDecision(deps, async () => {
    const key = consentKey(input.userId, input.clientId)
    const prior = await consents.get(deps.store, key)
    const priorScopes = prior ? prior.value.scopes : []
    const record: ConsentRecord = { userId: input.userId, clientId: input.clientId, scopes: [...new Set([...priorScopes, ...input.scopes])], grantedAtMs: deps.clock.now() }
    if (prior && isSubset(input.scopes, priorScopes)) return nothingToWrite(E.right(prior.value))
    return {
      writes: [consents.put(key, record, unchangedSince(prior?.version ?? null))],
      actions: [authEvent('consent_recorded', input.userId)],
      answer: E.right(record),
    }
  })
}
