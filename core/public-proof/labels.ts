/** Free-text labels a caller attaches to a record (creator IDs, namespaces): short, printable. */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { invalidInput, type DomainError } from '../errors/domain-error.js'

export const MAX_LABEL_LENGTH = 256

export function optionalLabel(value: unknown, field: string): Either<DomainError, string | undefined> {
  if (value === undefined || value === null) return E.right(undefined)
  if (typeof value !== 'string' || value.trim() === '') return E.left(invalidInput(`${field} must be a non-empty string`))
  if (value.length > MAX_LABEL_LENGTH || /[\u0000-\u001f\u007f]/.test(value)) {
    return E.left(invalidInput(`${field} must be at most ${MAX_LABEL_LENGTH} printable characters`))
  }
  return E.right(value)
}
