/**
 * Cairn's OpenID Connect provider: Authorization Code + PKCE, rotating refresh tokens, RFC 9068
 * JWT access tokens signed in the KeyStore, userinfo, JWKS, revocation, introspection and
 * delegated agent tokens. See docs/oidc.md.
 *
 * @example
 * const useCases = { ...otherUseCases, ...oidcUseCases }
 * await deps.store.declare([...otherCollections, ...oidcCollections])
 * const grant = await verifyAccessToken(bearerToken, deps)
 */
import type { UseCaseRegistry } from '../usecases/use-case.js'
import { createAgentToken, revokeAgentToken } from './agent-tokens.js'
import { authorize } from './authorize.js'
import { getOAuthAuthorizationServerMetadata, getOpenIdConfiguration } from './discovery.js'
import { exchangeToken } from './exchange-token.js'
import { introspectToken } from './introspect-token.js'
import { getJwks } from './jwks.js'
import { revokeToken } from './revoke-token.js'
import { getUserinfo, postUserinfo } from './userinfo.js'

/**
 * The OpenID provider's 11 operations (Discovery and Identity), by operationId. The other two
 * Identity operations, ID continue and the login bootstrap, are in core/identity.
 *
 * @example const useCases = { ...identityUseCases, ...oidcUseCases }
 */
export const oidcUseCases = {
  getOpenIdConfiguration,
  getOAuthAuthorizationServerMetadata,
  authorize,
  exchangeToken,
  createAgentToken,
  revokeAgentToken,
  getUserinfo,
  postUserinfo,
  getJwks,
  revokeToken,
  introspectToken,
} as const satisfies UseCaseRegistry

export { oidcCollections } from './collections.js'
export { verifyAccessToken, type AccessGrant } from './verify-access-token.js'
export { recordConsent, type ConsentInput } from './consent.js'
export { providerMetadata } from './discovery.js'
export { LOGIN_PATH } from './authorize-redirects.js'
export { TOKEN_SIGNING_ALG } from './verification-keys.js'
