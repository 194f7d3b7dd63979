/**
 * The authentication boundary every operation passes through: it turns credentials into a
 * principal for the operation's auth class and checks its scopes, or refuses.
 */
import type { Either } from 'fp-ts/lib/Either.js'
import type { DomainError } from '../errors/domain-error.js'
import type { AuthClass } from '../contract/operation.js'
import type { Credentials } from './credentials.js'
import type { Principal } from './principal.js'

export interface Authenticator {
  authenticate(auth: AuthClass, scopes: readonly string[], credentials: Credentials): Promise<Either<DomainError, Principal>>
}
