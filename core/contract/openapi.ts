/**
 * The OpenAPI 3.1.0 document, generated from the contract table and the component codecs (never
 * written by hand). Hosts serve it at `GET /api/openapi` and `GET /openapi.json`.
 */
import { componentNames, components } from './components.js'
import { descriptionOf } from './define.js'
import { toJsonSchema, type JsonSchema } from './json-schema.js'
import { operations } from './operations/index.js'
import { pathParameters, TAGS, type AuthClass, type OperationSpec, type Tag } from './operation.js'
import { SCOPES } from './scopes.js'
import { acceptedBodies } from './accepted-bodies.js'
import { SERVICE_TAGS, serviceRoutes, type ServiceRoute } from './service-routes.js'

/** The contract's info version (spec, Versioning 1). */
export const CONTRACT_VERSION = '2026-06-25.v2'

/** The reference document version the contract describes (spec, Versioning 2). */
export const DOCUMENT_VERSION = '129.0.0'

export interface OpenApiOptions {
  /** The one server entry: where this deployment is reached. */
  readonly baseUrl: string
}

/**
 * @example buildOpenApiDocument({ baseUrl: 'http://127.0.0.1:8787' }).openapi // '3.1.0'
 */
export function buildOpenApiDocument(options: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const op of operations) {
    const item = (paths[op.path] ??= {})
    item[op.method.toLowerCase()] = operationObject(op)
  }
  for (const route of serviceRoutes) (paths[route.path] ??= {})[route.method.toLowerCase()] = serviceOperationObject(route)
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cairn API',
      version: CONTRACT_VERSION,
      summary: 'Proof-native artifact service: sealed proof objects are the authority; the service transports, coordinates, verifies, publishes and inspects beneath them.',
      description: `The V124-era contract at OpenAPI document version ${DOCUMENT_VERSION}; per-operation version label v${DOCUMENT_VERSION}. When a response conflicts with exact held sealed bytes, the held bytes win.`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: options.baseUrl }],
    tags: [
      ...TAGS.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
      ...Object.entries(SERVICE_TAGS).map(([name, description]) => ({ name, description, 'x-cairn-outside-contract': true })),
    ],
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: securitySchemes(options.baseUrl),
    },
  }
}

function componentSchemas(): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {}
  for (const [name, codec] of Object.entries(components)) {
    const schema = toJsonSchema(codec, componentNames, codec)
    const description = descriptionOf(codec)
    schemas[name] = description ? { ...schema, description } : schema
  }
  return schemas
}

/** One sentence per area, so a reader of the document (or a generated client) knows what each holds. */
const TAG_DESCRIPTIONS: Readonly<Record<Tag, string>> = {
  Discovery: 'OpenID Connect and OAuth 2.0 authorization-server metadata (RFC 8414).',
  Verification: 'Sealing and verifying documents and assets; the verification conformance report.',
  Identity: 'Cairn ID proofs, sessions, and the OpenID Connect provider: authorize, token, userinfo, JWKS, introspection, revocation, agent tokens.',
  Connect: 'Delegated access for agents and integrations (all Bearer): records, seals and verification on a user\'s behalf.',
  Wallet: 'Public wallet reads and the append-only public action ledger.',
  'Public Proof': 'Public proof registry feeds, transparency-log checkpoints and inclusion proofs.',
  Payments: 'Checkout and embedded payments.',
  'Signal And Sports': 'Signal circuits and sports-card manifests.',
  World: 'Public world reads.',
  'Universal Runtime': 'Runtime (V124) envelopes, authority sessions, artifacts and execution transitions.',
  'Lawful Economy': 'Lawful actions (V125) and their results.',
  Production: 'Business-tier production operations (session or scoped bearer token).',
}

/**
 * Operations that answer a redirect instead of their JSON component: the authorization endpoint
 * sends the browser to the client's redirect URI or to the sign-in page (RFC 6749 §4.1.2).
 */
const REDIRECTS: ReadonlySet<string> = new Set(['authorize'])

const REDIRECT_RESPONSE = {
  description: 'Redirect: to the client\'s redirect_uri with `code` and `state` (or `error`), or to the sign-in page with `next`',
  headers: { Location: { description: 'Where the user agent goes next', schema: { type: 'string', format: 'uri-reference' } } },
}

const ERROR_RESPONSE = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/CairnErrorResponse' } } } }

const PATH_PARAMETER = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string', minLength: 1 } })

function operationObject(op: OperationSpec): Record<string, unknown> {
  const parameters = [
    ...pathParameters(op.path).map(PATH_PARAMETER),
    ...op.query.map((q) => ({ name: q.name, in: 'query', required: q.required, description: q.description, schema: toJsonSchema(q.codec, componentNames) })),
  ]
  const object: Record<string, unknown> = {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    'x-cairn-version': `v${DOCUMENT_VERSION}`,
    'x-cairn-auth': op.auth,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...requestBody(op),
    responses: {
      '200': {
        description: 'Success',
        content: { [op.response.contentType]: { schema: { $ref: `#/components/schemas/${op.response.schema}` } } },
      },
      ...(REDIRECTS.has(op.operationId) ? { '302': REDIRECT_RESPONSE } : {}),
      '4XX': ERROR_RESPONSE,
      '5XX': ERROR_RESPONSE,
    },
  }
  // Open operations say so (`security: []`) rather than leaving it unstated.
  object.security = securityOf(op.auth, op.scopes) ?? []
  return object
}

const MEDIA_TYPES = { json: 'application/json', multipart: 'multipart/form-data', form: 'application/x-www-form-urlencoded' } as const

/**
 * The body an operation accepts. Where the spec names the free-form `GenericCairnRequest`, the
 * body the operation reads is published instead (the spec's name stays in `x-cairn-spec-schema`),
 * so generated clients can send it. A GET's body is never required: the spec's GET+body routes
 * also answer without one.
 */
function requestBody(op: OperationSpec): Record<string, unknown> {
  if (op.request.kind === 'none') return {}
  const accepted = op.request.schema === 'GenericCairnRequest' ? acceptedBodies[op.operationId as keyof typeof acceptedBodies] : undefined
  const schema = accepted
    ? { ...toJsonSchema(accepted, componentNames), 'x-cairn-spec-schema': op.request.schema }
    : { $ref: `#/components/schemas/${op.request.schema}` }
  return {
    requestBody: {
      required: op.request.required && op.method !== 'GET',
      ...(op.request.ignored ? { description: 'Published by the specification for this GET; accepted and ignored: the route answers without a body.' } : {}),
      content: { [MEDIA_TYPES[op.request.kind]]: { schema } },
    },
  }
}

/** A route beside the contract, under its own tag (core/contract/service-routes.ts). */
function serviceOperationObject(route: ServiceRoute): Record<string, unknown> {
  const parameters = [...pathParameters(route.path).map(PATH_PARAMETER), ...(route.query ?? []).map((q) => ({ ...q, in: 'query' }))]
  const success = route.redirect
    ? { '303': { description: 'Redirect to the next page', headers: { Location: { description: 'Where the user agent goes next', schema: { type: 'string', format: 'uri-reference' } } } } }
    : { [route.status ?? '200']: { description: 'Success', content: Object.fromEntries(Object.entries(route.content).map(([type, schema]) => [type, { schema }])) } }
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    'x-cairn-outside-contract': true,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.request ? { requestBody: { required: true, content: { [route.request.mediaType]: { schema: route.request.schema } } } } : {}),
    responses: { ...success, '4XX': ERROR_RESPONSE, '5XX': ERROR_RESPONSE },
    security: [],
  }
}

/** OpenAPI security requirements per auth class; Business accepts either a session or a token. */
function securityOf(auth: AuthClass, scopes: readonly string[]): Record<string, string[]>[] | undefined {
  switch (auth) {
    case 'None':
      return undefined
    case 'Session':
      return [{ cairnSession: [] }]
    case 'Bearer':
      return [{ bearerAuth: [...scopes] }]
    case 'Client':
      return [{ oauthClientAuth: [] }]
    case 'ProofConsent':
      return [{ oauthClientAuth: [] }] // the application authenticates as its client; the proof object and consent travel in the body
    case 'Business':
      return [{ cairnSession: [] }, { bearerAuth: [...scopes] }]
  }
}

function securitySchemes(baseUrl: string): Record<string, unknown> {
  return {
    cairnSession: {
      type: 'apiKey', in: 'cookie', name: new URL(baseUrl).protocol === 'https:' ? '__Host-cairn_session' : 'cairn_session',
      description: 'Session cookie set by `POST /api/auth/cairn-id/continue` (HttpOnly, SameSite=Lax; `__Host-cairn_session`, Secure and Path=/, over https). Sending it twice is refused.',
    },
    bearerAuth: {
      type: 'oauth2',
      description: 'Scoped bearer access token (signed JWT, RFC 9068 profile) from the token endpoint, an agent token, or a proof-authority exchange. DPoP-bound tokens (RFC 9449, `cnf.jkt`) are sent as `Authorization: DPoP <token>` with a `DPoP` proof header.',
      flows: {
        authorizationCode: {
          authorizationUrl: `${baseUrl}/api/oidc/authorize`,
          tokenUrl: `${baseUrl}/api/oidc/token`,
          refreshUrl: `${baseUrl}/api/oidc/token`,
          scopes: SCOPES,
        },
      },
    },
    oauthClientAuth: {
      type: 'http', scheme: 'basic',
      description: 'OAuth client authentication: HTTP Basic (client_secret_basic) or client_id/client_secret in the form body (client_secret_post).',
    },
  }
}
