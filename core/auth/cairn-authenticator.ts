/**
 * Cairn's authentication boundary, for every operation and auth class (docs/identity.md,
 * "The authentication boundary"):
 *
 * - None: anyone. A valid session cookie still identifies the caller (the authorize endpoint must
 *   know who is signed in); an invalid one is ignored, never an error.
 * - ProofConsent: as None, but OAuth client authentication, when sent, must hold (401 otherwise),
 *   with a DPoP proof's key as at the token endpoint: the exchange requires the application it is
 *   for to authenticate as its client, and binds its token to that key when one is proven.
 * - Session: an active session cookie, else 401.
 * - Bearer: a verified access token (401 otherwise) granting every scope the operation lists
 *   (403 naming what is missing otherwise).
 * - Client: OAuth client authentication (client-authentication.ts).
 * - Business: a bearer token (checked as Bearer) or else a session, of a Business-tier account;
 *   a valid credential of another account is 403, none or an invalid one 401.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { forbidden, unauthenticated, type DomainError } from '../errors/domain-error.js'
import { getIdentity, isBusinessTier } from '../identity/identities.js'
import { findActiveSession } from '../identity/sessions.js'
import type { CoreDeps } from '../usecases/use-case.js'
import type { VerifyBearer } from './access-grant.js'
import type { Authenticator } from './authenticator.js'
import { authenticateClient } from './client-authentication.js'
import type { Credentials } from './credentials.js'
import { dpopRefusal, verifyDpopProof } from './dpop.js'
import { ANONYMOUS, type Principal } from './principal.js'

export interface CairnAuthenticatorOptions {
  readonly deps: CoreDeps
  /** Verifies bearer access tokens (the OIDC provider's `verifyAccessToken`). */
  readonly verifyBearer: VerifyBearer
}

type SessionPrincipal = Extract<Principal, { kind: 'session' }>
type BearerPrincipal = Extract<Principal, { kind: 'bearer' }>

/**
 * @example
 * const authenticator = createCairnAuthenticator({ deps, verifyBearer: verifyAccessToken })
 * await authenticator.authenticate('Bearer', ['cairn:record'], { bearerToken }) // right({ kind: 'bearer', … })
 */
export function createCairnAuthenticator({ deps, verifyBearer }: CairnAuthenticatorOptions): Authenticator {
  const sessionOf = async (cookie: string): Promise<SessionPrincipal | undefined> => {
    const session = await findActiveSession(deps, cookie)
    const identity = session && (await getIdentity(deps, session.record.userId))
    if (session === undefined || identity === undefined) return undefined
    return {
      kind: 'session',
      userId: identity.record.userId,
      sessionId: session.record.sessionId,
      businessTier: isBusinessTier(deps, identity.record.username),
      authTimeMs: Date.parse(session.record.createdAt),
    }
  }

  const bearerOf = async (credentials: Credentials, scopes: readonly string[]): Promise<Either<DomainError, BearerPrincipal>> => {
    const token = credentials.bearerToken!
    const grant = await verifyBearer(token, deps)
    if (E.isLeft(grant)) {
      if (grant.left._tag === 'Unavailable') return grant
      // RFC 6750 §3.1: the challenge names invalid_token; a DPoP refusal keeps its own challenge.
      return E.left({ ...unauthenticated('The access token is not valid, has expired or was revoked'), bearer: grant.left.bearer ?? { error: 'invalid_token' } })
    }
    const bound = await checkDpopBinding(credentials, token, grant.right.dpopJkt)
    if (E.isLeft(bound)) return bound
    const missing = scopes.filter((scope) => !grant.right.scopes.includes(scope))
    if (missing.length > 0) {
      const refusal = forbidden(`The access token lacks the scope${missing.length > 1 ? 's' : ''} this operation requires: ${missing.join(' ')}`)
      return E.left({ ...refusal, bearer: { error: 'insufficient_scope', scope: scopes.join(' '), ...(grant.right.dpopJkt ? { scheme: 'DPoP' as const } : {}) } })
    }
    const identity = await getIdentity(deps, grant.right.subject)
    const { subject, clientId, scopes: granted, tokenId, actsAsClient } = grant.right
    return E.right({
      kind: 'bearer', subject, clientId, scopes: granted, tokenId, businessTier: identity !== undefined && isBusinessTier(deps, identity.record.username),
      ...(actsAsClient === true ? { actsAsClient } : {}),
    })
  }

  /** RFC 9449 §7: a bound token needs the `DPoP` scheme and a proof by its key; an unbound one the `Bearer` scheme. */
  const checkDpopBinding = async (credentials: Credentials, token: string, jkt: string | undefined): Promise<Either<DomainError, void>> => {
    const resource = { at: 'resource', accessToken: token } as const
    if (jkt === undefined) {
      return credentials.tokenScheme === 'DPoP' ? E.left(dpopRefusal(resource, 'invalid_token', 'This access token is not DPoP-bound; send it with the Bearer scheme')) : E.right(undefined)
    }
    if (credentials.tokenScheme !== 'DPoP' || credentials.dpop === undefined) return E.left(dpopRefusal(resource, 'invalid_token', 'This access token is DPoP-bound: send it as Authorization: DPoP with a DPoP proof'))
    const proven = await verifyDpopProof(deps, credentials.dpop, resource)
    if (E.isLeft(proven)) return proven
    return proven.right === jkt ? E.right(undefined) : E.left(dpopRefusal(resource, 'invalid_token', 'The DPoP proof is by another key than the token is bound to'))
  }

  /** Client authentication, and the DPoP key a valid proof names (token endpoint, ProofConsent exchange: tokens get bound to it). */
  const clientOf = async (credentials: Credentials): Promise<Either<DomainError, Principal>> => {
    const client = authenticateClient(deps.config.deployment, credentials.client)
    if (E.isLeft(client) || credentials.dpop?.proof === undefined || client.right.kind !== 'client') return client
    const proven = await verifyDpopProof(deps, credentials.dpop, { at: 'token' })
    return E.isLeft(proven) ? proven : E.right({ ...client.right, dpopJkt: proven.right })
  }

  const requireSession = async (cookie: string | undefined): Promise<Either<DomainError, SessionPrincipal>> => {
    if (cookie === undefined) return E.left(unauthenticated('This operation requires a signed-in session'))
    const principal = await sessionOf(cookie)
    return principal ? E.right(principal) : E.left(unauthenticated('The session is not valid, has expired or was ended'))
  }

  const requireBusiness = async (scopes: readonly string[], credentials: Parameters<Authenticator['authenticate']>[2]): Promise<Either<DomainError, Principal>> => {
    if (credentials.bearerToken === undefined && credentials.sessionCookie === undefined) {
      return E.left(unauthenticated('This operation requires a Business-tier session or access token'))
    }
    const principal = credentials.bearerToken !== undefined ? await bearerOf(credentials, scopes) : await requireSession(credentials.sessionCookie)
    if (E.isLeft(principal)) return principal
    return principal.right.businessTier ? principal : E.left(forbidden('This operation requires a Business-tier account'))
  }

  return {
    async authenticate(auth, scopes, credentials) {
      switch (auth) {
        case 'None':
          return E.right((credentials.sessionCookie !== undefined && (await sessionOf(credentials.sessionCookie))) || ANONYMOUS)
        case 'ProofConsent':
          // The application the consent is for authenticates as its client; the use case requires it.
          return credentials.client !== undefined
            ? clientOf(credentials)
            : E.right((credentials.sessionCookie !== undefined && (await sessionOf(credentials.sessionCookie))) || ANONYMOUS)
        case 'Session':
          return requireSession(credentials.sessionCookie)
        case 'Bearer':
          return credentials.bearerToken === undefined
            ? E.left(unauthenticated('This operation requires a bearer access token'))
            : bearerOf(credentials, scopes)
        case 'Client':
          return clientOf(credentials)
        case 'Business':
          return requireBusiness(scopes, credentials)
      }
    },
  }
}
