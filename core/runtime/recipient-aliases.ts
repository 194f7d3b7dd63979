/**
 * Consented public recipient aliases. A person consents to being findable by publishing, under an
 * authority session, a sealed source that defines the namespace `public-recipient`:
 * `{ alias, display, purposes, encryptionKeyJwk }` — the alias others may resolve, the label shown,
 * the purposes a resolution may name, and the P-256 ECDH public key locators are encrypted to when
 * this person resolves someone. A later publication replaces the alias; one without `alias`
 * withdraws it.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { fromBase64Url } from '../encoding/base64url.js'
import { typedCollection } from '../usecases/typed-collection.js'
import { recipientAliasesSpec } from './runtime-collections.js'

export const PUBLIC_RECIPIENT_NAMESPACE = 'public-recipient'

const RecipientKeyJwkCodec = t.readonly(t.type({ kty: t.literal('EC'), crv: t.literal('P-256'), x: t.string, y: t.string }))
export type RecipientKeyJwk = t.TypeOf<typeof RecipientKeyJwkCodec>

/** What one subject consented to, as stored (keyed by alias); `head` is the subject head of the publication that consented. */
const RecipientAliasRecordCodec = t.readonly(t.type({
  alias: t.string, subjectId: t.string, display: t.string, purposes: t.readonlyArray(t.string), encryptionKeyJwk: RecipientKeyJwkCodec, consentedAtMs: t.number, head: t.string,
}))
export type RecipientAliasRecord = t.TypeOf<typeof RecipientAliasRecordCodec>

export const recipientAliases = typedCollection(recipientAliasesSpec, RecipientAliasRecordCodec)

const ALIAS = /^[a-z0-9][a-z0-9._-]{0,63}$/
const PURPOSE = /^[a-z][a-z0-9._-]{0,127}$/
const COORDINATE = /^[A-Za-z0-9_-]{43}$/

/** The consent a `public-recipient` namespace value states: an alias to publish, a withdrawal (`undefined`), or why it is malformed. */
export function parseRecipientConsent(value: unknown): Either<string, Omit<RecipientAliasRecord, 'subjectId' | 'consentedAtMs' | 'head'> | undefined> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return E.left('the public-recipient namespace must be a JSON object')
  const v = value as Record<string, unknown>
  if (v.alias === undefined) return E.right(undefined)
  if (typeof v.alias !== 'string' || !ALIAS.test(v.alias)) return E.left('public-recipient alias must be 1-64 lowercase letters, digits, . _ - starting with a letter or digit')
  if (typeof v.display !== 'string' || v.display.trim() === '' || v.display.length > 128) return E.left('public-recipient display must be a label of 1-128 characters')
  if (!Array.isArray(v.purposes) || v.purposes.length === 0 || !v.purposes.every((p) => typeof p === 'string' && PURPOSE.test(p))) {
    return E.left('public-recipient purposes must be a non-empty list of lowercase purpose names')
  }
  const jwk = v.encryptionKeyJwk as Record<string, unknown> | undefined
  if (!jwk || jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string' || !COORDINATE.test(jwk.x) || !COORDINATE.test(jwk.y) || 'd' in jwk) {
    return E.left('public-recipient encryptionKeyJwk must be a public EC P-256 JWK (kty, crv, x, y; no private member)')
  }
  if (fromBase64Url(jwk.x) === undefined || fromBase64Url(jwk.y) === undefined) return E.left('public-recipient encryptionKeyJwk coordinates must be base64url')
  return E.right({
    alias: v.alias, display: v.display, purposes: [...new Set(v.purposes as string[])],
    encryptionKeyJwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y },
  })
}
