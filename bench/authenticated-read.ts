/**
 * A Cairn with one signed-in user and a bearer access token for them, for the "authenticated
 * read" rows of bench:http: `GET /api/oidc/userinfo` verifies the bearer token (signature, expiry,
 * grant revocation: a store read) and reads the identity (another store read).
 */
import { createCairn, type Cairn } from '../hosts/library/create-cairn.js'
import { resolveDeps } from '../hosts/library/compose.js'
import { issueAccessToken } from '../core/oidc/access-token.js'
import { grants } from '../core/oidc/collections.js'
import type { GrantRecord } from '../core/oidc/records.js'
import { IDENTITIES, identityValue, type IdentityRecord } from '../core/identity/identities.js'

export const AUTHENTICATED_PATH = '/api/oidc/userinfo'

export async function cairnWithBearer(baseUrl: string): Promise<{ cairn: Cairn; token: string }> {
  const cairn = createCairn({ baseUrl, deployment: { clients: [{ clientId: 'web', redirectUris: ['https://rp.example/callback'], firstParty: true }], businessAccounts: [] } })
  await cairn.ready
  const deps = resolveDeps(cairn.container)
  const now = new Date().toISOString()
  const identity: IdentityRecord = { userId: 'usr_bench', username: 'bench', displayName: 'Bench', email: null, localUid: 'bench', keys: [], createdAt: now, updatedAt: now }
  const grant: GrantRecord = {
    grantId: 'grt_bench', userId: 'usr_bench', clientId: 'web', scopes: ['openid', 'profile'],
    createdAtMs: Date.now(), revokedAtMs: null, revokedReason: null, revokedAccessTokens: {},
  }
  const outcome = await deps.store.commit([
    { kind: 'put', collection: IDENTITIES, key: identity.userId, value: identityValue(identity), expect: { kind: 'absent' } },
    grants.put(grant.grantId, grant, { kind: 'absent' }),
  ])
  if (!outcome.ok) throw new Error('could not seed the bench user')
  const { token } = await issueAccessToken(deps, grant)
  return { cairn, token }
}
