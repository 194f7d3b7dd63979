/**
 * `POST|DELETE /api/oidc/agent-tokens`: scoped delegated tokens for MCP servers, CI and local
 * agents, made by a signed-in user. The token (`cairn_at_…`) is in the creation answer once and
 * stored only as its SHA-256 with owner, client, scopes, labels and expiry; `verifyAccessToken`
 * honours it like any access token until it expires or is revoked.
 */
import * as E from 'fp-ts/lib/Either.js'
import { FRESH_SIGN_IN_REQUIRED, isFreshSignIn } from '../identity/fresh-sign-in.js'
import type { ComponentType } from '../contract/components.js'
import type { StoredDocument } from '../../ports/store.js'
import { forbidden, notFound, unauthenticated } from '../errors/domain-error.js'
import { quoteInput } from '../errors/quote-input.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { checkAgentTokenRequest } from './agent-token-rules.js'
import { agentTokens } from './collections.js'
import { authEvent, commitDecision, type Decision } from './decision.js'
import { NO_STORE } from './oauth-errors.js'
import type { AgentTokenRecord } from './records.js'
import { AGENT_TOKEN_PREFIX, newId, newSecret, secretKey } from './secrets.js'

type Body = ComponentType<'OidcAgentTokenRequest'>
type Answer = ComponentType<'OidcAgentTokenResponse'>

/**
 * @example await createAgentToken({ body: { clientId: 'ci', scopes: ['cairn:record'], label: 'nightly' }, principal: session, … }, deps)
 */
export const createAgentToken: UseCaseFor<'createAgentToken'> = async (request, deps) => {
  const { principal } = request
  if (principal.kind !== 'session') return E.left(unauthenticated('This operation requires a signed-in session'))
  // A token of up to 365 days outlives the cookie: minting one needs a recent sign-in, not just the cookie.
  if (!isFreshSignIn(principal, deps.clock.now())) return E.left(forbidden(FRESH_SIGN_IN_REQUIRED))
  const terms = checkAgentTokenRequest(request.body, principal, deps)
  if (E.isLeft(terms)) return terms
  const answer = await commitDecision(deps, async (): Promise<Decision<Answer>> => {
    const token = newSecret(deps, AGENT_TOKEN_PREFIX)
    const now = deps.clock.now()
    const record: AgentTokenRecord = {
      tokenId: newId(deps, 'agt_'),
      userId: principal.userId,
      clientId: terms.right.clientId,
      scopes: terms.right.scopes,
      label: terms.right.label,
      auditLabels: terms.right.auditLabels,
      createdAtMs: now,
      expiresAtMs: now + terms.right.lifetimeSeconds * 1000,
      revokedAtMs: null,
    }
    return {
      writes: [agentTokens.put(secretKey(token), record, { kind: 'absent' })],
      actions: [authEvent('agent_token_created', principal.userId)],
      answer: E.right({ ...describeAgentToken(record), accessToken: token }),
    }
  })
  return E.map((body: Answer) => json(body, NO_STORE))(answer)
}

/**
 * DELETE: `tokenId` revokes that token; without it, every token of `clientId` the user made.
 *
 * @example await revokeAgentToken({ body: { clientId: 'ci', tokenId: 'agt_…' }, principal: session, … }, deps) // { ok: true, revoked: 1 }
 */
export const revokeAgentToken: UseCaseFor<'revokeAgentToken'> = async (request, deps) => {
  const { principal } = request
  if (principal.kind !== 'session') return E.left(unauthenticated('This operation requires a signed-in session'))
  const body = request.body
  const answer = await commitDecision(deps, async (): Promise<Decision<Answer>> => {
    const targets = await agentTokensToRevoke(deps, principal.userId, body)
    if (targets === undefined) return { writes: [], actions: [], answer: E.left(notFound(`You have no agent token ${body.tokenId === undefined ? '' : `${quoteInput(body.tokenId)} `}for client ${quoteInput(body.clientId)}`)) }
    const now = deps.clock.now()
    const live = targets.filter(({ record }) => record.revokedAtMs === null)
    const writes = live.map(({ key, version, record }) => agentTokens.put(key, { ...record, revokedAtMs: now }, unchangedSince(version)))
    return {
      writes,
      actions: live.map(() => authEvent('agent_token_revoked', principal.userId)),
      answer: E.right({ ok: true, clientId: body.clientId, ...(body.tokenId === undefined ? {} : { tokenId: body.tokenId }), revoked: live.length }),
    }
  })
  return E.map((reply: Answer) => json(reply, NO_STORE))(answer)
}

interface StoredAgentToken {
  readonly key: string
  readonly version: number
  readonly record: AgentTokenRecord
}

/** The user's tokens the request names; undefined when a named `tokenId` is not theirs for that client. */
async function agentTokensToRevoke(deps: CoreDeps, userId: string, body: Body): Promise<StoredAgentToken[] | undefined> {
  const stored = (doc: StoredDocument): StoredAgentToken => ({ key: doc.key, version: doc.version, record: agentTokens.decode(doc) })
  if (body.tokenId !== undefined) {
    const doc = await deps.store.getByUnique(agentTokens.name, 'byTokenId', body.tokenId)
    const found = doc && stored(doc)
    return found && found.record.userId === userId && found.record.clientId === body.clientId ? [found] : undefined
  }
  const all: StoredAgentToken[] = []
  let after: string | undefined
  do {
    const page = await deps.store.query(agentTokens.name, { index: 'byOwnerClient', equals: [userId, body.clientId], limit: 1000, ...(after ? { after } : {}) })
    all.push(...page.items.map(stored))
    after = page.nextCursor ?? undefined
  } while (after)
  return all
}

/** The public description of a token (never the token itself). */
function describeAgentToken(record: AgentTokenRecord): Answer {
  return {
    ok: true,
    tokenId: record.tokenId,
    clientId: record.clientId,
    tokenType: 'Bearer',
    scopes: [...record.scopes],
    label: record.label,
    auditLabels: { ...record.auditLabels },
    expiresAt: new Date(record.expiresAtMs).toISOString(),
  }
}
