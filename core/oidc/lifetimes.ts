/**
 * How long each OAuth artefact lives (the spec leaves token lifetimes open; docs/oidc.md).
 * Short access tokens keep a stolen one useful for minutes; refresh tokens rotate so a long life
 * does not mean a long-lived secret.
 */

/** Authorization codes: one redirect round trip (RFC 6749 §4.1.2 recommends at most 10 minutes). */
export const AUTHORIZATION_CODE_SECONDS = 60
/** Access tokens (RFC 9068 JWTs): 10 minutes. */
export const ACCESS_TOKEN_SECONDS = 10 * 60
/** ID tokens: as long as the access token issued with them. */
export const ID_TOKEN_SECONDS = ACCESS_TOKEN_SECONDS
/** Refresh tokens: 30 days from their issue; every rotation issues a fresh one. */
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 60 * 60
/** Agent tokens without `expiresIn`: 30 days. */
export const AGENT_TOKEN_DEFAULT_SECONDS = 30 * 24 * 60 * 60
/** Agent tokens live at least a minute and at most a year. */
export const AGENT_TOKEN_MIN_SECONDS = 60
export const AGENT_TOKEN_MAX_SECONDS = 365 * 24 * 60 * 60
