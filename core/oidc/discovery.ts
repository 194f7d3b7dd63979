/**
 * Provider metadata (OpenID Connect Discovery 1.0 §3, RFC 8414 §2), the same document at both
 * well-known paths. Every member states what the endpoints really do: a client that trusts it
 * (openid-client does) must never be surprised.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ComponentType } from '../contract/components.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { endpointsOf } from './endpoints.js'
import { DPOP_ALGS } from '../auth/dpop.js'
import { KNOWN_SCOPES } from './scopes.js'
import { TOKEN_SIGNING_ALGS } from './verification-keys.js'

/**
 * @example providerMetadata(deps).issuer // deps.config.baseUrl
 */
export function providerMetadata(deps: Pick<CoreDeps, 'config'>): ComponentType<'OidcDiscoveryMetadata'> {
  const endpoints = endpointsOf(deps)
  return {
    issuer: endpoints.issuer,
    authorization_endpoint: endpoints.authorization,
    token_endpoint: endpoints.token,
    userinfo_endpoint: endpoints.userinfo,
    jwks_uri: endpoints.jwks,
    revocation_endpoint: endpoints.revocation,
    introspection_endpoint: endpoints.introspection,
    scopes_supported: [...KNOWN_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...TOKEN_SIGNING_ALGS],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    // Introspection reveals token contents: confidential clients only.
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'amr', 'nonce', 'at_hash', 'preferred_username', 'name', 'updated_at'],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    authorization_response_iss_parameter_supported: true,
    pushed_authorization_request_endpoint: endpoints.pushedAuthorizationRequest,
    require_pushed_authorization_requests: deps.config.deployment.requirePushedAuthorizationRequests === true,
    end_session_endpoint: endpoints.endSession,
    dpop_signing_alg_values_supported: [...DPOP_ALGS],
  }
}

const serveMetadata = async (_request: unknown, deps: CoreDeps) => E.right(json(providerMetadata(deps), { 'cache-control': 'public, max-age=300' }))

/** `GET /.well-known/openid-configuration` @example await getOpenIdConfiguration(request, deps) */
export const getOpenIdConfiguration: UseCaseFor<'getOpenIdConfiguration'> = serveMetadata
/** `GET /.well-known/oauth-authorization-server` @example await getOAuthAuthorizationServerMetadata(request, deps) */
export const getOAuthAuthorizationServerMetadata: UseCaseFor<'getOAuthAuthorizationServerMetadata'> = serveMetadata
