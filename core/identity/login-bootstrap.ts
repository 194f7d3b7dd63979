/**
 * `GET /api/connect/login/bootstrap/{username}`: what a login embed needs to start OpenID Connect
 * (Authorization Code + PKCE) for one username. Endpoint URLs come from the contract table, so
 * they are always the routes Cairn actually serves, under its base URL. An unknown username is not
 * an error (`exists: false`): the embed then offers ID continue, which creates the account, and
 * usernames are public anyway (world profiles).
 */
import * as E from 'fp-ts/lib/Either.js'
import { operationsById } from '../contract/operations/index.js'
import { SCOPES } from '../contract/scopes.js'
import { json, type UseCaseFor } from '../usecases/use-case.js'
import { getIdentityByUsername } from './identities.js'
import { normaliseUsername } from './username.js'

/**
 * The OIDC launch configuration of a deployment, in OpenID Connect Discovery member names.
 *
 * @example oidcLaunchConfiguration('https://cairn.example').token_endpoint // 'https://cairn.example/api/oidc/token'
 */
export function oidcLaunchConfiguration(baseUrl: string) {
  const endpoint = (operationId: string) => `${baseUrl}${operationsById.get(operationId)!.path}`
  return {
    issuer: baseUrl,
    authorization_endpoint: endpoint('authorize'),
    token_endpoint: endpoint('exchangeToken'),
    userinfo_endpoint: endpoint('getUserinfo'),
    jwks_uri: endpoint('getJwks'),
    discovery_uri: endpoint('getOpenIdConfiguration'),
    scopes_supported: Object.keys(SCOPES),
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
  }
}

/**
 * @example await getLoginBootstrap({ params: { username: 'Ada' }, query: {}, body: undefined, principal: ANONYMOUS }, deps)
 * // right(json({ ok: true, username: 'ada', exists: true, issuer, authorization_endpoint, … }))
 */
export const getLoginBootstrap: UseCaseFor<'getLoginBootstrap'> = async (request, deps) => {
  const username = normaliseUsername(request.params.username ?? '')
  if (E.isLeft(username)) return username
  const identity = await getIdentityByUsername(deps, username.right)
  return E.right(json({ ok: true, username: username.right, exists: identity !== undefined, ...oidcLaunchConfiguration(deps.config.baseUrl) }, { 'cache-control': 'no-store' }))
}
