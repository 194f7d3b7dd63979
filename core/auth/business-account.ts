/** Whose Business account: the user behind the session or the access token of a Business operation. */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { unauthenticated, type DomainError } from '../errors/domain-error.js'
import type { Principal } from './principal.js'

/** @example businessAccountOf(request.principal) // right('usr_…') */
export function businessAccountOf(principal: Principal): Either<DomainError, string> {
  if (principal.kind === 'session') return E.right(principal.userId)
  if (principal.kind === 'bearer') return E.right(principal.subject)
  return E.left(unauthenticated('Production operations require a Business-tier session or access token'))
}
