/**
 * Who is calling the runtime: an application is an OAuth client, so a runtime request acts for the
 * access token's `client_id` and its scopes, never for an application it names in a body — and only
 * when the token may act as that client (`actsAsClient`): the client obtained it itself, or it is an
 * agent token of a client whose configuration admits them (docs/runtime.md, "Who is the application").
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Principal } from '../auth/principal.js'
import { forbidden, unauthenticated, type DomainError } from '../errors/domain-error.js'
import { quoteInput } from '../errors/quote-input.js'

/** The calling application, as its access token establishes it. */
export interface RuntimeCaller {
  readonly applicationId: string
  readonly subject: string
  readonly scopes: readonly string[]
}

/** `V124ApplicationId`: the client ids the runtime can act for (they travel as URL path segments). */
const APPLICATION_ID = /^[a-z0-9](?:[a-z0-9._-]{0,126}[a-z0-9])?$/

/**
 * The caller, refusing a token whose client cannot be a runtime application or a body naming
 * another application than the token's.
 *
 * @example runtimeCaller(principal, request.body.applicationId)
 */
export function runtimeCaller(principal: Principal, namedApplicationId?: string): Either<DomainError, RuntimeCaller> {
  if (principal.kind !== 'bearer') return E.left(unauthenticated('The runtime requires a bearer access token'))
  if (!APPLICATION_ID.test(principal.clientId)) {
    return E.left(forbidden('This access token was issued to a client whose id is not a runtime application id (lowercase slug or reverse-DNS)'))
  }
  if (principal.actsAsClient !== true) {
    return E.left(forbidden(`This access token was not obtained by ${quoteInput(principal.clientId)} itself (an agent token a user minted naming it), so it cannot act as that application`))
  }
  if (namedApplicationId !== undefined && namedApplicationId !== principal.clientId) {
    return E.left(forbidden('applicationId must be the application the access token was issued to'))
  }
  return E.right({ applicationId: principal.clientId, subject: principal.subject, scopes: principal.scopes })
}
