/** PKCE (RFC 7636) with the S256 method only: `plain` would let a stolen code be redeemed. */
import { createHash } from 'node:crypto'
import { sameSecret } from './secrets.js'

/** S256 challenges are BASE64URL(SHA-256(verifier)): exactly 43 characters. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/
/** RFC 7636 §4.1: 43–128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/

/** @example isS256Challenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM') // true */
export function isS256Challenge(challenge: string): boolean {
  return CHALLENGE.test(challenge)
}

/** @example isCodeVerifier('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk') // true */
export function isCodeVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier)
}

/**
 * @example s256ChallengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk') // 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'
 */
export function s256ChallengeOf(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url')
}

/** Whether `verifier` answers `challenge` (constant time). @example verifiesS256(verifier, challenge) */
export function verifiesS256(verifier: string, challenge: string): boolean {
  return isCodeVerifier(verifier) && sameSecret(s256ChallengeOf(verifier), challenge)
}
