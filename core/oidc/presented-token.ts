/**
 * What kind of token a client presents to revocation or introspection. Cairn's tokens say what
 * they are — refresh tokens start `cairn_rt_`, agent tokens `cairn_at_`, access tokens are JWTs —
 * so every kind is found in one look whatever the `token_type_hint` (RFC 7009 §2.1 allows
 * searching beyond the hint; RFC 7662 §2.1 makes it advisory).
 */
import { AGENT_TOKEN_PREFIX, REFRESH_TOKEN_PREFIX } from './secrets.js'

export type TokenKind = 'refresh' | 'agent' | 'access'

/** @example tokenKindOf('cairn_rt_…') // 'refresh' */
export function tokenKindOf(token: string): TokenKind {
  if (token.startsWith(REFRESH_TOKEN_PREFIX)) return 'refresh'
  if (token.startsWith(AGENT_TOKEN_PREFIX)) return 'agent'
  return 'access'
}
