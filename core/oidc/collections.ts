/**
 * The Store collections of the OpenID provider. Every secret (code, refresh token, agent token) is
 * stored only as the SHA-256 of its text, which is also its document key: a leaked database gives
 * no usable token, and a presented token is found with one read.
 */
import type { CollectionSpec } from '../../ports/store.js'
import { dpopCollection } from '../auth/dpop.js'
import { typedCollection } from '../usecases/typed-collection.js'
import { AgentTokenRecordCodec, AuthorizationCodeRecordCodec, ConsentRecordCodec, GrantRecordCodec, PushedRequestRecordCodec, RefreshTokenRecordCodec } from './records.js'

/** Authorization codes, keyed by SHA-256(code). */
export const AUTHORIZATION_CODES = 'oidc_authorization_codes'
/** Grants: what one authorization (code exchange) allowed, and whether it was revoked. */
export const GRANTS = 'oidc_grants'
/** Refresh tokens, keyed by SHA-256(token); rotated ones are kept to detect reuse. */
export const REFRESH_TOKENS = 'oidc_refresh_tokens'
/** Consent per user and client, keyed by consentKey(userId, clientId). */
export const CONSENTS = 'oidc_consents'
/** Agent tokens, keyed by SHA-256(token), unique by tokenId. */
export const AGENT_TOKENS = 'oidc_agent_tokens'

/** Pushed authorization requests (RFC 9126), keyed by SHA-256(request_uri). */
export const PUSHED_REQUESTS = 'oidc_pushed_requests'

export const authorizationCodes = typedCollection({ name: AUTHORIZATION_CODES, indexes: [{ name: 'byExpiresAt', fields: ['expiresAtMs'] }] }, AuthorizationCodeRecordCodec)
export const grants = typedCollection({ name: GRANTS, indexes: [{ name: 'byUserClient', fields: ['userId', 'clientId'] }] }, GrantRecordCodec)
export const refreshTokens = typedCollection({ name: REFRESH_TOKENS, indexes: [{ name: 'byGrant', fields: ['grantId'] }] }, RefreshTokenRecordCodec)
export const consents = typedCollection({ name: CONSENTS, indexes: [{ name: 'byUser', fields: ['userId'] }] }, ConsentRecordCodec)
export const pushedRequests = typedCollection({ name: PUSHED_REQUESTS, indexes: [{ name: 'byExpiresAt', fields: ['expiresAtMs'] }] }, PushedRequestRecordCodec)
export const agentTokens = typedCollection({
  name: AGENT_TOKENS,
  uniqueKeys: [{ name: 'byTokenId', field: 'tokenId' }],
  indexes: [{ name: 'byOwnerClient', fields: ['userId', 'clientId'] }],
}, AgentTokenRecordCodec)

/** @example await deps.store.declare(oidcCollections) */
export const oidcCollections: readonly CollectionSpec[] = [
  authorizationCodes.spec, grants.spec, refreshTokens.spec, consents.spec, pushedRequests.spec, dpopCollection, agentTokens.spec,
]
