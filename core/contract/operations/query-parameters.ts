/**
 * Query parameters the spec leaves unnamed, named after the standards they follow (cursor
 * pagination as the feeds' own fields, OAuth 2.0 / OIDC authorization request parameters).
 * Query values arrive as strings; codecs that need numbers parse them.
 */
import * as t from 'io-ts'
import { annotate } from '../json-schema.js'
import { IsoTimestamp, NonEmptyString, UrlString } from '../primitives.js'
import type { QueryParameter } from '../operation.js'

/** A page size from its decimal string, 1..max. */
function pageSizeFromString(max: number): t.Type<number, string, unknown> {
  return annotate(
    new t.Type<number, string, unknown>(
      'PageSize',
      (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= 1 && u <= max,
      (u, c) => {
        const n = typeof u === 'string' && /^[0-9]{1,6}$/.test(u) ? Number(u) : NaN
        return Number.isInteger(n) && n >= 1 && n <= max ? t.success(n) : t.failure(u, c, `an integer from 1 to ${max}`)
      },
      String,
    ),
    { type: 'integer', minimum: 1, maximum: max },
  )
}

const param = <const Name extends string, Codec extends t.Mixed, const Required extends boolean>(
  name: Name,
  codec: Codec,
  required: Required,
  description: string,
): QueryParameter<Name, Codec, Required> => ({ name, codec, required, description })

/** Cursor pagination of the append-only public feeds. */
export const feedQuery = [
  param('cursor', NonEmptyString, false, 'Continue after this opaque cursor (the previous page\'s `nextCursor`).'),
  param('since', IsoTimestamp, false, 'Only events created at or after this ISO 8601 time.'),
  param('limit', pageSizeFromString(200), false, 'Page size, 1 to 200 (default 50).'),
] as const

/** Page size alone, for collection reads. */
export const pageQuery = [
  param('cursor', NonEmptyString, false, 'Continue after this opaque cursor.'),
  param('limit', pageSizeFromString(200), false, 'Page size, 1 to 200 (default 50).'),
] as const

export const byUrlQuery = [param('url', UrlString, true, 'Canonical source URL of the public work.')] as const

/**
 * RFC 6749 §4.1.1, RFC 7636 §4.3 and OpenID Connect Core §3.1.2.1 parameter names. Only
 * `client_id` and `redirect_uri` are refused by decoding: once both are known to be valid, every
 * other mistake (missing PKCE, `plain`, a wrong `response_type`) must reach the client as an error
 * redirect (RFC 6749 §4.1.2.1, RFC 7636 §4.4.1), so the endpoint checks those itself.
 */
export const authorizeQuery = [
  param('response_type', NonEmptyString, false, 'Required; must be `code` (otherwise `unsupported_response_type` is redirected to the client).'),
  param('client_id', NonEmptyString, true, 'Registered client identifier.'),
  param('redirect_uri', UrlString, false, 'Exactly one of the client\'s registered redirect URIs; required unless `request_uri` names a pushed request.'),
  param('scope', NonEmptyString, false, 'Space-separated scopes (`openid`, `profile`, `cairn:*`); required by Cairn.'),
  param('state', NonEmptyString, false, 'Opaque value returned unchanged to the client.'),
  param('nonce', NonEmptyString, false, 'Bound into the ID token.'),
  param('code_challenge', NonEmptyString, false, 'Required PKCE challenge (RFC 7636): BASE64URL(SHA-256(code_verifier)), 43 characters.'),
  param('code_challenge_method', NonEmptyString, false, 'Required; must be `S256` (`plain` is refused).'),
  param('prompt', NonEmptyString, false, 'OpenID Connect prompt (`none`, `login`, `consent`, `select_account`).'),
  param('response_mode', NonEmptyString, false, 'Only `query` (the default) is supported; any other mode is refused with `invalid_request`.'),
  param('max_age', NonEmptyString, false, 'Seconds: a sign-in older than this is repeated; the ID token then carries `auth_time`.'),
  param('id_token_hint', NonEmptyString, false, 'An ID token Cairn issued; its `sub` must be the signed-in user (`login_required` under `prompt=none`).'),
  param('login_hint', NonEmptyString, false, 'Passed to the sign-in page (`login_hint`), e.g. the username.'),
  param('acr_values', NonEmptyString, false, 'Accepted; the ID token\'s `acr` says what the sign-in was.'),
  param('request', NonEmptyString, false, 'Not supported: refused with `request_not_supported`.'),
  param('request_uri', NonEmptyString, false, 'A pushed authorization request (RFC 9126, `urn:ietf:params:oauth:request_uri:…`); other request URIs are refused with `request_uri_not_supported`.'),
  param('dpop_jkt', NonEmptyString, false, 'RFC 9449 §10: the thumbprint of the DPoP key the code must be redeemed with.'),
  param('login_after', NonEmptyString, false, 'Set by Cairn in the sign-in page\'s `next` (epoch milliseconds): only a sign-in at or after it completes the request (`prompt=login`, `max_age`).'),
] as const

export const checkoutSessionQuery = [param('sessionId', NonEmptyString, true, 'Checkout session identifier returned at checkout.')] as const

export const artImageQuery = [
  param('cardId', NonEmptyString, true, 'Card identifier.'),
  param('claimHash', NonEmptyString, true, 'Claim hash the artwork is bound to.'),
] as const

export const simulationQuery = [
  param('seed', NonEmptyString, false, 'Seed to replay a simulation exactly.'),
  param('rounds', pageSizeFromString(10_000), false, 'Simulated rounds, 1 to 10000 (the bound).'),
] as const
