/**
 * Server secrets kept with the signing keys, without a store of secrets: the SHA-256 of the current
 * Ed25519 key's signature over a purpose label. Ed25519 signatures are deterministic (RFC 8032), so
 * every host sharing the keys derives the same secret, and nobody without the private key can.
 * The proof-purpose key is used: it is never rotated on a schedule; a deliberate rotation starts new secrets.
 */
import { createHash } from 'node:crypto'
import type { KeyStore } from '../../ports/key-store.js'

const cache = new WeakMap<KeyStore, Map<string, { kid: string; secret: Buffer }>>()

/** @example const secret = await derivedSecret(deps.keys, 'cairn.consent-csrf.v1') */
export async function derivedSecret(keys: KeyStore, label: string): Promise<Buffer> {
  const key = await keys.current('EdDSA', 'proof')
  let byLabel = cache.get(keys)
  if (!byLabel) cache.set(keys, (byLabel = new Map()))
  const known = byLabel.get(label)
  if (known?.kid === key.kid) return known.secret
  const secret = createHash('sha256').update(await key.sign(new TextEncoder().encode(label))).digest()
  byLabel.set(label, { kid: key.kid, secret })
  return secret
}
