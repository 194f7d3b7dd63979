/**
 * A Cairn with one signed-in user and a bearer access token for them, for the "authenticated
 * read" rows of bench:http: `GET /api/oidc/userinfo` verifies the bearer token (signature, expiry,
 * grant revocation: a store read) and reads the identity (another store read). `bearerToken` is
 * how bench:ledger-http's server gives its users tokens too.
 */
import { createCairn, type Cairn } from '../hosts/library/create-cairn.js'
import { resolveDeps } from '../hosts/library/compose.js'
import { issueAccessToken } from '../core/oidc/access-token.js'
import { grants } from '../core/oidc/collections.js'
import type { GrantRecord } from '../core/oidc/records.js'
import { createValueUser } from '../conformance/support/value-users.js'
import type { CoreDeps } from '../core/usecases/use-case.js'

export const AUTHENTICATED_PATH = '/api/oidc/userinfo'

export async function cairnWithBearer(baseUrl: string): Promise<{ cairn: Cairn; token: string }> {
  const cairn = createCairn({ baseUrl, deployment: { clients: [{ clientId: 'web', redirectUris: ['https://rp.example/callback'], firstParty: true }], businessAccounts: [] } })
  await cairn.ready
  const deps = resolveDeps(cairn.container)
  const token = await bearerToken(deps, await createValueUser(deps.store, 'bench'), { clientId: 'web', scopes: ['openid', 'profile'] })
  return { cairn, token }
}

/**
 * A JWT access token for `userId`, through a grant to `clientId` written here (as consent would
 * leave it): what a bench sends in `Authorization: Bearer`.
 */
export async function bearerToken(deps: CoreDeps, userId: string, grant: { clientId: string; scopes: readonly string[]; lifetimeSeconds?: number }): Promise<string> {
  const record: GrantRecord = {
    grantId: `grt_${userId}`, userId, clientId: grant.clientId, scopes: [...grant.scopes],
    createdAtMs: Date.now(), revokedAtMs: null, revokedReason: null, revokedAccessTokens: {},
  }
  const outcome = await deps.store.commit([grants.put(record.grantId, record, { kind: 'absent' })])
  if (!outcome.ok) throw new Error(`could not grant ${userId} a bench token`)
  return (await issueAccessToken(deps, { ...record, ...(grant.lifetimeSeconds === undefined ? {} : { lifetimeSeconds: grant.lifetimeSeconds }) })).token
}
