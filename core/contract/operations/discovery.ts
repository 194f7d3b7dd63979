import { operation } from './define.js'

export const discoveryOperations = [
  operation('Discovery', 'getOpenIdConfiguration', 'GET /.well-known/openid-configuration', {
    auth: 'None', response: 'OidcDiscoveryMetadata', summary: 'OpenID Provider metadata (OpenID Connect Discovery 1.0)',
  }),
  operation('Discovery', 'getOAuthAuthorizationServerMetadata', 'GET /.well-known/oauth-authorization-server', {
    auth: 'None', response: 'OidcDiscoveryMetadata', summary: 'OAuth 2.0 Authorization Server Metadata (RFC 8414)',
  }),
]
