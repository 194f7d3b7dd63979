/**
 * Test support for operations beyond the OpenID provider: the OIDC test world (real sessions, real
 * bearer boundary, real agent tokens) serving every built operation, plus an application's access
 * token.
 */
import { bodyOf, createOidcTestWorld, type OidcWorldOptions, type OidcTestWorld } from './oidc-test-support.js'
import type { Credentials } from '../../core/auth/credentials.js'
import { operationsById } from '../../core/contract/operations/index.js'
import { executeOperation, type OperationEnvironment } from '../../core/usecases/execute-operation.js'
import { useCases } from '../../core/usecases/registry.js'
import type { CoreDeps } from '../../core/usecases/use-case.js'

export const APP = 'com.example.notes'

export interface RuntimeTestWorld {
  readonly world: OidcTestWorld
  readonly deps: CoreDeps
  /** Every built operation, through the full pipeline, as `token`'s bearer. */
  call(operationId: string, input?: { body?: unknown; params?: Record<string, string>; query?: Record<string, string>; token?: string | null; credentials?: Credentials }): ReturnType<OidcTestWorld['call']>
  /** The application's access token with `scopes`. */
  tokenFor(scopes: readonly string[], clientId?: string): Promise<string>
  /** The deployment's JWKS, as a client fetches it. */
  jwks(): Promise<{ keys: JsonWebKey[] }>
}

/** @example const runtime = await createRuntimeTestWorld(); const token = await runtime.tokenFor(['cairn:runtime.read']) */
export async function createRuntimeTestWorld(options: OidcWorldOptions = {}): Promise<RuntimeTestWorld> {
  const world = await createOidcTestWorld(options)
  const env: OperationEnvironment = { deps: world.deps, authenticator: world.authenticator, useCases }
  const ada = await world.signIn('ada')
  const call: RuntimeTestWorld['call'] = (operationId, input = {}) =>
    executeOperation(operationsById.get(operationId)!, { params: input.params ?? {}, query: input.query ?? {}, body: input.body, credentials: input.credentials ?? (input.token ? { bearerToken: input.token } : {}) }, env)
  return {
    world,
    deps: world.deps,
    call,
    async tokenFor(scopes, clientId = APP) {
      const created = await world.call('createAgentToken', { body: { clientId, scopes: [...scopes], label: 'runtime test' }, credentials: { sessionCookie: ada.cookie } })
      return bodyOf<{ accessToken: string }>(created).accessToken
    },
    async jwks() {
      return bodyOf<{ keys: JsonWebKey[] }>(await world.call('getJwks'))
    },
  }
}
