/**
 * The h3 host: one route per row of the contract table, each running the same pipeline —
 * read credentials and body within limits, execute the operation in the core, answer in the
 * contract's shapes. Unknown paths answer 404 and known paths with another method 405, both as
 * `{ ok: false, error }`; nothing internal reaches a client. Routes are mounted under the path
 * of the configured base URL.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { H3, getRouterParams, type H3Event } from 'h3'
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { DomainError } from '../../core/errors/domain-error.js'
import type { Reply } from '../../core/usecases/use-case.js'
import type { OperationSpec } from '../../core/contract/operation.js'
import { operations } from '../../core/contract/operations/index.js'
import { executeOperation, type OperationEnvironment } from '../../core/usecases/execute-operation.js'
import { PortUnavailableError } from '../../ports/errors.js'
import { quoteInput } from '../../core/errors/quote-input.js'
import { clientAddressOf } from '../../core/rate-limit/client-address.js'
import { HttpFailure } from './http-failure.js'
import { DEFAULT_BODY_LIMITS, DEFAULT_IN_FLIGHT_BYTES, type BodyLimits } from './limits.js'
import { hasBody, readBody, readLimited, type BodySource } from './read-body.js'
import { receivePaymentWebhook } from '../../core/value/checkout-webhook.js'
import { readHeaderCredentials, withFormClient } from './read-credentials.js'
import { BodyBudget } from './body-budget.js'
import type { AuthClass } from '../../core/contract/operation.js'
import { sessionCookieName } from '../../core/identity/session-cookie.js'
import { domainErrorResponse, errorResponse, negotiate, replyResponse } from './to-response.js'
import { publicRoutes, type PublicRoute } from './public-routes.js'
import { operatingRoutes } from './operating-routes.js'
import { headOf } from './head-response.js'
import { createLogger, requestIdOf, type CairnLogger } from './logger.js'
import type { CairnMetrics } from './metrics.js'
import { interactionRoutes } from './pages/interaction-routes.js'
import { operatorRoutes } from './operator-routes.js'

export interface HttpAppOptions {
  readonly env: OperationEnvironment
  /** @default DEFAULT_BODY_LIMITS */
  readonly limits?: BodyLimits
  /** Structured JSON logs (a pino logger, or anything with info/warn/error). @default createLogger(): JSON lines on stdout */
  readonly logger?: CairnLogger
  /**
   * Where unexpected failures are reported (never to the client); wins over `logger` for them.
   * @default logger.error({ err, context, requestId }, …)
   */
  readonly logError?: (error: unknown, context: string, requestId?: string) => void
  /** Request counts and latencies per operation and status (metrics.ts). @default none: off */
  readonly metrics?: CairnMetrics
  /** Body bytes in flight across all requests. @default a budget of `limits.inFlightBytes` */
  readonly budget?: BodyBudget
}

/**
 * @example const app = createHttpApp({ env }); const res = await app.fetch(new Request('http://x/api/openapi'))
 */
export function createHttpApp(options: HttpAppOptions): H3 {
  const limits = options.limits ?? DEFAULT_BODY_LIMITS
  const budget = options.budget ?? new BodyBudget(limits.inFlightBytes ?? DEFAULT_IN_FLIGHT_BYTES, options.metrics?.bodyBytesInFlight)
  const logError =
    options.logError ??
    ((logger: CairnLogger) => (error: unknown, context: string, requestId?: string) => logger.error({ err: error, context, requestId }, 'Cairn could not complete a request'))(
      options.logger ?? createLogger(),
    )
  const metrics = options.metrics
  const app = new H3({
    // h3's own refusals (malformed URLs…) keep the contract's error shape and never leak details.
    onError: (error) => errorResponse(error.status >= 400 && error.status < 500 ? error.status : 500, error.status < 500 ? 'The request is malformed' : 'Cairn could not complete the request'),
  })

  // Routes live under the base URL's path, so `https://example.com/cairn` mounts Cairn at /cairn.
  const basePath = new URL(options.env.deps.config.baseUrl).pathname.replace(/\/+$/, '')
  const methodsByPath = new Map<string, Set<string>>()
  const register = (method: string, path: string, handle: (event: H3Event) => Response | Promise<Response>, label?: string) => {
    const route = basePath + path.replace(/\{([^}]+)\}/g, ':$1')
    const answer = metrics ? observed(metrics, label ?? path, handle) : handle
    for (const verb of method === 'GET' ? ['GET', 'HEAD'] : [method]) {
      methodsByPath.set(route, (methodsByPath.get(route) ?? new Set()).add(verb))
      const respond = verb === 'HEAD' ? (event: H3Event) => headOf(answer(event)) : answer
      app.on(verb as 'GET', route, (event) => guard(`${verb} ${path}`, event, () => respond(event)))
    }
  }

  const refusal = (error: unknown, context: string, event: H3Event): Response => {
    if (error instanceof HttpFailure) return errorResponse(error.status, error.message, error.headers)
    const requestId = requestIdOf(event.req.headers)
    logError(error, context, requestId)
    if (error instanceof PortUnavailableError) {
      return errorResponse(503, 'A storage or upstream service is unavailable; try again later', { 'retry-after': '5', 'x-request-id': requestId })
    }
    return errorResponse(500, 'Cairn could not complete the request', { 'x-request-id': requestId })
  }

  // A handler that answers synchronously is answered synchronously: on Node, a response written in
  // a later microtask costs h3 about 40% of its throughput (bench/README.md).
  const guard = (context: string, event: H3Event, run: () => Response | Promise<Response>): Response | Promise<Response> => {
    try {
      const response = run()
      return response instanceof Promise ? response.catch((error: unknown) => refusal(error, context, event)) : response
    } catch (error) {
      return refusal(error, context, event)
    }
  }

  // Constant for the app's life: worked out once, not on every request.
  const operation: OperationContext = {
    env: options.env,
    limits,
    budget,
    cookieName: sessionCookieName(options.env.deps.config.baseUrl),
    publicOrigin: new URL(options.env.deps.config.baseUrl).origin,
  }
  for (const op of operations) register(op.method, op.path, (event) => handleOperation(op, event, operation), op.operationId)
  for (const route of [...publicRoutes(options.env), ...operatingRoutes(options.env, logError)]) register(route.method, route.path, (event) => handlePublicRoute(route, event))
  register('POST', '/webhooks/payments/{processor}', (event) => handlePaymentWebhook(event, options.env, limits, budget))
  for (const route of [...interactionRoutes(options.env), ...operatorRoutes(options.env)]) register(route.method, route.path, (event) => route.handle(event.req))

  for (const [route, methods] of methodsByPath) {
    const allow = [...methods].join(', ')
    app.all(route, () => errorResponse(405, `This path does not accept that method; allowed: ${allow}`, { allow }))
  }
  app.all('/**', (event) => errorResponse(404, `No route for ${event.req.method} ${quoteInput(event.url.pathname)}`))
  return app
}

/** What every operation's handler shares. */
interface OperationContext {
  readonly env: OperationEnvironment
  readonly limits: BodyLimits
  readonly budget: BodyBudget
  /** `cairn_session`, or `__Host-cairn_session` over https. */
  readonly cookieName: string
  readonly publicOrigin: string
}

/** Auth classes whose credentials are all in the headers: checked before a byte of body is read. */
const CHECKED_BEFORE_BODY: ReadonlySet<AuthClass> = new Set(['Session', 'Bearer', 'Business'])

/**
 * Credentials first (docs/identity.md): an operation that needs a session or a token refuses a
 * caller without a valid one before reading its body. Client operations are the exception — a
 * client may authenticate inside its (small, form) body. Body bytes are leased from the shared
 * budget until the answer is ready.
 */
async function handleOperation(op: OperationSpec, event: H3Event, { env, limits, budget, cookieName, publicOrigin }: OperationContext): Promise<Response> {
  // The ProofConsent exchange is called by the application itself, which authenticates as its client.
  const clientAuth = op.auth === 'Client' || op.auth === 'ProofConsent'
  const challenge = clientAuth ? 'Basic' : 'Bearer'
  const source = bodySource(event)
  const sent = op.request.kind !== 'none' && (source.node ? hasBody(source.headers) : source.body !== null)
  // The request as a DPoP proof names it (RFC 9449 §4.3): the public origin of the base URL and this path.
  const dpopTarget = { method: event.req.method, url: `${publicOrigin}${event.url.pathname}` }
  let credentials = readHeaderCredentials(source.headers, clientAuth, cookieName, dpopTarget)
  let runEnv = env
  if (sent && CHECKED_BEFORE_BODY.has(op.auth)) {
    await env.ready
    const principal = await env.authenticator.authenticate(op.auth, op.scopes, credentials)
    // Node discards the unread body after the answer (memory is never held for it).
    if (E.isLeft(principal)) return domainErrorResponse(principal.left, challenge)
    runEnv = { ...env, authenticator: { authenticate: async () => principal } }
  }
  const lease = budget.lease()
  try {
    const body = await readBody(source, op.request, limits, lease)
    if (op.auth === 'Client') credentials = withFormClient(credentials, body)
    const clientAddress = clientAddressOf(source.node?.socket.remoteAddress, source.headers.get('x-forwarded-for'), env.deps.config.deployment.network?.trustedProxies ?? [])
    const result = await executeOperation(op, { params: decodedParams(event), query: queryOf(event), body, credentials, ...(clientAddress === undefined ? {} : { clientAddress }) }, runEnv)
    return E.isLeft(result) ? domainErrorResponse(result.left, challenge) : replyResponse(negotiate(result.right, event.req.headers.get('accept')), result.right.kind === 'stream' ? goneSignal(event) : undefined)
  } finally {
    lease.release()
  }
}

function handlePublicRoute(route: PublicRoute, event: H3Event): Response | Promise<Response> {
  const result = route.handle({ params: decodedParams(event), query: queryOf(event) })
  return result instanceof Promise ? result.then(publicRouteResponse) : publicRouteResponse(result)
}

const publicRouteResponse = (answer: Either<DomainError, Reply>): Response => (E.isLeft(answer) ? domainErrorResponse(answer.left) : replyResponse(answer.right))

/** A payment processor's webhook: the exact bytes are what its signature covers (docs/value.md). */
async function handlePaymentWebhook(event: H3Event, env: OperationEnvironment, limits: BodyLimits, budget: BodyBudget): Promise<Response> {
  await env.ready
  const lease = budget.lease()
  try {
    const bytes = await readLimited(bodySource(event), limits.jsonBytes, lease)
    const headers = Object.fromEntries(event.req.headers)
    const result = await receivePaymentWebhook(env.deps, decodedParams(event)['processor'] ?? '', new TextDecoder().decode(bytes), headers)
    return E.isLeft(result) ? domainErrorResponse(result.left) : replyResponse(result.right)
  } finally {
    lease.release()
  }
}

/**
 * Where the body comes from. On Node, the IncomingMessage itself (for every method: Web Requests
 * never carry a GET body, and reading Node's stream lets a refusal be written before the
 * connection closes); elsewhere (`app.fetch`) the Request's stream.
 */
function bodySource(event: H3Event): BodySource {
  const headers = event.req.headers
  const node = (event.req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req
  return node ? { headers, body: null, node } : { headers, body: event.req.body }
}

/** Aborts when a Node client's connection closes before its answer was written in full. */
function goneSignal(event: H3Event): AbortSignal | undefined {
  const response = (event.req as { runtime?: { node?: { res?: ServerResponse } } }).runtime?.node?.res
  if (!response) return undefined
  const gone = new AbortController()
  response.once('close', () => { if (!response.writableFinished) gone.abort() })
  return gone.signal
}

function decodedParams(event: H3Event): Record<string, string> {
  return getRouterParams(event, { decode: true }) as Record<string, string>
}

/** Query values: a string, or the list when a name repeats (the core refuses repeats). */
function queryOf(event: H3Event): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {}
  const url = event.req.url
  const at = url.indexOf('?')
  if (at === -1) return query // the common case: no URL parsing at all
  for (const [key, value] of new URLSearchParams(url.slice(at + 1))) {
    const prior = query[key]
    query[key] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value]
  }
  return query
}

/** The handler, its answers counted and timed (a throw counts as the 500 the guard will answer). */
function observed(metrics: CairnMetrics, operation: string, handle: (event: H3Event) => Response | Promise<Response>) {
  return (event: H3Event): Response | Promise<Response> => {
    const started = performance.now()
    const done = (status: number) => metrics.observeRequest(operation, event.req.method, status, (performance.now() - started) / 1000)
    try {
      const response = handle(event)
      if (!(response instanceof Promise)) {
        done(response.status)
        return response
      }
      return response.then(
        (answer) => (done(answer.status), answer),
        (error: unknown) => {
          done(error instanceof HttpFailure ? error.status : error instanceof PortUnavailableError ? 503 : 500)
          throw error
        },
      )
    } catch (error) {
      done(error instanceof HttpFailure ? error.status : error instanceof PortUnavailableError ? 503 : 500)
      throw error
    }
  }
}
