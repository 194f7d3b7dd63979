/**
 * Usernames: the public, unique handle of an identity (world profiles, login bootstrap). One
 * spelling per person: ASCII, compared lowercase, so `Ada` and `ada` are the same account.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { invalidInput, type DomainError } from '../errors/domain-error.js'

/** 3–32 characters: letters, digits, `.`, `_`, `-`; starting and ending with a letter or digit. */
const USERNAME = /^[a-z0-9](?:[a-z0-9._-]{1,30})[a-z0-9]$/

/**
 * The stored (lowercase) form of a username, or why it is not one. Nothing is trimmed: the
 * username is signed as sent, so a silently changed value would not be what the person signed.
 *
 * @example normaliseUsername('Ada.Lovelace') // right('ada.lovelace')
 */
export function normaliseUsername(username: string): Either<DomainError, string> {
  const lower = username.toLowerCase()
  return USERNAME.test(lower) && /^[\x21-\x7e]+$/.test(username)
    ? E.right(lower)
    : E.left(invalidInput('username must be 3 to 32 letters, digits, ".", "_" or "-", starting and ending with a letter or digit'))
}
