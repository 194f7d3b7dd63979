/**
 * Bounds on the free-text members of an identity, so a public profile stays a profile: the body
 * limit alone would allow a megabyte display name.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { invalidInput, type DomainError } from '../errors/domain-error.js'
import { isDisplayText } from '../encoding/display-text.js'

export interface ProfileFields {
  readonly displayName: string
  readonly email: string | null
  readonly localUid: string
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
/** A UTF-16 surrogate not paired: no Unicode text, and RFC 8785 canonical JSON cannot encode it. */
const LONE_SURROGATE = /\p{Surrogate}/u
const wellFormed = (text: string) => !LONE_SURROGATE.test(text)
const EMAIL = /^[^\s@]+@[^\s@]+$/

/**
 * @example checkProfileFields({ displayName: 'Ada', email: null, localUid: 'local-1' }) // right(…)
 */
export function checkProfileFields(fields: ProfileFields): Either<DomainError, ProfileFields> {
  if ([...fields.displayName].length > 128 || !isDisplayText(fields.displayName)) {
    return E.left(invalidInput('displayName must be at most 128 characters of well-formed Unicode without control, format (such as bidi overrides) or separator characters'))
  }
  if (fields.email !== null && (fields.email.length > 254 || !EMAIL.test(fields.email) || !wellFormed(fields.email))) {
    return E.left(invalidInput('email must be an email address of at most 254 characters'))
  }
  if (fields.localUid.length > 256 || CONTROL.test(fields.localUid) || !wellFormed(fields.localUid)) {
    return E.left(invalidInput('localUid must be at most 256 characters of well-formed Unicode without control characters'))
  }
  return E.right(fields)
}
