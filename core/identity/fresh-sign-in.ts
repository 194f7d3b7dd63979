/**
 * Acts that give lasting control of an account — binding a new key, minting an agent token,
 * unbinding a key — need more than the ambient session cookie: a sign-in with an already-bound key
 * within the last FRESH_SIGN_IN_MS. A stolen week-long cookie then cannot be made permanent.
 */
import type { Principal } from '../auth/principal.js'

/** 5 minutes: long enough to finish a settings page after signing in. */
export const FRESH_SIGN_IN_MS = 5 * 60 * 1000

export const FRESH_SIGN_IN_REQUIRED = 'This needs a recent sign-in: sign in again with a key already bound to the account (within the last 5 minutes), then retry'

/** @example isFreshSignIn(principal, deps.clock.now()) */
export function isFreshSignIn(principal: Principal, now: number): boolean {
  return principal.kind === 'session' && now - principal.authTimeMs <= FRESH_SIGN_IN_MS
}
