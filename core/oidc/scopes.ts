/**
 * Scope rules: which scopes exist (core/contract/scopes.ts), which a client may ask for, and
 * which a user may grant (`cairn:production` only from a Business-tier account).
 */
import type { OAuthClientConfig } from '../config/deployment-config.js'
import { SCOPES } from '../contract/scopes.js'

export const KNOWN_SCOPES: readonly string[] = Object.keys(SCOPES)
const KNOWN = new Set(KNOWN_SCOPES)

/** Space-separated scopes (RFC 6749 §3.3), each once, in the order given. @example parseScopes('openid  profile') // ['openid', 'profile'] */
export function parseScopes(text: string | undefined): string[] {
  return [...new Set((text ?? '').split(' ').filter((scope) => scope !== ''))]
}

/** The scopes Cairn does not know. @example unknownScopes(['openid', 'x']) // ['x'] */
export function unknownScopes(scopes: readonly string[]): string[] {
  return scopes.filter((scope) => !KNOWN.has(scope))
}

/**
 * The scopes `client` may not carry, or the user may not grant.
 *
 * @example refusedScopes(['cairn:production'], client, { businessTier: false }) // ['cairn:production']
 */
export function refusedScopes(scopes: readonly string[], client: OAuthClientConfig | undefined, user: { readonly businessTier: boolean }): string[] {
  const allowed = client?.allowedScopes ? new Set<string>(client.allowedScopes) : undefined
  return scopes.filter((scope) => (allowed !== undefined && !allowed.has(scope)) || (scope === 'cairn:production' && !user.businessTier))
}

/** @example isSubset(['a'], ['a', 'b']) // true */
export function isSubset(scopes: readonly string[], of: readonly string[]): boolean {
  const within = new Set(of)
  return scopes.every((scope) => within.has(scope))
}
