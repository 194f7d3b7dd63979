/**
 * JWT access tokens this process has verified, remembered by their exact text: a client sends the
 * same token with every request until it expires, and its ES256 check costs more CPU than the rest
 * of most requests — a served transfer included (bench/README.md, bench:ledger-http). Only what
 * the token's own bytes decide is remembered (signature, header, issuer and audience for this
 * deployment, the claims); the caller checks on every use what time and state change: expiry, the
 * kid's key still known, the client still registered, the grant and the token not revoked.
 */
import type { KeyStore } from '../../ports/key-store.js'
import type { AccessTokenClaims } from './access-token.js'

/** Tokens remembered per KeyStore at most; the oldest is forgotten first. */
export const MAX_REMEMBERED_TOKENS = 4096

interface Remembered {
  /** The deployment the token was verified for (issuer and audience). */
  readonly baseUrl: string
  readonly claims: AccessTokenClaims
}

const byKeyStore = new WeakMap<KeyStore, Map<string, Remembered>>()

/** The claims of `token` as verified before for `baseUrl` with these keys, if remembered. */
export function rememberedClaims(keys: KeyStore, baseUrl: string, token: string): AccessTokenClaims | undefined {
  const remembered = byKeyStore.get(keys)?.get(token)
  return remembered?.baseUrl === baseUrl ? remembered.claims : undefined
}

/** Remember `claims` as what `token` carries, verified for `baseUrl` with these keys. */
export function rememberClaims(keys: KeyStore, baseUrl: string, token: string, claims: AccessTokenClaims): void {
  let tokens = byKeyStore.get(keys)
  if (!tokens) byKeyStore.set(keys, (tokens = new Map()))
  if (tokens.size >= MAX_REMEMBERED_TOKENS) tokens.delete(tokens.keys().next().value!)
  tokens.set(token, { baseUrl, claims: Object.freeze({ ...claims }) })
}
