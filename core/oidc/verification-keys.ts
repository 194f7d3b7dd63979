/**
 * Public keys that verify Cairn's tokens, imported once per KeyStore and kept by `kid`. An
 * unknown `kid` reloads the KeyStore's JWKS — at most once per REFRESH_INTERVAL_MS, so tokens
 * with made-up key ids cannot turn every request into a key-store read. Keys this process signs
 * with are remembered at signing time, so a rotation here never waits for a reload.
 */
import { importJWK } from 'jose'
import type { KeyStore, PublicJwk, SigningAlgorithm } from '../../ports/key-store.js'
import type { CoreDeps } from '../usecases/use-case.js'

/** The default token algorithm (docs/oidc.md). */
export const TOKEN_SIGNING_ALG: TokenSigningAlg = 'ES256'
/** Every algorithm Cairn signs tokens with; a token is verified only with its kid's key and that key's alg. */
export const TOKEN_SIGNING_ALGS: readonly SigningAlgorithm[] = ['ES256', 'RS256']
export type TokenSigningAlg = 'ES256' | 'RS256'

export const REFRESH_INTERVAL_MS = 5_000

interface KeyCache {
  byKid: Map<string, VerificationKey>
  refreshedAtMs: number | undefined
  refreshing: Promise<void> | undefined
}

const caches = new WeakMap<KeyStore, KeyCache>()

function cacheOf(keys: KeyStore): KeyCache {
  let cache = caches.get(keys)
  if (!cache) caches.set(keys, (cache = { byKid: new Map(), refreshedAtMs: undefined, refreshing: undefined }))
  return cache
}

/** A token key and the one algorithm it verifies (no algorithm confusion: the JWK's alg decides). */
export interface VerificationKey {
  readonly key: CryptoKey
  readonly alg: SigningAlgorithm
}

async function imported(jwk: PublicJwk): Promise<VerificationKey> {
  return { key: (await importJWK({ ...jwk }, jwk.alg)) as CryptoKey, alg: jwk.alg }
}

/**
 * The verification key for `kid`, or undefined when the KeyStore has no such token-signing key.
 *
 * @example const key = await verificationKey(deps, header.kid)
 */
export async function verificationKey(deps: Pick<CoreDeps, 'keys' | 'clock'>, kid: string): Promise<VerificationKey | undefined> {
  const cache = cacheOf(deps.keys)
  const known = cache.byKid.get(kid)
  if (known) return known
  const now = deps.clock.now()
  if (cache.refreshedAtMs !== undefined && Math.abs(now - cache.refreshedAtMs) < REFRESH_INTERVAL_MS) return undefined
  cache.refreshing ??= reload(deps.keys, cache, now).finally(() => (cache.refreshing = undefined))
  await cache.refreshing
  return cache.byKid.get(kid)
}

async function reload(keys: KeyStore, cache: KeyCache, now: number): Promise<void> {
  const { keys: published } = await keys.jwks('token')
  const next = new Map<string, VerificationKey>()
  for (const jwk of published) {
    if (!TOKEN_SIGNING_ALGS.includes(jwk.alg)) continue
    next.set(jwk.kid, cache.byKid.get(jwk.kid) ?? (await imported(jwk)))
  }
  cache.byKid = next
  cache.refreshedAtMs = now
}

/** Remember a key this process signs with. @example await rememberSigningKey(deps.keys, key.publicJwk) */
export async function rememberSigningKey(keys: KeyStore, jwk: PublicJwk): Promise<void> {
  const cache = cacheOf(keys)
  if (TOKEN_SIGNING_ALGS.includes(jwk.alg) && !cache.byKid.has(jwk.kid)) cache.byKid.set(jwk.kid, await imported(jwk))
}
