/**
 * A deployment's identity configuration: its OAuth clients, which of them are first-party, and
 * which accounts are on the Business tier. Read from the JSON file named by `CAIRN_CONFIG` or
 * passed to `createCairn({ config })`.
 */
import * as t from 'io-ts'
import { NonEmptyString, UrlString } from '../contract/primitives.js'

/** An OAuth 2.0 client (RFC 6749 §2). */
export const OAuthClientConfig = t.intersection([
  t.type({
    clientId: NonEmptyString,
    /** Exact redirect URIs (RFC 6749 §3.1.2; compared as strings, no wildcards). */
    redirectUris: t.array(UrlString),
  }),
  t.partial({
    name: t.string,
    /**
     * SHA-256 (lowercase hex) of the client secret; absent for public clients, which must use PKCE
     * and authenticate with `client_id` alone (`token_endpoint_auth_method: none`).
     */
    clientSecretSha256: t.string,
    /** First-party clients skip the consent step. @default false */
    firstParty: t.boolean,
    /** Scopes the client may request; @default every scope */
    allowedScopes: t.array(t.string),
  }),
], 'OAuthClientConfig')
export type OAuthClientConfig = t.TypeOf<typeof OAuthClientConfig>

export const DeploymentConfig = t.partial({
  clients: t.array(OAuthClientConfig),
  /** Usernames of Business-tier accounts (Production operations). */
  businessAccounts: t.array(NonEmptyString),
  /**
   * The sign-in page the authorization endpoint sends a visitor without a session to (an absolute
   * URL, or a path on the base URL's origin). @default '/login'
   */
  loginUrl: NonEmptyString,
  /** Checkout's payment processor; its secrets come from the environment (docs/value.md). @default { processor: 'test' } */
  payments: t.type({ processor: t.keyof({ test: null, stripe: null }) }),
  /** Where webhook deliveries may go besides public https URLs (development and private deployments). */
  webhooks: t.partial({ allowHttpLoopback: t.boolean, allowPrivateNetworks: t.boolean }),
}, 'DeploymentConfig')
export type DeploymentConfig = t.TypeOf<typeof DeploymentConfig>

export const EMPTY_DEPLOYMENT_CONFIG: DeploymentConfig = { clients: [], businessAccounts: [] }
