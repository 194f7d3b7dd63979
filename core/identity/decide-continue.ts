/**
 * The rule of ID continue, as a pure function of what was loaded: who holds the username, who owns
 * the key, whether the challenge was used, and who is calling.
 *
 * - new username, unowned key → create the identity with the key;
 * - the username's identity already has the key → sign in;
 * - the username exists and the key is new → bind it only for a caller already signed in to that
 *   identity, or one presenting a usable link code that identity made (link-codes.ts). Otherwise the answer is "username is taken": anyone can make a key and sign with it,
 *   so binding it without a session of the account would let anyone take over any username.
 * - a key belongs to one identity at most (identity-keys.ts).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Principal } from '../auth/principal.js'
import { conflict, forbidden, unauthenticated, type DomainError } from '../errors/domain-error.js'
import { FRESH_SIGN_IN_REQUIRED, isFreshSignIn } from './fresh-sign-in.js'
import type { BoundKey, IdentityRecord } from './identities.js'
import type { VerifiedIdProof } from './verify-id-proof.js'

export interface ContinueState {
  /** The identity holding the proof's username, with its version. */
  readonly identity: { readonly record: IdentityRecord; readonly version: number } | undefined
  /** The user id the proof's key is bound to, if any. */
  readonly keyOwner: string | undefined
  readonly challengeUsed: boolean
  readonly caller: Principal
  /** The service clock (epoch ms): binding needs a fresh sign-in (fresh-sign-in.ts). */
  readonly now: number
  /** The user whose usable link code came with the request, if one did. */
  readonly linkedUserId?: string
}

export type ContinueDecision =
  | { readonly kind: 'create'; readonly identity: IdentityRecord }
  | { readonly kind: 'sign_in'; readonly identity: IdentityRecord }
  | { readonly kind: 'bind'; readonly identity: IdentityRecord; readonly priorVersion: number; readonly byLinkCode: boolean }

/** Refusal sentences, shared by the rule and the commit's lost-race answers. */
export const USERNAME_TAKEN = 'This username is taken; sign in with a key already bound to it before binding a new key'
export const KEY_BOUND_ELSEWHERE = 'This key is already bound to another identity'
export const CHALLENGE_USED = 'This challenge was already used; sign a fresh challenge'

/**
 * @example decideContinue(state, proof, '2026-06-25T00:00:00.000Z', 'usr_…') // right({ kind: 'create', identity })
 */
export function decideContinue(state: ContinueState, proof: VerifiedIdProof, now: string, newUserId: string): Either<DomainError, ContinueDecision> {
  if (state.challengeUsed) return E.left(unauthenticated(CHALLENGE_USED))
  const key: BoundKey = { keyId: proof.keyId, alg: proof.alg, publicKeyRawB64u: proof.publicKeyRawB64u, boundAt: now }
  const existing = state.identity
  if (existing === undefined) {
    if (state.keyOwner !== undefined) return E.left(conflict(KEY_BOUND_ELSEWHERE))
    return E.right({
      kind: 'create',
      identity: {
        userId: newUserId,
        username: proof.username,
        displayName: proof.displayName,
        email: proof.email,
        localUid: proof.localUid,
        keys: [key],
        createdAt: now,
        updatedAt: now,
      },
    })
  }
  if (existing.record.keys.some((bound) => bound.keyId === proof.keyId)) return E.right({ kind: 'sign_in', identity: existing.record })
  if (state.keyOwner !== undefined) return E.left(conflict(KEY_BOUND_ELSEWHERE))
  const byLinkCode = state.linkedUserId === existing.record.userId
  const signedInHere = state.caller.kind === 'session' && state.caller.userId === existing.record.userId
  if (!signedInHere && !byLinkCode) return E.left(conflict(USERNAME_TAKEN))
  // The cookie alone is not enough: a thief holding it must not make the account theirs for good.
  if (!byLinkCode && !isFreshSignIn(state.caller, state.now)) return E.left(forbidden(FRESH_SIGN_IN_REQUIRED))
  return E.right({
    kind: 'bind',
    identity: { ...existing.record, keys: [...existing.record.keys, key], updatedAt: now },
    priorVersion: existing.version,
    byLinkCode,
  })
}
