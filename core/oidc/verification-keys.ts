/**
 * Public keys that verify Cairn's tokens, imported once per KeyStore and kept by `kid`. An
 * unknown `kid` reloads the KeyStore's JWKS — at most once per REFRESH_INTERVAL_MS, so tokens
 * with made-up key ids cannot turn every request into a key-store read. Keys this process signs
 * with are remembered at signing time, so a rotation here never waits for a reload.
 */
import { importJWK } from 'jose'
import type { KeyStore, PublicJwk, SigningAlgorithm } from '../../ports/key-store.js'
import type { CoreDeps } from '../usecases/use-case.js'

/** The one algorithm Cairn signs tokens with; only it is accepted (docs/oidc.md). */
export const TOKEN_SIGNING_ALG: SigningAlgorithm = 'ES256'

export const REFRESH_INTERVAL_MS = 5_000

interface KeyCache {
  byKid: Map<string, CryptoKey>
  refreshedAtMs: number | undefined
  refreshing: Promise<void> | undefined
}

const caches = new WeakMap<KeyStore, KeyCache>()

function cacheOf(keys: KeyStore): KeyCache {
  let cache = caches.get(keys)
  if (!cache) caches.set(keys, (cache = { byKid: new Map(), refreshedAtMs: undefined, refreshing: undefined }))
  return cache
}

async function imported(jwk: PublicJwk): Promise<CryptoKey> {
  return (await importJWK({ ...jwk }, jwk.alg)) as CryptoKey
}

/**
 * The verification key for `kid`, or undefined when the KeyStore has no such token-signing key.
 *
 * @example const key = await verificationKey(deps, header.kid)
 */
export async function verificationKey(deps: Pick<CoreDeps, 'keys' | 'clock'>, kid: string): Promise<CryptoKey | undefined> {
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
  const { keys: published } = await keys.jwks()
  const next = new Map<string, CryptoKey>()
  for (const jwk of published) {
    if (jwk.alg !== TOKEN_SIGNING_ALG) continue
    next.set(jwk.kid, cache.byKid.get(jwk.kid) ?? (await imported(jwk)))
  }
  cache.byKid = next
  cache.refreshedAtMs = now
}

/** Remember a key this process signs with. @example await rememberSigningKey(deps.keys, key.publicJwk) */
export async function rememberSigningKey(keys: KeyStore, jwk: PublicJwk): Promise<void> {
  const cache = cacheOf(keys)
  if (jwk.alg === TOKEN_SIGNING_ALG && !cache.byKid.has(jwk.kid)) cache.byKid.set(jwk.kid, await imported(jwk))
}
