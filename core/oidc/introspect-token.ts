/**
 * `POST /api/oidc/introspect` (RFC 7662) for backend trust decisions. Only confidential clients
 * may ask (a public client's `client_id` proves nothing). A token is `active` only if it is
 * valid now — signed by Cairn, unexpired, unrevoked — and the asking client may see it: it was
 * issued to that client, or the asker is a first-party client. Anything else is
 * `{ "active": false }` and nothing more (RFC 7662 §2.2).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ComponentType } from '../contract/components.js'
import { forbidden } from '../errors/domain-error.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { findClient, isConfidential } from './clients.js'
import { refreshTokens } from './collections.js'
import { loadGrant } from './grants.js'
import { NO_STORE, oauthError } from './oauth-errors.js'
import { tokenKindOf } from './presented-token.js'
import { secretKey } from './secrets.js'
import { verifyAgentToken, verifyJwtAccessToken } from './verify-access-token.js'

type Introspection = ComponentType<'OidcIntrospectionResponse'>
const INACTIVE: Introspection = { active: false }

/** @example await introspectToken({ body: { token }, principal: { kind: 'client', clientId: 'backend' }, … }, deps) */
export const introspectToken: UseCaseFor<'introspectToken'> = async (request, deps) => {
  if (request.principal.kind !== 'client') return E.left(oauthError('invalid_client', 'Introspection requires client authentication'))
  const caller = findClient(deps, request.principal.clientId)
  if (!caller || !isConfidential(caller)) {
    const description = 'Only confidential clients (with a client secret) may introspect tokens'
    return E.left({ ...forbidden(description), oauth: { code: 'unauthorized_client', description } })
  }
  const token = request.body.token
  if (!token) return E.left(oauthError('invalid_request', 'token is required'))
  const found = await introspect(token, deps)
  const visible = found.active && (found.client_id === caller.clientId || caller.firstParty === true)
  return E.right(json(visible ? found : INACTIVE, NO_STORE))
}

/**
 * What Cairn knows of a token, before asking who may see it.
 *
 * @example await introspect(accessToken, deps) // { active: true, scope, client_id, sub, … }
 */
export async function introspect(token: string, deps: CoreDeps): Promise<Introspection> {
  const iss = deps.config.baseUrl
  switch (tokenKindOf(token)) {
    case 'access': {
      const verified = await verifyJwtAccessToken(token, deps)
      if (E.isLeft(verified)) return INACTIVE
      const { claims } = verified.right
      // RFC 9449 §6.2: a bound token says so, or a resource server would take it as a bearer token.
      const binding = claims.cnf?.jkt === undefined ? { token_type: 'Bearer' } : { token_type: 'DPoP', cnf: { jkt: claims.cnf.jkt } }
      return { active: true, ...binding, scope: claims.scope, client_id: claims.client_id, sub: claims.sub, exp: claims.exp, iat: claims.iat, iss, aud: claims.aud, jti: claims.jti }
    }
    case 'agent': {
      const verified = await verifyAgentToken(token, deps)
      if (E.isLeft(verified)) return INACTIVE
      const record = verified.right
      const [exp, iat] = [Math.floor(record.expiresAtMs / 1000), Math.floor(record.createdAtMs / 1000)]
      return { active: true, token_type: 'Bearer', scope: record.scopes.join(' '), client_id: record.clientId, sub: record.userId, exp, iat, iss, jti: record.tokenId }
    }
    case 'refresh': {
      const record = (await refreshTokens.get(deps.store, secretKey(token)))?.value
      if (!record || record.rotatedAtMs !== null || record.expiresAtMs <= deps.clock.now()) return INACTIVE
      const grant = await loadGrant(deps, record.grantId)
      if (!grant || grant.record.revokedAtMs !== null) return INACTIVE
      return {
        active: true, scope: record.scopes.join(' '), client_id: record.clientId, sub: record.userId, exp: Math.floor(record.expiresAtMs / 1000), iat: Math.floor(record.issuedAtMs / 1000), iss,
        ...(record.dpopJkt === undefined ? {} : { cnf: { jkt: record.dpopJkt } }),
      }
    }
  }
}
