/**
 * Signed partner feeds: a partner signs the RFC 8785 canonical JSON of
 * `{ schema, issuedAt, sequence, records }` with a key listed for it in the deployment
 * configuration (`partners`), in JWS form (64-byte Ed25519 signatures for EdDSA, raw r‖s for
 * ES256), base64url in `signature.sig`. `issuedAt` and `sequence` make each signed feed fresh once
 * (partner-freshness.ts).
 */
import { createPublicKey, verify } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { PartnerConfig } from '../config/deployment-config.js'
import type { ComponentType } from '../contract/components.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import { fromBase64Url } from '../encoding/base64url.js'

export type AppStateFeed = ComponentType<'CairnAppStateFeed'>

/** The exact bytes a partner signs (a signed feed carries both freshness fields: publish-feed.ts checks first). */
export function feedSigningBytes(feed: Pick<AppStateFeed, 'schema' | 'records' | 'issuedAt' | 'sequence'>): Uint8Array {
  return canonicalJsonBytes({ schema: feed.schema, issuedAt: feed.issuedAt ?? null, sequence: feed.sequence ?? null, records: feed.records })
}

/**
 * The partner whose configured key signed `feed`, or why the signature is refused.
 *
 * @example verifyPartnerFeed(feed, deployment.partners ?? []) // right(partner)
 */
export function verifyPartnerFeed(feed: AppStateFeed, partners: readonly PartnerConfig[]): Either<string, PartnerConfig> {
  const signature = feed.signature
  if (!signature) return E.left('The feed is not signed')
  if (signature.alg !== 'EdDSA' && signature.alg !== 'ES256') return E.left(`Feed signature algorithm ${signature.alg} is not supported (EdDSA or ES256)`)
  const candidates = signature.partnerId === undefined ? partners : partners.filter((partner) => partner.partnerId === signature.partnerId)
  const matches = candidates.flatMap((partner) => partner.keys.filter((key) => key.kid === signature.kid).map((key) => ({ partner, key })))
  if (matches.length === 0) return E.left(`No partner key ${signature.kid}${signature.partnerId === undefined ? '' : ` for partner ${signature.partnerId}`} is configured`)
  if (matches.length > 1) return E.left(`Key ${signature.kid} belongs to more than one partner; name the partner in signature.partnerId`)
  const { partner, key } = matches[0]!
  const expectedCurve = signature.alg === 'EdDSA' ? 'Ed25519' : 'P-256'
  if (key.crv !== expectedCurve || (key.alg !== undefined && key.alg !== signature.alg)) return E.left(`Partner key ${key.kid} is not an ${signature.alg} key`)
  const sig = fromBase64Url(signature.sig)
  if (!sig || sig.length !== 64) return E.left('The feed signature is malformed')
  try {
    const publicKey = createPublicKey({ key: { kty: key.kty, crv: key.crv, x: key.x, ...(key.y === undefined ? {} : { y: key.y }) }, format: 'jwk' })
    const message = feedSigningBytes(feed)
    const valid = signature.alg === 'EdDSA' ? verify(null, message, publicKey, sig) : verify('sha256', message, { key: publicKey, dsaEncoding: 'ieee-p1363' }, sig)
    return valid ? E.right(partner) : E.left(`The feed signature does not verify with partner key ${key.kid}`)
  } catch {
    return E.left(`Partner key ${key.kid} is not a valid public key`)
  }
}
