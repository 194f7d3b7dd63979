/**
 * Token, revocation and introspection refusals in the RFC 6749 §5.2 shape: over HTTP the body is
 * `{ ok: false, error: "invalid_grant", error_description: "The authorization code has expired" }`
 * — Cairn's error shape with the bare code where OAuth clients read it. In-process the message
 * still opens with the code (`invalid_grant: …`). 400 for every code except `invalid_client`,
 * which is 401 (RFC 6749 §5.2).
 */
import { invalidInput, unauthenticated, type DomainError } from '../errors/domain-error.js'

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope'

/** @example oauthError('invalid_grant', 'The authorization code has expired') */
export function oauthError(code: OAuthErrorCode, sentence: string): DomainError {
  const message = `${code}: ${sentence}`
  const oauth = { code, description: sentence }
  return { ...(code === 'invalid_client' ? unauthenticated(message) : invalidInput(message)), oauth }
}

/** Token responses must never be cached (RFC 6749 §5.1). */
export const NO_STORE: Readonly<Record<string, string>> = { 'cache-control': 'no-store', pragma: 'no-cache' }
