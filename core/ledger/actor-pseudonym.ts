/**
 * Public-ledger pseudonyms: HMAC-SHA-256 of the user id under a server secret, so the `sub` every
 * relying party receives (the user id) cannot be hashed into the pseudonym by anyone else.
 *
 * The secret is kept with the signing keys without a new store of secrets: it is the SHA-256 of
 * the current Ed25519 key's signature over a fixed label. Ed25519 signatures are deterministic
 * (RFC 8032), so every host sharing the keys derives the same secret, and nobody without the
 * private key can. Rotating the Ed25519 key starts new pseudonyms (docs/decisions.md).
 */
import { createHash, createHmac } from 'node:crypto'
import type { KeyStore } from '../../ports/key-store.js'

const LABEL = new TextEncoder().encode('cairn.action-ledger.pseudonym-key.v1')

const secrets = new WeakMap<KeyStore, { kid: string; secret: Buffer }>()

/** The HMAC key for pseudonyms, derived once per KeyStore and Ed25519 key. @example await pseudonymSecret(deps.keys) */
export async function pseudonymSecret(keys: KeyStore): Promise<Buffer> {
  const key = await keys.current('EdDSA')
  const known = secrets.get(keys)
  if (known?.kid === key.kid) return known.secret
  const secret = createHash('sha256').update(await key.sign(LABEL)).digest()
  secrets.set(keys, { kid: key.kid, secret })
  return secret
}

/**
 * A stable pseudonym for `userId` under `secret`; `cairn` for the service itself.
 *
 * @example actorPseudonym(await pseudonymSecret(deps.keys), userId) // 'actor_…' (24 hex)
 */
export function actorPseudonym(secret: Uint8Array, userId: string | null): string {
  if (userId === null) return 'cairn'
  return `actor_${createHmac('sha256', secret).update(`cairn.action-ledger.actor:${userId}`).digest('hex').slice(0, 24)}`
}
