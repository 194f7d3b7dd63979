/** The provider's endpoint URLs, all under the base URL (which is also the issuer). */
import type { CoreDeps } from '../usecases/use-case.js'

/** @example endpointsOf(deps).token // 'https://cairn.example/api/oidc/token' */
export function endpointsOf(deps: Pick<CoreDeps, 'config'>) {
  const base = deps.config.baseUrl
  return {
    issuer: base,
    authorization: `${base}/api/oidc/authorize`,
    token: `${base}/api/oidc/token`,
    userinfo: `${base}/api/oidc/userinfo`,
    jwks: `${base}/api/oidc/jwks`,
    revocation: `${base}/api/oidc/revoke`,
    introspection: `${base}/api/oidc/introspect`,
    pushedAuthorizationRequest: `${base}/api/oidc/par`,
    endSession: `${base}/logout`,
  } as const
}
