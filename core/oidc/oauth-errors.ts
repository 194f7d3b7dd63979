/**
 * Token, revocation and introspection refusals: the RFC 6749 §5.2 error code opens the sentence
 * (`invalid_grant: The authorization code has expired`) inside Cairn's `{ ok: false, error }`
 * body, so OAuth clients that read `error` still find the standard code first. 400 for every code
 * except `invalid_client`, which is 401 (RFC 6749 §5.2).
 */
import { invalidInput, unauthenticated, type DomainError } from '../errors/domain-error.js'

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope'

/** @example oauthError('invalid_grant', 'The authorization code has expired') */
export function oauthError(code: OAuthErrorCode, sentence: string): DomainError {
  const message = `${code}: ${sentence}`
  return code === 'invalid_client' ? unauthenticated(message) : invalidInput(message)
}

/** Token responses must never be cached (RFC 6749 §5.1). */
export const NO_STORE: Readonly<Record<string, string>> = { 'cache-control': 'no-store', pragma: 'no-cache' }
