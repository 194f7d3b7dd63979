import { authorizeQuery } from './query-parameters.js'
import { form, json, operation, optionalJson } from './define.js'

export const identityOperations = [
  operation('Identity', 'continueCairnId', 'POST /api/auth/cairn-id/continue', {
    auth: 'None', request: json('CairnIdContinueRequest'), response: 'CairnIdContinueResponse',
    summary: 'Publishes ID proof for SDK-created or artifact-restored identities; signed key proof required',
  }),
  operation('Identity', 'getLoginBootstrap', 'GET /api/connect/login/bootstrap/{username}', {
    auth: 'None', response: 'CairnApiResponse', summary: 'Returns OIDC launch configuration for login embeds',
  }),
  operation('Identity', 'authorize', 'GET /api/oidc/authorize', {
    auth: 'None', query: authorizeQuery, response: 'OidcResponse',
    summary: 'Authorization Code + PKCE (S256); answers with a redirect to the client',
  }),
  operation('Identity', 'exchangeToken', 'POST /api/oidc/token', {
    auth: 'Client', request: form('OidcTokenForm'), response: 'OidcTokenResponse',
    summary: 'Code exchange and refresh token rotation',
  }),
  operation('Identity', 'createAgentToken', 'POST /api/oidc/agent-tokens', {
    auth: 'Session', request: json('OidcAgentTokenRequest'), response: 'OidcAgentTokenResponse',
    summary: 'Create scoped delegated agent token (MCP, CI, local agents); shown once; carries audit labels',
  }),
  operation('Identity', 'revokeAgentToken', 'DELETE /api/oidc/agent-tokens', {
    auth: 'Session', request: json('OidcAgentTokenRequest'), response: 'OidcAgentTokenResponse', summary: 'Revoke agent token',
  }),
  operation('Identity', 'getUserinfo', 'GET /api/oidc/userinfo', {
    auth: 'Bearer', scopes: ['openid'], request: optionalJson('GenericCairnRequest'), response: 'OidcUserinfoResponse',
    summary: 'Claims scoped by the token',
  }),
  operation('Identity', 'postUserinfo', 'POST /api/oidc/userinfo', {
    auth: 'Bearer', scopes: ['openid'], request: optionalJson('GenericCairnRequest'), response: 'OidcUserinfoResponse',
    summary: 'Claims scoped by the token',
  }),
  operation('Identity', 'getJwks', 'GET /api/oidc/jwks', {
    auth: 'None', response: 'OidcJwksResponse', summary: 'Key set for token verification (current and retired keys)',
  }),
  operation('Identity', 'revokeToken', 'POST /api/oidc/revoke', {
    auth: 'Client', request: form('OidcTokenForm'), response: 'OidcRevocationResponse', summary: 'RFC 7009 token revocation',
  }),
  operation('Identity', 'introspectToken', 'POST /api/oidc/introspect', {
    auth: 'Client', request: form('OidcTokenForm'), response: 'OidcIntrospectionResponse',
    summary: 'RFC 7662 token introspection for backend trust decisions',
  }),
]
