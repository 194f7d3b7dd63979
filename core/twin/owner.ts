/** Whose Twin: the user behind the bearer token (Connect Twin operations are Bearer only). */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Principal } from '../auth/principal.js'
import { unauthenticated, type DomainError } from '../errors/domain-error.js'

export function twinOwnerOf(principal: Principal): Either<DomainError, { readonly userId: string; readonly businessTier: boolean }> {
  if (principal.kind === 'bearer') return E.right({ userId: principal.subject, businessTier: principal.businessTier })
  if (principal.kind === 'session') return E.right({ userId: principal.userId, businessTier: principal.businessTier })
  return E.left(unauthenticated('Twin operations need an access token of the Twin\'s owner'))
}
