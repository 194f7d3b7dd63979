/** Whose webhooks: the Business account behind the session or the access token. */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Principal } from '../auth/principal.js'
import { unauthenticated, type DomainError } from '../errors/domain-error.js'

/** @example webhookOwner(request.principal) // right('usr_…') */
export function webhookOwner(principal: Principal): Either<DomainError, string> {
  if (principal.kind === 'session') return E.right(principal.userId)
  if (principal.kind === 'bearer') return E.right(principal.subject)
  return E.left(unauthenticated('Webhook management requires a Business-tier session or access token'))
}
