/**
 * The boundary before any identity exists: open operations pass; every credentialed class is
 * refused, because no session, token or client can be valid yet. Identity replaces it.
 */
import * as E from 'fp-ts/lib/Either.js'
import { unauthenticated } from '../errors/domain-error.js'
import type { Authenticator } from './authenticator.js'
import { ANONYMOUS } from './principal.js'

const REFUSALS = {
  Session: ['This operation requires a signed-in session', 'The session is not valid'],
  Bearer: ['This operation requires a bearer access token', 'The access token is not valid'],
  Business: ['This operation requires a Business-tier session or access token', 'The credentials are not valid'],
  Client: ['This operation requires OAuth client authentication', 'The client credentials are not valid'],
} as const

/** @example await closedAuthenticator.authenticate('None', [], {}) // right(anonymous) */
export const closedAuthenticator: Authenticator = {
  async authenticate(auth, _scopes, credentials) {
    if (auth === 'None' || auth === 'ProofConsent') return E.right(ANONYMOUS)
    const presented =
      auth === 'Session' ? credentials.sessionCookie :
      auth === 'Bearer' ? credentials.bearerToken :
      auth === 'Client' ? credentials.client :
      credentials.sessionCookie ?? credentials.bearerToken
    const [missing, invalid] = REFUSALS[auth]
    return E.left(unauthenticated(presented === undefined ? missing : invalid))
  },
}
