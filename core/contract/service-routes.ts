/**
 * The routes Cairn serves beside the 108 operations (the release archive, probes, the transparency
 * log, the proof pages, the sign-in pages), as OpenAPI operations. They carry their own tags, none
 * of the spec's, so "operations under the spec's tags" stays exactly the spec's 108; a test holds
 * this table to the routes the HTTP host registers.
 */
import type { JsonSchema } from './json-schema.js'

export const SERVICE_TAGS = {
  Service: 'The service itself: its OpenAPI document and its release archive (outside the spec\'s 108 operations).',
  Operating: 'Liveness and readiness probes for orchestrators and load balancers.',
  'Transparency Log': 'The append-only Merkle log every public record joins: C2SP checkpoints and tiles, JSON inclusion and consistency proofs.',
  Pages: 'Cairn\'s own HTML pages and their assets: the /verify page, sign-in, consent and logout, the pinned proof keys.',
} as const
export type ServiceTag = keyof typeof SERVICE_TAGS

export interface ServiceRoute {
  readonly operationId: string
  readonly method: 'GET' | 'POST'
  /** OpenAPI path template (`{name}` placeholders). */
  readonly path: string
  readonly tag: ServiceTag
  readonly summary: string
  readonly query?: readonly { readonly name: string; readonly required: boolean; readonly schema: JsonSchema; readonly description: string }[]
  /** Media type → schema of the 200 answer (or the redirect for a form post). */
  readonly content: Readonly<Record<string, JsonSchema>>
  readonly request?: { readonly mediaType: string; readonly schema: JsonSchema }
  /** The answer is a redirect (303) rather than a body. */
  readonly redirect?: boolean
  /** The success status when it is not 200 (PAR answers 201, RFC 9126 §2.2). */
  readonly status?: '201'
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })
const object = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({ type: 'object', properties, required })
const ok = { const: true }
const text = { 'text/plain': { type: 'string' } }
const htmlPage = { 'text/html': { type: 'string' } }
const binary = { 'application/octet-stream': { type: 'string', contentMediaType: 'application/octet-stream' } }
const treeSize = (name: string, required: boolean, description: string) => ({ name, required, schema: { type: 'integer', minimum: 0 }, description })
const jwks = { type: 'array', items: { type: 'object', additionalProperties: true } }
const receipt = object({ ok, leafIndex: { type: 'integer', minimum: 0 }, treeSize: { type: 'integer', minimum: 1 }, checkpoint: { type: 'string', description: 'The signed C2SP checkpoint of a tree of treeSize leaves' }, inclusionProof: { type: 'array', items: { type: 'string', contentEncoding: 'base64' } } })
const openApiDocument = { type: 'object', additionalProperties: true, description: 'This OpenAPI 3.1 document.' }

export const serviceRoutes: readonly ServiceRoute[] = [
  { operationId: 'getOpenApiDocument', method: 'GET', path: '/api/openapi', tag: 'Service', summary: 'This OpenAPI document', content: { 'application/json': openApiDocument } },
  { operationId: 'getOpenApiJson', method: 'GET', path: '/openapi.json', tag: 'Service', summary: 'This OpenAPI document (conventional path)', content: { 'application/json': openApiDocument } },
  { operationId: 'listReleases', method: 'GET', path: '/releases', tag: 'Service', summary: 'The release archive, newest first', content: { 'application/json': object({ ok, latest: { type: 'string' }, releases: { type: 'array', items: ref('ReleaseRecord') } }) } },
  {
    operationId: 'compareReleases', method: 'GET', path: '/releases/compare', tag: 'Service', summary: 'Compare two releases',
    query: [
      { name: 'from', required: true, schema: { type: 'string' }, description: 'The earlier release version, e.g. v108.0.0' },
      { name: 'to', required: false, schema: { type: 'string' }, description: 'The later release version (default: the latest)' },
    ],
    content: { 'application/json': object({ ok, comparison: ref('ReleaseComparison') }) },
  },
  { operationId: 'getRelease', method: 'GET', path: '/releases/{version}', tag: 'Service', summary: 'One release', content: { 'application/json': object({ ok, release: ref('ReleaseRecord') }) } },
  {
    operationId: 'receivePaymentWebhook', method: 'POST', path: '/webhooks/payments/{processor}', tag: 'Service', summary: 'A payment processor\'s signed event (called by the processor, not by clients)',
    request: { mediaType: 'application/json', schema: { type: 'object', additionalProperties: true } },
    content: { 'application/json': object({ ok: { type: 'boolean' } }, ['ok']) },
  },
  { operationId: 'getLiveness', method: 'GET', path: '/healthz', tag: 'Operating', summary: 'Liveness: the process answers', content: { 'application/json': object({ ok, status: { const: 'alive' } }) } },
  { operationId: 'getReadiness', method: 'GET', path: '/readyz', tag: 'Operating', summary: 'Readiness: every port with state can be read now (503 naming the ones that cannot)', content: { 'application/json': object({ ok, status: { const: 'ready' }, ports: { type: 'array', items: { type: 'string' } } }) } },
  { operationId: 'getLogCheckpoint', method: 'GET', path: '/log/checkpoint', tag: 'Transparency Log', summary: 'The current signed checkpoint (C2SP signed note)', content: text },
  {
    operationId: 'getLogKey', method: 'GET', path: '/log/key', tag: 'Transparency Log', summary: 'The log\'s origin and verifier keys',
    content: { 'application/json': object({ ok, origin: { type: 'string' }, verifierKey: { type: 'string' }, verifierKeys: { type: 'array', items: { type: 'string' } }, kid: { type: 'string' }, tileWidth: { type: 'integer' }, hash: { const: 'SHA-256' } }) },
  },
  { operationId: 'getLogTile', method: 'GET', path: '/log/tile/{path}', tag: 'Transparency Log', summary: 'A hash tile or entry bundle (C2SP tlog-tiles; the path has slashes, e.g. 0/000 or entries/000.p/5)', content: binary },
  { operationId: 'getLogInclusionProof', method: 'GET', path: '/log/proof/inclusion', tag: 'Transparency Log', summary: 'Inclusion receipt of a leaf by index', query: [treeSize('index', true, 'The leaf index')], content: { 'application/json': receipt } },
  { operationId: 'getLogInclusionProofByLeafHash', method: 'GET', path: '/log/proof/leaf/{leafHash}', tag: 'Transparency Log', summary: 'Inclusion receipt of a leaf by its hash', content: { 'application/json': receipt } },
  {
    operationId: 'getLogConsistencyProof', method: 'GET', path: '/log/proof/consistency', tag: 'Transparency Log', summary: 'Consistency proof between two tree sizes',
    query: [treeSize('from', true, 'The older tree size'), treeSize('to', false, 'The newer tree size (default: the current one)')],
    content: { 'application/json': object({ ok, from: { type: 'integer' }, to: { type: 'integer' }, checkpoint: { type: 'string' }, consistencyProof: { type: 'array', items: { type: 'string' } } }, ['ok', 'from', 'to', 'consistencyProof']) },
  },
  { operationId: 'getVerifyPage', method: 'GET', path: '/verify', tag: 'Pages', summary: 'The offline verifier page (drop a sealed file)', content: htmlPage },
  { operationId: 'getVerifyPageForCode', method: 'GET', path: '/verify/{code}', tag: 'Pages', summary: 'The verifier page, expecting one seal or record', content: htmlPage },
  { operationId: 'getVerifierScript', method: 'GET', path: '/proof/verifier.js', tag: 'Pages', summary: 'The offline verifier, bundled for browsers', content: { 'text/javascript': { type: 'string' } } },
  { operationId: 'getProofKeys', method: 'GET', path: '/proof/keys', tag: 'Pages', summary: 'The proof and log keys to pin (`cairn verify --trust`)', content: { 'application/json': object({ keys: jwks, logKeys: jwks }) } },
  { operationId: 'getLoginPage', method: 'GET', path: '/login', tag: 'Pages', summary: 'Sign in with a Cairn ID proof', content: htmlPage },
  { operationId: 'getConsentPage', method: 'GET', path: '/consent', tag: 'Pages', summary: 'Consent to a client\'s requested scopes', content: htmlPage },
  { operationId: 'submitConsent', method: 'POST', path: '/consent', tag: 'Pages', summary: 'The consent form\'s answer', request: { mediaType: 'application/x-www-form-urlencoded', schema: { type: 'object', additionalProperties: { type: 'string' } } }, content: {}, redirect: true },
  { operationId: 'getLogoutPage', method: 'GET', path: '/logout', tag: 'Pages', summary: 'RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0)', content: htmlPage },
  { operationId: 'submitLogout', method: 'POST', path: '/logout', tag: 'Pages', summary: 'The logout form\'s answer', request: { mediaType: 'application/x-www-form-urlencoded', schema: { type: 'object', additionalProperties: { type: 'string' } } }, content: {}, redirect: true },
  {
    operationId: 'pushAuthorizationRequest', method: 'POST', path: '/api/oidc/par', tag: 'Pages', summary: 'Pushed authorization request (RFC 9126)',
    request: { mediaType: 'application/x-www-form-urlencoded', schema: { type: 'object', additionalProperties: { type: 'string' } } },
    status: '201', content: { 'application/json': object({ request_uri: { type: 'string' }, expires_in: { type: 'integer' } }) },
  },
]
