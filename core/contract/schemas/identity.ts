/**
 * Identity components: OAuth 2.0 / OpenID Connect documents named after their RFCs (property
 * names are the standards' own snake_case), the Cairn ID continue exchange and agent tokens.
 * Tokens are delegated API access; they never become identity or proof authority.
 */
import * as t from 'io-ts'
import { struct } from '../define.js'
import { annotate } from '../json-schema.js'
import { explain } from '../rule-words.js'
import { Base64Url, IsoTimestamp, NonEmptyString, NonNegativeInteger, Sha256Hex, UrlString } from '../primitives.js'
import { SitePath } from './verification.js'

const Strings = t.array(t.string)

/**
 * An agent token's scopes: optional in the component (DELETE does not use them) but at least one
 * when present, and required by POST; the document says both, as the server does.
 */
const AgentTokenScopes = annotate(
  explain(t.refinement(t.array(NonEmptyString), (scopes) => scopes.length > 0, 'AgentTokenScopes'), 'a list of at least one scope'),
  {
    type: 'array',
    items: { type: 'string', minLength: 1 },
    minItems: 1,
    description: 'Required when creating a token (POST): at least one scope, each granted by the session. Not used by DELETE.',
  },
)

/** OpenID Connect Discovery 1.0 §3 / RFC 8414 §2 provider metadata (both well-known routes). */
export const OidcDiscoveryMetadata = struct(
  'OidcDiscoveryMetadata',
  {
    issuer: UrlString,
    authorization_endpoint: UrlString,
    token_endpoint: UrlString,
    jwks_uri: UrlString,
    response_types_supported: Strings,
    subject_types_supported: t.array(t.keyof({ public: null, pairwise: null })),
    id_token_signing_alg_values_supported: Strings,
  },
  {
    userinfo_endpoint: UrlString,
    registration_endpoint: UrlString,
    revocation_endpoint: UrlString,
    introspection_endpoint: UrlString,
    scopes_supported: Strings,
    response_modes_supported: Strings,
    grant_types_supported: Strings,
    token_endpoint_auth_methods_supported: Strings,
    revocation_endpoint_auth_methods_supported: Strings,
    introspection_endpoint_auth_methods_supported: Strings,
    code_challenge_methods_supported: Strings,
    claims_supported: Strings,
    claims_parameter_supported: t.boolean,
    request_parameter_supported: t.boolean,
    request_uri_parameter_supported: t.boolean,
    authorization_response_iss_parameter_supported: t.boolean,
    pushed_authorization_request_endpoint: UrlString,
    require_pushed_authorization_requests: t.boolean,
    end_session_endpoint: UrlString,
    dpop_signing_alg_values_supported: Strings,
    service_documentation: UrlString,
    ui_locales_supported: Strings,
  },
  'Authorization server metadata (OpenID Connect Discovery 1.0, RFC 8414). Served identically at /.well-known/openid-configuration and /.well-known/oauth-authorization-server.',
)

/** application/x-www-form-urlencoded body of token, revoke and introspect (RFC 6749, 7009, 7662, 7636). */
export const OidcTokenForm = struct(
  'OidcTokenForm',
  {},
  {
    grant_type: t.string,
    code: t.string,
    redirect_uri: t.string,
    code_verifier: t.string,
    refresh_token: t.string,
    client_id: t.string,
    client_secret: t.string,
    scope: t.string,
    token: t.string,
    token_type_hint: t.string,
  },
  'Form body shared by the token (RFC 6749 §4.1.3, §6; PKCE RFC 7636 §4.5), revocation (RFC 7009 §2.1) and introspection (RFC 7662 §2.1) endpoints. Each endpoint checks the parameters it needs.',
)

/** RFC 6749 §5.1 successful token response (plus the OpenID Connect `id_token`). */
export const OidcTokenResponse = struct(
  'OidcTokenResponse',
  { access_token: NonEmptyString, token_type: t.keyof({ Bearer: null, DPoP: null }), expires_in: NonNegativeInteger },
  { refresh_token: NonEmptyString, scope: t.string, id_token: NonEmptyString },
  'Token response (RFC 6749 §5.1). `expires_in` in seconds; `refresh_token` rotates on every refresh; `scope` is space-separated; `id_token` when `openid` was granted.',
)

/** RFC 7662 §2.2 introspection answer; an inactive token is `{ "active": false }` only. */
export const OidcIntrospectionResponse = struct(
  'OidcIntrospectionResponse',
  { active: t.boolean },
  {
    scope: t.string,
    client_id: t.string,
    username: t.string,
    token_type: t.string,
    exp: NonNegativeInteger,
    iat: NonNegativeInteger,
    nbf: NonNegativeInteger,
    sub: t.string,
    aud: t.union([t.string, Strings]),
    iss: t.string,
    jti: t.string,
    cnf: t.type({ jkt: t.string }),
  },
  'Introspection (RFC 7662 §2.2). When `active` is false no other member is present. `scope` is the space-separated granted scopes; `exp`/`iat`/`nbf` are integer seconds since the Unix epoch. A DPoP-bound token answers `token_type: "DPoP"` and `cnf.jkt`, the thumbprint of its key (RFC 9449 §6.2).',
)

/** A public JSON Web Key (RFC 7517 §4, RFC 7518 §6); private members never appear. */
const Jwk = struct(
  'Jwk',
  { kty: NonEmptyString },
  {
    use: t.string,
    key_ops: Strings,
    alg: t.string,
    kid: t.string,
    x5u: UrlString,
    x5c: Strings,
    x5t: t.string,
    'x5t#S256': t.string,
    crv: t.string,
    x: Base64Url,
    y: Base64Url,
    n: Base64Url,
    e: Base64Url,
  },
)

/** RFC 7517 §5 JWK Set: current and retired public signing keys. */
export const OidcJwksResponse = struct(
  'OidcJwksResponse',
  { keys: t.array(Jwk) },
  {},
  'JWK Set (RFC 7517 §5) of public keys that verify tokens: the current key and retired keys still inside their verification window.',
)

/** OpenID Connect Core §5.3.2 userinfo; claims released according to the token's scopes. */
export const OidcUserinfoResponse = struct(
  'OidcUserinfoResponse',
  { sub: NonEmptyString },
  {
    name: t.string,
    preferred_username: t.string,
    nickname: t.string,
    email: t.string,
    email_verified: t.boolean,
    picture: UrlString,
    profile: UrlString,
    updated_at: NonNegativeInteger,
  },
  'UserInfo claims (OpenID Connect Core §5.1). `sub` always; `preferred_username`, `name` (display name) and `profile` with scope `profile`. `updated_at` is seconds since the Unix epoch.',
)

/** RFC 7009 §2.2 revocation answer: 200 whether or not the token was valid. */
export const OidcRevocationResponse = struct(
  'OidcRevocationResponse',
  {},
  { ok: t.literal(true) },
  'Revocation answer (RFC 7009 §2.2): success even for unknown or already revoked tokens, so the answer reveals nothing about the token.',
)

/** JSON answer of the authorization endpoint when it does not redirect (RFC 6749 §4.1.2, RFC 9207). */
export const OidcResponse = struct(
  'OidcResponse',
  {},
  {
    ok: t.boolean,
    redirectTo: UrlString,
    code: t.string,
    state: t.string,
    iss: UrlString,
    error: t.string,
    error_description: t.string,
  },
  'Authorization endpoint answer. Normally a 302 to the client\'s `redirect_uri`; as JSON it carries the same parameters: `code`, `state`, `iss` (RFC 9207) on success or the RFC 6749 §4.1.2.1 `error`/`error_description` pair, and `redirectTo`, the full redirect target.',
)

/** Create (POST) or revoke (DELETE) a scoped delegated agent token. */
export const OidcAgentTokenRequest = struct(
  'OidcAgentTokenRequest',
  { clientId: NonEmptyString },
  {
    scopes: AgentTokenScopes,
    label: t.string,
    auditLabels: t.record(t.string, t.string),
    expiresIn: NonNegativeInteger,
    tokenId: NonEmptyString,
  },
  'Agent token request. POST: `clientId` names the agent client (MCP, CI, local agent); `scopes` (`cairn:*`, subset of the session\'s), `label` and `auditLabels` are recorded with every use; `expiresIn` in seconds. DELETE: `tokenId` revokes one token, otherwise all of `clientId`\'s tokens.',
)

/** Agent token answer; `accessToken` appears once, at creation. */
export const OidcAgentTokenResponse = struct(
  'OidcAgentTokenResponse',
  { ok: t.literal(true) },
  {
    tokenId: NonEmptyString,
    clientId: NonEmptyString,
    accessToken: NonEmptyString,
    tokenType: t.literal('Bearer'),
    scopes: t.array(NonEmptyString),
    label: t.string,
    auditLabels: t.record(t.string, t.string),
    expiresAt: IsoTimestamp,
    revoked: NonNegativeInteger,
  },
  'Agent token answer. Creation returns `accessToken` exactly once (it is not stored in readable form); revocation returns `revoked`, the number of tokens revoked.',
)

/** Signed key proof that publishes an SDK-created or artifact-restored identity. */
export const CairnIdContinueRequest = struct(
  'CairnIdContinueRequest',
  {
    keyId: NonEmptyString,
    alg: t.keyof({ ES256: null, EdDSA: null }),
    publicKeyRawB64u: Base64Url,
    localUid: NonEmptyString,
    username: NonEmptyString,
    displayName: t.string,
    createdAt: IsoTimestamp,
    challengeB64Url: Base64Url,
    signatureB64Url: Base64Url,
  },
  { email: t.string, origin: t.keyof({ 'sdk-created': null, 'artifact-restored': null }), artifactSha256: Sha256Hex },
  'ID proof publication (docs/identity.md). `signatureB64Url` is the JWS-form signature (64 bytes: Ed25519, or ES256 raw r||s) by the key `publicKeyRawB64u` (raw: uncompressed P-256 point for ES256, 32 bytes for EdDSA/Ed25519) over the UTF-8 RFC 8785 canonical JSON of every other request member plus `"purpose":"cairn.id.continue.v1"` and `"audience"` (the base URL). `keyId` is the RFC 7638 JWK thumbprint of the key. `challengeB64Url` is at least 16 fresh random bytes, usable once; `createdAt` must be within 10 minutes of the server clock. `artifactSha256` identifies the identity artifact a restored identity came from.',
)

const Session = struct('CairnIdSession', { uid: NonEmptyString, email: t.union([t.string, t.null]), username: NonEmptyString, displayName: t.string })

const AccountBinding = struct('AccountBinding', { keyId: NonEmptyString, uid: NonEmptyString }, { boundAt: IsoTimestamp })

/** Result of ID continue: whether an account was created or bound, and where to go next. */
export const CairnIdContinueResponse = struct(
  'CairnIdContinueResponse',
  { ok: t.literal(true), created: t.boolean, bound: t.boolean, next: SitePath, session: Session },
  { accountBindings: t.array(AccountBinding) },
  'ID continue answer. `created`: a new account; `bound`: the key is now bound to `session.uid`; `next`: the path to continue at; `accountBindings`: every key bound to the account.',
)

export const identityComponents = {
  OidcDiscoveryMetadata, OidcTokenForm, OidcTokenResponse, OidcIntrospectionResponse, OidcJwksResponse, OidcUserinfoResponse,
  OidcRevocationResponse, OidcResponse, OidcAgentTokenRequest, OidcAgentTokenResponse, CairnIdContinueRequest, CairnIdContinueResponse,
} as const
