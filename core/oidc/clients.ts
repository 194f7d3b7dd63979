/** The OAuth clients a deployment registers (CAIRN_CONFIG `clients`). */
import type { OAuthClientConfig } from '../config/deployment-config.js'
import type { CoreDeps } from '../usecases/use-case.js'

/** @example findClient(deps, 'web') // the client or undefined */
export function findClient(deps: Pick<CoreDeps, 'config'>, clientId: string): OAuthClientConfig | undefined {
  return (deps.config.deployment.clients ?? []).find((client) => client.clientId === clientId)
}

/** A confidential client holds a secret; a public one authenticates with `client_id` alone. @example isConfidential(findClient(deps, 'web')!) // true */
export function isConfidential(client: OAuthClientConfig): boolean {
  return typeof client.clientSecretSha256 === 'string' && client.clientSecretSha256 !== ''
}
