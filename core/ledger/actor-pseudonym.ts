/**
 * Public-ledger pseudonyms: HMAC-SHA-256 of the user id under a server secret, so the `sub` every
 * relying party receives (the user id) cannot be hashed into the pseudonym by anyone else.
 *
 * The secret is kept with the signing keys (digest/derived-secret.ts); rotating the Ed25519 key
 * starts new pseudonyms (docs/decisions.md).
 */
import { createHmac } from 'node:crypto'
import { memoUnderKey } from '../digest/bounded-memo.js'
import { derivedSecret } from '../digest/derived-secret.js'
import type { KeyStore } from '../../ports/key-store.js'

/** The HMAC key for pseudonyms (digest/derived-secret.ts). @example await pseudonymSecret(deps.keys) */
export async function pseudonymSecret(keys: KeyStore): Promise<Buffer> {
  return derivedSecret(keys, 'cairn.action-ledger.pseudonym-key.v1')
}

/**
 * A stable pseudonym for `userId` under `secret`; `cairn` for the service itself.
 *
 * @example actorPseudonym(await pseudonymSecret(deps.keys), userId) // 'actor_…' (24 hex)
 */
export function actorPseudonym(secret: Uint8Array, userId: string | null): string {
  return userId === null ? 'cairn' : rememberedPseudonym(secret, userId)
}

/** The HMAC of a busy actor is computed once, not on every event. */
const rememberedPseudonym = memoUnderKey(10_000, (secret, userId) =>
  `actor_${createHmac('sha256', secret).update(`cairn.action-ledger.actor:${userId}`).digest('hex').slice(0, 24)}`)
