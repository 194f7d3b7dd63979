/**
 * Unbinding a key from an account: the way back from a lost or stolen device. Like binding, it
 * needs a fresh sign-in (fresh-sign-in.ts) — here by a key other than the one being removed is not
 * required, only a recent proof by some bound key. The last key is never removed: an account
 * without keys could never be signed in to again. Identity, key owner and the ledger event commit
 * together.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Principal } from '../auth/principal.js'
import { conflict, forbidden, notFound, unauthenticated, type DomainError } from '../errors/domain-error.js'
import { commitWithActions } from '../ledger/action-ledger.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { FRESH_SIGN_IN_REQUIRED, isFreshSignIn } from './fresh-sign-in.js'
import { getIdentity, identities } from './identities.js'
import { identityKeys } from './identity-keys.js'

export interface UnbindKeyResult {
  readonly keyId: string
  readonly remainingKeyIds: readonly string[]
}

/** @example await unbindKey(deps, sessionPrincipal, 'kPrK_…') // right({ keyId, remainingKeyIds }) */
export async function unbindKey(deps: CoreDeps, principal: Principal, keyId: string): Promise<Either<DomainError, UnbindKeyResult>> {
  if (principal.kind !== 'session') return E.left(unauthenticated('Unbinding a key requires a signed-in session'))
  const now = deps.clock.now()
  if (!isFreshSignIn(principal, now)) return E.left(forbidden(FRESH_SIGN_IN_REQUIRED))
  const identity = await getIdentity(deps, principal.userId)
  if (!identity || !identity.record.keys.some((key) => key.keyId === keyId)) return E.left(notFound(`No key ${keyId} is bound to this account`))
  const remaining = identity.record.keys.filter((key) => key.keyId !== keyId)
  if (remaining.length === 0) return E.left(conflict('The last key of an account cannot be unbound; bind another key first'))
  const updated = { ...identity.record, keys: remaining, updatedAt: new Date(now).toISOString() }
  const outcome = await commitWithActions(
    deps,
    [
      identities.put(updated.userId, updated, unchangedSince(identity.version)),
      { kind: 'delete', collection: identityKeys.name, key: keyId, expect: { kind: 'any' } },
    ],
    [{ kind: 'identity_key', action: 'key_unbound', actorUserId: principal.userId }],
  )
  if (!outcome.ok) return E.left(conflict('The account changed while unbinding the key; try again'))
  return E.right({ keyId, remainingKeyIds: remaining.map((key) => key.keyId) })
}
