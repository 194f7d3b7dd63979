/**
 * `POST /api/oidc/token`: the authentication boundary has authenticated the client (secret for
 * confidential clients, `client_id` for public ones); this answers by `grant_type`. Responses
 * carry `Cache-Control: no-store` (RFC 6749 §5.1).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ComponentType } from '../contract/components.js'
import { json, type UseCaseFor } from '../usecases/use-case.js'
import { decideCodeExchange } from './authorization-code-grant.js'
import { commitDecision } from './decision.js'
import { NO_STORE, oauthError } from './oauth-errors.js'
import { decideRefresh } from './refresh-token-grant.js'

/**
 * @example await exchangeToken({ body: { grant_type: 'authorization_code', code, redirect_uri, code_verifier }, principal: { kind: 'client', clientId: 'web' }, … }, deps)
 */
export const exchangeToken: UseCaseFor<'exchangeToken'> = async (request, deps) => {
  if (request.principal.kind !== 'client') return E.left(oauthError('invalid_client', 'The token endpoint requires client authentication'))
  const clientId = request.principal.clientId
  // RFC 9449: a valid DPoP proof (checked at the boundary) binds the tokens to its key.
  const dpopJkt = request.principal.dpopJkt
  const form = request.body
  const decide =
    form.grant_type === 'authorization_code' ? () => decideCodeExchange(form, clientId, deps, dpopJkt) :
    form.grant_type === 'refresh_token' ? () => decideRefresh(form, clientId, deps, dpopJkt) :
    undefined
  if (!decide) {
    return E.left(form.grant_type === undefined
      ? oauthError('invalid_request', 'grant_type is required')
      : oauthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token'))
  }
  const answer = await commitDecision<ComponentType<'OidcTokenResponse'>>(deps, decide)
  return E.isLeft(answer) ? answer : E.right(json(answer.right, NO_STORE))
}
