/**
 * `POST /api/sdk/v1/identity/public-recipient/resolve`: a consented public alias, for one purpose
 * the alias's owner allowed, resolves to an encrypted, purpose-bound, one-use, expiring locator —
 * a JWE (ECDH-ES on P-256, A256GCM) to the requester's own published recipient key. Privacy-safe:
 * an unknown alias, a purpose not consented, a requester without a key, a reused operation nonce
 * and a rate-limited requester all answer the same reason-free failure wire, and every resolution
 * past the rate limit does the same reads, one encryption and one commit (the nonce claim, plus
 * the locator on success), so neither the answer nor its timing shape says whether the alias exists.
 */
import * as E from 'fp-ts/lib/Either.js'
import { CompactEncrypt, importJWK, type JWK } from 'jose'
import { RUNTIME_AUTHORITY } from '../contract/schemas/runtime/authority.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import { sha256Hex, sha256OfJson } from '../digest/sha256.js'
import { toBase64Url } from '../encoding/base64url.js'
import { conflict, forbidden, type DomainError } from '../errors/domain-error.js'
import { consumeRateLimit } from '../rate-limit/fixed-window.js'
import { kaiMomentAt } from '../time/kai.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Write } from '../../ports/store.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { callerSession } from './authority-sessions.js'
import { recipientAliases, type RecipientKeyJwk } from './recipient-aliases.js'
import { recipientLocators, type LocatorRecord } from './recipient-locator-record.js'
import { revocationHeadOf } from './revocation-head.js'
import { usedChallenges } from './used-challenge-record.js'
import { signEnvelope } from './signed-envelope.js'

/** How long a locator may be redeemed: 10 minutes. */
export const LOCATOR_LIFETIME_MS = 10 * 60 * 1000
export const DEFAULT_RECIPIENT_RESOLUTIONS_PER_MINUTE = 30
/** How long an operation nonce is remembered (a nonce is refused within this time of its first use). */
export const OPERATION_NONCE_MEMORY_MS = 24 * 60 * 60 * 1000

/** The plaintext a locator carries (the JWE's payload, RFC 8785 JSON); `locatorDigest` is its SHA-256. */
export interface RecipientLocator {
  readonly schema: 'cairn.v124.recipient_locator'
  readonly locatorId: string
  readonly applicationId: string
  readonly requesterSubjectId: string
  readonly recipientSubjectId: string
  readonly normalizedAlias: string
  readonly purpose: string
  readonly operationNonce: string
  readonly expiresAtKaiUPulse: number
}

const FAILED = { schema: 'cairn.v124.public_recipient_resolution_failure_wire', status: 'failed' } as const

/** A stand-in recipient key for failures, so they encrypt as much as successes do (made once per process). */
let standIn: Promise<RecipientKeyJwk> | undefined
function standInKey(): Promise<RecipientKeyJwk> {
  standIn ??= crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']).then(async (pair) => {
    const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey)
    return { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! }
  })
  return standIn
}

const nonceKey = (applicationId: string, nonce: string): string => sha256Hex(`cairn.v124.operation_nonce:${applicationId}:${nonce}`)

/** @example await resolvePublicRecipient({ body: { applicationId, authoritySessionHandle, expectedRequesterSubjectId, normalizedAlias, purpose, operationNonce }, principal: bearer, … }, deps) */
export const resolvePublicRecipient: UseCaseFor<'resolvePublicRecipient'> = async (request, deps) => {
  const body = request.body
  const bound = await callerSession(deps, request.principal, body)
  if (E.isLeft(bound)) return bound
  const { session } = bound.right
  const held = session.record
  if (body.expectedRequesterSubjectId !== held.actorSubjectId) return E.left(conflict('expectedRequesterSubjectId is not the subject of this authority session'))
  const envelope = async (wire: unknown) => json(await signEnvelope(deps, 'cairn.v124.signed_public_recipient_resolution_envelope', wire as never, {
    operationId: 'resolvePublicRecipient', params: request.params, body: request.body, applicationId: held.applicationId, audience: held.audience,
    revocationHead: await revocationHeadOf(deps, held.applicationId),
  }), { 'cache-control': 'no-store' })

  const perMinute = deps.config.deployment.runtime?.recipientResolutionsPerMinute ?? DEFAULT_RECIPIENT_RESOLUTIONS_PER_MINUTE
  const allowed = await consumeRateLimit(deps, `runtime:recipient:${held.applicationId}:${held.actorSubjectId}`, { limit: perMinute, windowMs: 60_000 }, 'recipient resolutions')
  if (E.isLeft(allowed)) return E.right(await envelope(FAILED))

  // The same reads whatever the answer: the alias, and the requester's own recipient key.
  const [aliasDoc, requesterDocs] = await Promise.all([
    recipientAliases.get(deps.store, body.normalizedAlias),
    deps.store.query(recipientAliases.name, { index: 'bySubject', equals: [held.actorSubjectId], limit: 1 }),
  ])
  const target = aliasDoc?.value
  const requesterDoc = requesterDocs.items[0]
  const requesterKey = requesterDoc && recipientAliases.decode(requesterDoc).encryptionKeyJwk
  const resolvable = target !== undefined && target.purposes.includes(body.purpose) && requesterKey !== undefined

  const now = deps.clock.now()
  const expiresAtMs = now + LOCATOR_LIFETIME_MS
  const locator: RecipientLocator = {
    schema: 'cairn.v124.recipient_locator',
    locatorId: toBase64Url(deps.entropy.bytes(16)),
    applicationId: held.applicationId,
    requesterSubjectId: held.actorSubjectId,
    recipientSubjectId: target?.subjectId ?? '',
    normalizedAlias: body.normalizedAlias,
    purpose: body.purpose,
    operationNonce: body.operationNonce,
    expiresAtKaiUPulse: kaiMomentAt(expiresAtMs).uPulse,
  }
  const locatorDigest = sha256OfJson(locator)
  const encrypted = await encryptLocator(locator, resolvable ? requesterKey : await standInKey())
  const writes: Write[] = [
    usedChallenges.put(nonceKey(held.applicationId, body.operationNonce), {
      operation: 'resolvePublicRecipient', applicationId: held.applicationId, locatorDigest: resolvable ? locatorDigest : null, usedAtMs: now, expiresAtMs: now + OPERATION_NONCE_MEMORY_MS,
    }, { kind: 'absent' }),
  ]
  if (resolvable) {
    const record: LocatorRecord = { locatorDigest, applicationId: held.applicationId, requesterSubjectId: held.actorSubjectId, recipientSubjectId: target.subjectId, purpose: body.purpose, expiresAtMs, usedAtMs: null }
    writes.push(recipientLocators.put(locatorDigest, record, { kind: 'absent' }))
  }
  const outcome = await deps.store.commit(writes)
  if (!outcome.ok || !resolvable) return E.right(await envelope(FAILED))
  return E.right(await envelope({
    schema: 'cairn.v124.public_recipient_resolution_success_wire',
    status: 'succeeded',
    applicationId: held.applicationId,
    normalizedAlias: body.normalizedAlias,
    purpose: body.purpose,
    operationNonce: body.operationNonce,
    display: target.display,
    encryptedLocatorB64u: encrypted,
    expiresAtKaiUPulse: locator.expiresAtKaiUPulse,
    locatorDigest,
    authority: RUNTIME_AUTHORITY,
  }))
}

/** The locator as a compact JWE (ECDH-ES, A256GCM) to `key`, its UTF-8 bytes as base64url. */
async function encryptLocator(locator: RecipientLocator, key: RecipientKeyJwk): Promise<string> {
  const publicKey = await importJWK({ ...key } as JWK, 'ECDH-ES')
  const jwe = await new CompactEncrypt(canonicalJsonBytes(locator))
    .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A256GCM', cty: 'cairn.v124.recipient_locator+json' })
    .encrypt(publicKey)
  return toBase64Url(new TextEncoder().encode(jwe))
}

/**
 * Redeems a locator once, for the application, requester and purpose it was made for. A second
 * redemption, an expired locator or any other binding is refused; the redemption is one guarded write.
 *
 * @example await redeemRecipientLocator(deps, { locatorDigest, applicationId, requesterSubjectId, purpose })
 */
export async function redeemRecipientLocator(
  deps: Pick<CoreDeps, 'store' | 'clock'>,
  use: { readonly locatorDigest: string; readonly applicationId: string; readonly requesterSubjectId: string; readonly purpose: string },
): Promise<Either<DomainError, LocatorRecord>> {
  const doc = await recipientLocators.get(deps.store, use.locatorDigest)
  const record = doc?.value
  const now = deps.clock.now()
  if (!doc || !record || record.applicationId !== use.applicationId || record.requesterSubjectId !== use.requesterSubjectId || record.purpose !== use.purpose || record.expiresAtMs <= now) {
    return E.left(forbidden('The recipient locator is not valid for this use'))
  }
  if (record.usedAtMs !== null) return E.left(forbidden('The recipient locator was used already'))
  const used: LocatorRecord = { ...record, usedAtMs: now }
  const outcome = await deps.store.commit([recipientLocators.put(use.locatorDigest, used, unchangedSince(doc.version))])
  if (!outcome.ok) return E.left(forbidden('The recipient locator was used already'))
  return E.right(used)
}
