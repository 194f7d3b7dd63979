/**
 * What the sweeper may delete, and from when: each kind of record becomes deletable only when
 * keeping it can no longer change any answer (docs/decisions.md: retention). Every rule reads an
 * index in order, so the deletable records are found first.
 */
import { RATE_LIMIT_COUNTERS } from '../rate-limit/fixed-window.js'
import type { CollectionSpec, Json } from '../../ports/store.js'
import { ID_PROOF_CHALLENGES } from '../identity/id-proof-challenges.js'
import { LINK_CODES } from '../identity/link-codes.js'
import { SESSIONS } from '../identity/sessions.js'
import { ID_PROOF_MAX_SKEW_MS } from '../identity/verify-id-proof.js'
import { DPOP_PROOFS } from '../auth/dpop.js'
import { AUTHORIZATION_CODES, GRANTS, PUSHED_REQUESTS, REFRESH_TOKENS } from '../oidc/collections.js'
import { ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS } from '../oidc/lifetimes.js'
import { AUTHORITY_SESSIONS, RECIPIENT_LOCATORS, RUNTIME_CHALLENGES } from '../runtime/runtime-collections.js'

export interface ExpiryRule {
  readonly name: string
  readonly collection: string
  readonly index: string
  /**
   * `asc`: deletable records come first; the scan stops at the first one still needed.
   * `desc`: the index also holds records never deletable (null values, which sort first), so the
   * scan goes from the newest value down and stops where the values stop being numbers.
   */
  readonly order: 'asc' | 'desc'
  /** When the record may go (ms since the epoch); undefined: never by this rule (the scan ends). */
  deletableFromMs(value: Json): number | undefined
}

const field = (value: Json, name: string): Json | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, Json>)[name] : undefined)
const timeOf = (text: Json | undefined): number | undefined => (typeof text === 'string' && !Number.isNaN(Date.parse(text)) ? Date.parse(text) : undefined)
const numberOf = (n: Json | undefined): number | undefined => (typeof n === 'number' ? n : undefined)
const plus = (base: number | undefined, ms: number): number | undefined => (base === undefined ? undefined : base + ms)

/** Records that carry their own `expiresAtMs`, indexed `byExpiresAt`: deletable from that moment. */
const expiresAtRule = (name: string, collection: string): ExpiryRule => ({
  name,
  collection,
  index: 'byExpiresAt',
  order: 'asc',
  deletableFromMs: (value) => numberOf(field(value, 'expiresAtMs')),
})

export const EXPIRY_RULES: readonly ExpiryRule[] = [
  {
    // A proof is accepted only while its createdAt is within the skew of the server clock, and it
    // was used within the skew of its createdAt: after twice the skew no replay can be accepted.
    name: 'used ID-proof challenges',
    collection: ID_PROOF_CHALLENGES,
    index: 'byUsedAt',
    order: 'asc',
    deletableFromMs: (value) => plus(timeOf(field(value, 'usedAt')), 2 * ID_PROOF_MAX_SKEW_MS),
  },
  // Past its expiry a code is refused for that reason alone (RFC 6749 §4.1.2).
  expiresAtRule('authorization codes', AUTHORIZATION_CODES),
  // A rotated refresh token is kept for reuse detection until it would have expired anyway.
  expiresAtRule('refresh tokens', REFRESH_TOKENS),
  {
    // Once revoked, a grant issues nothing; its last refresh token expires at most a refresh
    // lifetime and its last access token an access lifetime after revocation.
    name: 'revoked grants',
    collection: GRANTS,
    index: 'byRevokedAt',
    order: 'desc',
    deletableFromMs: (value) => plus(numberOf(field(value, 'revokedAtMs')), (REFRESH_TOKEN_SECONDS + ACCESS_TOKEN_SECONDS) * 1000),
  },
  {
    // An expired session is refused for that reason alone; an ended one goes when it expires.
    name: 'expired sessions',
    collection: SESSIONS,
    index: 'byExpiresAt',
    order: 'asc',
    deletableFromMs: (value) => timeOf(field(value, 'expiresAt')),
  },
  // A pushed authorization request (RFC 9126) is refused once its request_uri expired.
  expiresAtRule('pushed authorization requests', PUSHED_REQUESTS),
  // A DPoP proof's jti is remembered only while its iat window could still accept a replay.
  expiresAtRule('DPoP proof identifiers', DPOP_PROOFS),
  // A rate-limit counter counts only within its window.
  expiresAtRule('rate-limit counters', RATE_LIMIT_COUNTERS),
  // A runtime challenge is refused once it expired, so its nonce need not be remembered after.
  expiresAtRule('used runtime challenges', RUNTIME_CHALLENGES),
  // An expired authority session is refused for that reason alone, closed or not.
  expiresAtRule('expired authority sessions', AUTHORITY_SESSIONS),
  // A recipient locator past its expiry cannot be redeemed, used or not.
  expiresAtRule('recipient locators', RECIPIENT_LOCATORS),
  {
    // A proof-authority grant backs one token that expires with it; afterwards it allows nothing.
    // Other grants have no expiresAtMs (null sorts first), so the scan runs from the newest down.
    name: 'expired proof-authority grants',
    collection: GRANTS,
    index: 'byExpiresAt',
    order: 'desc',
    deletableFromMs: (value) => numberOf(field(value, 'expiresAtMs')),
  },
  {
    // A used or expired link code is refused with the same message as an unknown one, so it can go
    // from its use, or its expiry if unused. Codes live 10 minutes, so a used code sorted behind a
    // live one waits at most that long for a later run.
    name: 'used or expired link codes',
    collection: LINK_CODES,
    index: 'byExpiresAt',
    order: 'asc',
    deletableFromMs: (value) => {
      const expiresAtMs = numberOf(field(value, 'expiresAtMs'))
      const usedAtMs = numberOf(field(value, 'usedAtMs'))
      return usedAtMs === undefined || expiresAtMs === undefined ? expiresAtMs : Math.min(usedAtMs, expiresAtMs)
    },
  },
]

/** The indexes the rules read, added to the collections their owners declare. */
export const retentionCollections: readonly CollectionSpec[] = [
  { name: REFRESH_TOKENS, indexes: [{ name: 'byExpiresAt', fields: ['expiresAtMs'] }] },
  { name: GRANTS, indexes: [{ name: 'byRevokedAt', fields: ['revokedAtMs'] }, { name: 'byExpiresAt', fields: ['expiresAtMs'] }] },
  { name: SESSIONS, indexes: [{ name: 'byExpiresAt', fields: ['expiresAt'] }] },
  { name: RUNTIME_CHALLENGES, indexes: [{ name: 'byExpiresAt', fields: ['expiresAtMs'] }] },
  { name: AUTHORITY_SESSIONS, indexes: [{ name: 'byExpiresAt', fields: ['expiresAtMs'] }] },
  { name: RECIPIENT_LOCATORS, indexes: [{ name: 'byExpiresAt', fields: ['expiresAtMs'] }] },
]
