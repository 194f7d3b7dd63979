/**
 * `GET|POST /api/oidc/userinfo` (OpenID Connect Core §5.3): claims by the token's scopes — `sub`
 * always, `preferred_username`, `name` and `updated_at` with `profile`. The boundary has already
 * checked the token and its `openid` scope.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ComponentType } from '../contract/components.js'
import { unauthenticated } from '../errors/domain-error.js'
import { getIdentity } from '../identity/identities.js'
import { json, type CoreDeps, type RequestOf, type UseCaseFor } from '../usecases/use-case.js'
import { NO_STORE } from './oauth-errors.js'

/** @example await getUserinfo({ principal: { kind: 'bearer', subject, scopes: ['openid'], … }, … }, deps) */
export const getUserinfo = async (request: RequestOf<'getUserinfo' | 'postUserinfo'>, deps: CoreDeps) => {
  const { principal } = request
  if (principal.kind !== 'bearer') return E.left(unauthenticated('This operation requires a bearer access token'))
  const identity = await getIdentity(deps, principal.subject)
  if (!identity) return E.left(unauthenticated('The account behind this access token no longer exists'))
  const claims: ComponentType<'OidcUserinfoResponse'> = { sub: identity.record.userId }
  if (principal.scopes.includes('profile')) {
    claims.preferred_username = identity.record.username
    claims.name = identity.record.displayName
    const updatedAtMs = Date.parse(identity.record.updatedAt)
    if (Number.isFinite(updatedAtMs)) claims.updated_at = Math.floor(updatedAtMs / 1000)
  }
  return E.right(json(claims, NO_STORE))
}

/** `POST /api/oidc/userinfo`: the same claims (Core §5.3.1 allows both methods). @example await postUserinfo(request, deps) */
export const postUserinfo: UseCaseFor<'postUserinfo'> = getUserinfo
