/** The user a value operation acts for: the bearer token's subject (Connect and runtime routes). */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Principal } from '../auth/principal.js'
import { unauthenticated, type DomainError } from '../errors/domain-error.js'

export function actingUserId(principal: Principal): Either<DomainError, string> {
  if (principal.kind === 'bearer') return E.right(principal.subject)
  if (principal.kind === 'session') return E.right(principal.userId)
  return E.left(unauthenticated('This operation acts for a signed-in user'))
}
