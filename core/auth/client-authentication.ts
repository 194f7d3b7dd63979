/**
 * OAuth client authentication (RFC 6749 §2.3) against the deployment's registered clients.
 * Confidential clients (a `clientSecretSha256` is configured) must present their secret, by HTTP
 * Basic or in the form; public clients have no secret and present `client_id` alone — only the
 * PKCE flows accept them, which the token endpoint enforces. Every refusal is the same 401, as
 * RFC 6749 §5.2 `invalid_client` is, so a caller cannot tell an unknown client from a wrong secret.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { DeploymentConfig } from '../config/deployment-config.js'
import { unauthenticated, type DomainError } from '../errors/domain-error.js'
import type { Credentials } from './credentials.js'
import type { Principal } from './principal.js'

/** RFC 6749 §5.2 `invalid_client`: over HTTP `error` is the bare code, `error_description` the sentence. */
function invalidClient(sentence: string): DomainError {
  return { ...unauthenticated(`invalid_client: ${sentence}`), oauth: { code: 'invalid_client', description: sentence } }
}
const INVALID_CLIENT = 'the client credentials are not valid'
/** Compared against when the client is unknown, so both refusals take the same work. */
const NO_SECRET = Buffer.alloc(32)

/**
 * @example authenticateClient(config.deployment, { clientId: 'web', clientSecret: 's3cret', method: 'basic' }) // right({ kind: 'client', clientId: 'web' })
 */
export function authenticateClient(deployment: DeploymentConfig, presented: Credentials['client']): Either<DomainError, Principal> {
  if (presented === undefined) return E.left(invalidClient('this operation requires OAuth client authentication'))
  const client = (deployment.clients ?? []).find((candidate) => candidate.clientId === presented.clientId)
  const secret = presented.clientSecret ?? ''
  if (client?.clientSecretSha256 === undefined) {
    secretMatches(secret, NO_SECRET)
    // A public client has no secret to present; one that presents a secret is misconfigured.
    return client !== undefined && secret === '' ? E.right({ kind: 'client', clientId: client.clientId }) : E.left(invalidClient(INVALID_CLIENT))
  }
  const expected = /^[0-9a-f]{64}$/.test(client.clientSecretSha256) ? Buffer.from(client.clientSecretSha256, 'hex') : NO_SECRET
  return secret !== '' && secretMatches(secret, expected) && expected !== NO_SECRET
    ? E.right({ kind: 'client', clientId: client.clientId })
    : E.left(invalidClient(INVALID_CLIENT))
}

/** Timing-safe: compares SHA-256 digests, which always have the same length. */
function secretMatches(secret: string, expectedSha256: Buffer): boolean {
  return timingSafeEqual(createHash('sha256').update(secret, 'utf8').digest(), expectedSha256)
}
