/**
 * `POST /api/oidc/revoke` (RFC 7009). Always `200 { ok: true }` — for unknown, expired, already
 * revoked tokens and tokens of other clients alike — so the answer reveals nothing. A client
 * revokes only its own tokens: an access token alone (its `jti`), an agent token, or a refresh
 * token, which revokes its whole grant (RFC 7009 §2.1: "SHOULD also invalidate all access
 * tokens based on the same authorization grant").
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Write } from '../../ports/store.js'
import type { ActionInput } from '../ledger/action-ledger.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { agentTokens, refreshTokens } from './collections.js'
import { authEvent, commitDecision, nothingToWrite, type Decision } from './decision.js'
import { loadGrant, revokeAccessTokenWrites, revokeGrantWrites } from './grants.js'
import { NO_STORE, oauthError } from './oauth-errors.js'
import { tokenKindOf } from './presented-token.js'
import { secretKey } from './secrets.js'
import { checkSignedAccessToken } from './verify-access-token.js'

/** @example await revokeToken({ body: { token }, principal: { kind: 'client', clientId: 'web' }, … }, deps) // right(json({ ok: true })) */
export const revokeToken: UseCaseFor<'revokeToken'> = async (request, deps) => {
  if (request.principal.kind !== 'client') return E.left(oauthError('invalid_client', 'Revocation requires client authentication'))
  const clientId = request.principal.clientId
  const token = request.body.token
  if (!token) return E.left(oauthError('invalid_request', 'token is required'))
  const answer = await commitDecision(deps, () => decideRevocation(token, clientId, deps))
  return E.map(() => json({ ok: true }, NO_STORE))(answer)
}

type Revocation = Decision<true>
const revoked = (writes: readonly Write[], action: ActionInput): Revocation => ({ writes, actions: writes.length > 0 ? [action] : [], answer: E.right(true) })
const nothing = (): Revocation => nothingToWrite(E.right(true))

async function decideRevocation(token: string, clientId: string, deps: CoreDeps): Promise<Revocation> {
  const now = deps.clock.now()
  switch (tokenKindOf(token)) {
    case 'refresh': {
      const record = (await refreshTokens.get(deps.store, secretKey(token)))?.value
      if (!record || record.clientId !== clientId) return nothing()
      const grant = await loadGrant(deps, record.grantId)
      return grant ? revoked(revokeGrantWrites(grant, 'refresh token revoked', now), authEvent('grant_revoked', record.userId)) : nothing()
    }
    case 'agent': {
      const doc = await agentTokens.get(deps.store, secretKey(token))
      const record = doc?.value
      if (!doc || !record || record.clientId !== clientId || record.revokedAtMs !== null) return nothing()
      const write = agentTokens.put(secretKey(token), { ...record, revokedAtMs: now }, unchangedSince(doc.version))
      return revoked([write], authEvent('agent_token_revoked', record.userId))
    }
    case 'access': {
      const claims = await checkSignedAccessToken(token, deps)
      if (E.isLeft(claims) || claims.right.client_id !== clientId) return nothing()
      const grant = await loadGrant(deps, claims.right.grant_id)
      return grant ? revoked(revokeAccessTokenWrites(grant, claims.right.jti, claims.right.exp, now), authEvent('token_revoked', claims.right.sub)) : nothing()
    }
  }
}
