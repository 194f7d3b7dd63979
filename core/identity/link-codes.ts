/**
 * The way back to an account from a browser that holds none of its keys: a signed-in device makes
 * a one-time link code (ten characters, Crockford base32, about 50 bits; valid 10 minutes), the
 * person types it on the new browser's sign-in page, and that browser's new key is bound in the same
 * commit that uses the code up. Making a code needs a fresh sign-in (fresh-sign-in.ts), as binding
 * a key from a session does: a stolen cookie alone cannot let its thief's key in. Only the code's
 * SHA-256 is stored.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Principal } from '../auth/principal.js'
import * as t from 'io-ts'
import type { CollectionSpec, Write } from '../../ports/store.js'
import { sha256Hex } from '../digest/sha256.js'
import { conflict, forbidden, unauthenticated, type DomainError } from '../errors/domain-error.js'
import { nullableNumber, typedCollection, unchangedSince } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { FRESH_SIGN_IN_REQUIRED, isFreshSignIn } from './fresh-sign-in.js'

export const LINK_CODES = 'identity.link_codes'

export const LINK_CODE_LIFETIME_MS = 10 * 60 * 1000
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

const LinkCodeRecordCodec = t.readonly(t.type({ userId: t.string, createdAtMs: t.number, expiresAtMs: t.number, usedAtMs: nullableNumber }))
export type LinkCodeRecord = t.TypeOf<typeof LinkCodeRecordCodec>

export const linkCodes = typedCollection({ name: LINK_CODES, indexes: [{ name: 'byExpiresAt', fields: ['expiresAtMs'] }] }, LinkCodeRecordCodec)
export const linkCodesCollection: CollectionSpec = linkCodes.spec

export const LINK_CODE_REFUSED = 'That link code is wrong, used or expired; make a new one on a device where you are signed in (Account → Link a new browser)'

/** `ABCDE-FGHJK` → the stored key: SHA-256 of the ten characters, upper case, without separators. */
const keyOf = (code: string) => sha256Hex(code.toUpperCase().replace(/[^0-9A-Z]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1'))

/** @example await issueLinkCode(deps, sessionPrincipal) // right({ code: '7QK2M-XW9PA', expiresAt }) */
export async function issueLinkCode(deps: Pick<CoreDeps, 'store' | 'clock' | 'entropy'>, caller: Principal): Promise<Either<DomainError, { code: string; expiresAt: string }>> {
  if (caller.kind !== 'session') return E.left(unauthenticated('Making a link code needs a signed-in session'))
  const now = deps.clock.now()
  if (!isFreshSignIn(caller, now)) return E.left(forbidden(FRESH_SIGN_IN_REQUIRED))
  const chars = [...deps.entropy.bytes(10)].map((byte) => ALPHABET[byte % 32]).join('')
  const record: LinkCodeRecord = { userId: caller.userId, createdAtMs: now, expiresAtMs: now + LINK_CODE_LIFETIME_MS, usedAtMs: null }
  const outcome = await deps.store.commit([linkCodes.put(keyOf(chars), record, { kind: 'absent' })])
  if (!outcome.ok) return E.left(conflict('A link code could not be made; try again'))
  return E.right({ code: `${chars.slice(0, 5)}-${chars.slice(5)}`, expiresAt: new Date(record.expiresAtMs).toISOString() })
}

/** A code that is still usable now, with the write that uses it up. */
export interface UsableLinkCode {
  readonly userId: string
  consume(nowMs: number): Write
}

export async function usableLinkCode(deps: Pick<CoreDeps, 'store' | 'clock'>, code: string): Promise<Either<DomainError, UsableLinkCode>> {
  const key = keyOf(code)
  const doc = await linkCodes.get(deps.store, key)
  const record = doc?.value
  if (!doc || !record || record.usedAtMs !== null || record.expiresAtMs <= deps.clock.now()) return E.left(unauthenticated(LINK_CODE_REFUSED))
  return E.right({
    userId: record.userId,
    consume: (nowMs) => linkCodes.put(key, { ...record, usedAtMs: nowMs }, unchangedSince(doc.version)),
  })
}
