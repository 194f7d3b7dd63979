/**
 * What a verified bearer access token grants, and the verifier the boundary is given. The OIDC
 * provider supplies the verifier (core/oidc/verify-access-token.ts); the boundary only needs its
 * shape, so it can be tested with a fake and composed by the host.
 */
import type { Either } from 'fp-ts/lib/Either.js'
import type { DomainError } from '../errors/domain-error.js'
import type { CoreDeps } from '../usecases/use-case.js'

export interface AccessGrant {
  /** The user id the token acts for. */
  readonly subject: string
  readonly clientId: string
  readonly scopes: readonly string[]
  readonly tokenId: string
  /** `cnf.jkt` of a DPoP-bound token: honoured only with a proof by that key. */
  readonly dpopJkt?: string
  /**
   * The token may act as its client (the runtime application, docs/runtime.md): the client obtained
   * it itself, or it is an agent token of a client that admits them. Absent means it may not.
   */
  readonly actsAsClient?: boolean
}

/**
 * Left when the token is malformed, unknown, expired or revoked (any such reason is a 401), or
 * `Unavailable` when it cannot be checked now (503).
 *
 * @example const verifyBearer: VerifyBearer = verifyAccessToken
 */
export type VerifyBearer = (token: string, deps: CoreDeps) => Promise<Either<DomainError, AccessGrant>>
