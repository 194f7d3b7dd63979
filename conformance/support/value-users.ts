/** Users for value tests and benchmarks: identity records written directly, as sign-in would leave them. */
import { IDENTITIES, identityValue, type IdentityRecord } from '../../core/identity/identities.js'
import type { Principal } from '../../core/auth/principal.js'
import type { Store } from '../../ports/store.js'

/** @example await createValueUser(store, 'ada') // 'usr_ada' */
export async function createValueUser(store: Store, username: string): Promise<string> {
  const userId = `usr_${username}`
  const record: IdentityRecord = {
    userId, username, displayName: username, email: null, localUid: `local-${username}`, keys: [],
    createdAt: '2026-06-25T00:00:00.000Z', updatedAt: '2026-06-25T00:00:00.000Z',
  }
  const outcome = await store.commit([{ kind: 'put', collection: IDENTITIES, key: userId, value: identityValue(record), expect: { kind: 'absent' } }])
  if (!outcome.ok) throw new Error(`user ${username} exists already`)
  return userId
}

/** A bearer principal of `userId` holding every value scope, as the application `value-tests` obtained it. */
export function valueBearer(userId: string): Principal {
  return {
    kind: 'bearer', actsAsClient: true, subject: userId, clientId: 'value-tests', tokenId: `tok_${userId}`, businessTier: false,
    scopes: ['cairn:wallet.read', 'cairn:wallet.transfer', 'cairn:payments.create', 'cairn:payments.read', 'cairn:notes.mint', 'cairn:notes.claim', 'cairn:notes.read', 'cairn:value.read', 'cairn:value.execute'],
  }
}
