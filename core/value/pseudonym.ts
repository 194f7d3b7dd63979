/**
 * Pseudonyms of the public wallet ledger: HMAC-SHA-256 of the user id under a secret that only this
 * deployment holds. Stable per user, and not reversible (nor linkable to a user id someone knows)
 * without the secret, which is created once from the Entropy port and kept in the Store.
 */
import { createHmac } from 'node:crypto'
import type { CollectionSpec, Store } from '../../ports/store.js'
import { memoUnderKey } from '../digest/bounded-memo.js'
import { fromBase64Url, toBase64Url } from '../encoding/base64url.js'
import type { CoreDeps } from '../usecases/use-case.js'

export const VALUE_SECRETS = 'value.secrets'
export const valueSecretsCollection: CollectionSpec = { name: VALUE_SECRETS }

const PSEUDONYM_KEY = 'wallet-ledger-pseudonym-key'

/** Secrets never change once written, so one read per Store suffices. */
const cache = new WeakMap<Store, Uint8Array>()

/** The deployment's pseudonym key, created on first use (a lost creation race reads the winner's). */
export async function pseudonymKey(deps: Pick<CoreDeps, 'store' | 'entropy'>): Promise<Uint8Array> {
  const cached = cache.get(deps.store)
  if (cached) return cached
  for (;;) {
    const doc = await deps.store.get<{ keyB64u: string }>(VALUE_SECRETS, PSEUDONYM_KEY)
    if (doc) {
      const key = fromBase64Url(doc.value.keyB64u)!
      cache.set(deps.store, key)
      return key
    }
    const keyB64u = toBase64Url(deps.entropy.bytes(32))
    await deps.store.commit([{ kind: 'put', collection: VALUE_SECRETS, key: PSEUDONYM_KEY, value: { keyB64u }, expect: { kind: 'absent' } }])
  }
}

/**
 * @example walletPseudonym(key, 'usr_…') // 'wal_Q2xq…' (stable for this deployment)
 */
export function walletPseudonym(key: Uint8Array, userId: string | null): string {
  return userId === null ? 'cairn' : rememberedPseudonym(key, userId)
}

/** The HMAC of a busy wallet is computed once, not on every event. */
const rememberedPseudonym = memoUnderKey(10_000, (key, userId) =>
  `wal_${createHmac('sha256', key).update(`cairn.wallet-ledger.actor:${userId}`).digest('base64url').slice(0, 24)}`)
