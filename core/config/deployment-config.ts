/**
 * A deployment's identity configuration: its OAuth clients, which of them are first-party, and
 * which accounts are on the Business tier. Read from the JSON file named by `CAIRN_CONFIG` or
 * passed to `createCairn({ config })`.
 */
import * as t from 'io-ts'
import { NonEmptyString, NonNegativeInteger, Sha256Hex, UrlString } from '../contract/primitives.js'
import { isAddressOrRange } from '../rate-limit/client-address.js'
import { PhiPerUsd } from '../value/phi-price.js'
import { SCOPES } from '../contract/scopes.js'

/** An IP address or CIDR range (`10.0.0.0/8`, `2001:db8::/32`). */
const AddressOrRange = t.refinement(t.string, isAddressOrRange, 'AddressOrRange')

/** The longest auction of the card market, and so the longest minimum a deployment may set: 30 days. */
export const AUCTION_MAX_SECONDS = 30 * 24 * 3600

/** The card market's shortest auction: a whole number of seconds from 1 to 30 days. */
const AuctionMinSeconds = t.refinement(t.number, (seconds) => Number.isInteger(seconds) && seconds >= 1 && seconds <= AUCTION_MAX_SECONDS, 'AuctionMinSeconds')

/** How long one webhook delivery attempt may take: a whole number of seconds from 1 to 60. */
const AttemptTimeoutSeconds = t.refinement(t.number, (seconds) => Number.isInteger(seconds) && seconds >= 1 && seconds <= 60, 'AttemptTimeoutSeconds')

/** A scope this deployment issues (core/contract/scopes.ts); a typo is refused, not ignored. */
const KnownScope = t.keyof(SCOPES, 'KnownScope')

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
    clientSecretSha256: Sha256Hex,
    /** First-party clients skip the consent step. @default false */
    firstParty: t.boolean,
    /** Scopes the client may request; @default every scope */
    allowedScopes: t.array(KnownScope),
    /** JWS algorithm of this client's ID tokens (OpenID Connect Registration `id_token_signed_response_alg`). @default 'ES256' */
    idTokenSigningAlg: t.keyof({ ES256: null, RS256: null }),
    /** JWS algorithm of this client's JWT access tokens. @default 'ES256' */
    accessTokenSigningAlg: t.keyof({ ES256: null, RS256: null }),
    /** Exact URIs RP-initiated logout may send the browser back to (`post_logout_redirect_uri`). */
    postLogoutRedirectUris: t.array(UrlString),
    /** Authorization requests must be pushed first (RFC 9126 `require_pushed_authorization_requests`). @default false */
    requirePushedAuthorizationRequests: t.boolean,
    /**
     * Agent tokens a signed-in user mints naming this client (`POST /api/oidc/agent-tokens`) may act
     * as this client's runtime application on `/api/sdk/v1/` — the user vouches for the agent.
     * Without it only tokens the client obtained itself act as it (docs/runtime.md). @default false
     */
    agentTokensActAsApplication: t.boolean,
  }),
], 'OAuthClientConfig')
export type OAuthClientConfig = t.TypeOf<typeof OAuthClientConfig>

/** A public key a registry partner signs its app-state feeds with (a public JWK, RFC 7517). */
export const PartnerKeyConfig = t.intersection([
  t.type({ kid: NonEmptyString, kty: t.keyof({ OKP: null, EC: null }), crv: t.keyof({ Ed25519: null, 'P-256': null }), x: NonEmptyString }),
  t.partial({ y: NonEmptyString, alg: t.keyof({ EdDSA: null, ES256: null }) }),
], 'PartnerKeyConfig')
export type PartnerKeyConfig = t.TypeOf<typeof PartnerKeyConfig>

/** A public proof registry partner (docs/public-proof.md: signed partner feeds). */
export const PartnerConfig = t.intersection([
  t.type({ partnerId: NonEmptyString, keys: t.array(PartnerKeyConfig) }),
  /** Namespaces the partner may publish into; @default any */
  t.partial({ namespaces: t.array(NonEmptyString) }),
], 'PartnerConfig')
export type PartnerConfig = t.TypeOf<typeof PartnerConfig>

/**
 * Which TextGenerator metered runs and Live Twin replies use: `builtin` (deterministic, offline)
 * or `openai` (any Chat Completions server; the key comes from the environment, docs/production.md).
 */
export const TextGeneratorConfig = t.intersection([
  t.type({ kind: t.keyof({ builtin: null, openai: null }) }),
  t.partial({ baseUrl: UrlString, model: NonEmptyString }),
], 'TextGeneratorConfig')
export type TextGeneratorConfig = t.TypeOf<typeof TextGeneratorConfig>

/** Metered Production prices in micro-Φ (docs/production.md has the defaults). */
export const ProductionPricingConfig = t.partial({
  runBasePhiMicro: NonNegativeInteger,
  inputTokenPhiMicro: NonNegativeInteger,
  outputTokenPhiMicro: NonNegativeInteger,
  /** Upper bound on generated tokens per run; the quote is priced at it. */
  maxOutputTokens: NonNegativeInteger,
}, 'ProductionPricingConfig')
export type ProductionPricingConfig = t.TypeOf<typeof ProductionPricingConfig>

export const DeploymentConfig = t.partial({
  clients: t.array(OAuthClientConfig),
  /** Usernames of Business-tier accounts (Production operations). */
  businessAccounts: t.array(NonEmptyString),
  /**
   * The sign-in page the authorization endpoint sends a visitor without a session to (an absolute
   * URL, or a path on the base URL's origin). @default '/login'
   */
  loginUrl: NonEmptyString,
  /**
   * Checkout's payment processor (its secrets come from the environment) and what a payment buys:
   * with `phiPerUsd`, a completed checkout credits Φ at that price; without, US cents (docs/value.md).
   * @default { processor: 'test' }
   */
  payments: t.partial({ processor: t.keyof({ test: null, stripe: null }), phiPerUsd: PhiPerUsd }),
  /**
   * The operator credential: the SHA-256 (64 lowercase hex) of a bearer token, kept in the
   * environment of whoever operates the deployment, that `POST /operator/value/issue` and
   * `cairn value issue --server` present. Absent: issuance only from the data dir or store.
   */
  operator: t.type({ tokenSha256: Sha256Hex }),
  /** Every client must push its authorization requests (RFC 9126). @default false */
  requirePushedAuthorizationRequests: t.boolean,
  /** Public proof registry partners whose signed app-state feeds are verified against these keys. */
  partners: t.array(PartnerConfig),
  /**
   * Where webhook deliveries may go besides public https URLs (development and private deployments),
   * and how long one attempt may take before it counts as failed (docs/webhooks.md). @default { attemptTimeoutSeconds: 15 }
   */
  webhooks: t.partial({ allowHttpLoopback: t.boolean, allowPrivateNetworks: t.boolean, attemptTimeoutSeconds: AttemptTimeoutSeconds }),
  /** @default { kind: 'builtin' } */
  textGenerator: TextGeneratorConfig,
  /** Prices of metered Creator runs and Twin messages. @default docs/production.md */
  production: ProductionPricingConfig,
  /**
   * Visitor message rate limits of Live Twins (per minute): per visitor id, per client address
   * (IPv6 by /64), per Twin, and how many of the Twin's messages may start new threads (the rest
   * stay for existing threads). @default { visitorPerMinute: 10, addressPerMinute: 20, twinPerMinute: 60, newThreadsPerMinute: two thirds of twinPerMinute }
   */
  world: t.partial({ visitorPerMinute: NonNegativeInteger, addressPerMinute: NonNegativeInteger, twinPerMinute: NonNegativeInteger, newThreadsPerMinute: NonNegativeInteger }),
  /**
   * Proxies in front of Cairn whose `X-Forwarded-For` is believed (addresses or CIDR ranges);
   * @default [] — the header is ignored and the connection's peer is the client (docs/world.md).
   */
  network: t.partial({ trustedProxies: t.array(AddressOrRange) }),
  /** Universal Runtime limits (per minute, per application and requesting subject). @default { recipientResolutionsPerMinute: 30 } */
  runtime: t.partial({ recipientResolutionsPerMinute: NonNegativeInteger }),
  /**
   * The card market (docs/signal-circuit.md): the shortest auction an owner may open, in seconds
   * (1 to 30 days; a demonstration or test deployment shortens it). @default { auctionMinSeconds: 60 }
   */
  cards: t.partial({ auctionMinSeconds: AuctionMinSeconds }),
}, 'DeploymentConfig')
export type DeploymentConfig = t.TypeOf<typeof DeploymentConfig>

export const EMPTY_DEPLOYMENT_CONFIG: DeploymentConfig = { clients: [], businessAccounts: [] }
