/**
 * The embeddable library: `createCairn(options)` composes the core with adapters and gives typed
 * calls for all operations, a standard `fetch` handler and a Node handler, so a team can mount
 * Cairn inside its own server.
 */
import type { Server as HttpServer } from 'node:http'
import { attachLiveUpdates, type LiveUpdateOptions, type LiveUpdates } from '../ws/live-updates.js'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Container } from 'inversify'
import { toNodeHandler } from 'h3'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Credentials } from '../../core/auth/credentials.js'
import { operationsById, type OperationId } from '../../core/contract/operations/index.js'
import type { RequestBodyOf } from '../../core/usecases/operation-types.js'
import type { DomainError } from '../../core/errors/domain-error.js'
import { invalidInput } from '../../core/errors/domain-error.js'
import { quoteInput } from '../../core/errors/quote-input.js'
import { executeOperation, type OperationEnvironment } from '../../core/usecases/execute-operation.js'
import { endSession } from '../../core/identity/sessions.js'
import { unbindKey, type UnbindKeyResult } from '../../core/identity/unbind-key.js'
import { recordConsent, type ConsentInput } from '../../core/oidc/consent.js'
import { collections } from '../../core/usecases/collections.js'
import { useCases } from '../../core/usecases/registry.js'
import type { ReplyOf } from '../../core/usecases/use-case.js'
import { createHttpApp } from '../http/create-http-app.js'
import { BodyBudget } from '../http/body-budget.js'
import { startSweeper } from './sweeper.js'
import type { SweepReport } from '../../core/retention/sweep-expired.js'
import { DEFAULT_IN_FLIGHT_BYTES } from '../http/limits.js'
import { startLogIntegration } from './log-integration-loop.js'
import type { CairnOptions } from './cairn-options.js'
import { composeContainer, resolveAuthenticator, resolveDeps } from './compose.js'
import { selectAdapters } from './select-adapters.js'
import { meteredStore } from '../http/metrics.js'
import { createLogger } from '../http/logger.js'
import { startWebhookWorker } from './webhook-worker.js'
import * as E from 'fp-ts/lib/Either.js'
import { TestPaymentProcessor } from '../../adapters/payments/index.js'
import { notFound, unprocessable } from '../../core/errors/domain-error.js'
import { completeCheckout, issueValue, valueCheckouts, type CheckoutCompletion, type IssueValueInput, type IssuedValue } from '../../core/value/index.js'


/** Input of a typed call; values are as they would arrive over HTTP (query strings are strings). */
export interface CallInput<Id extends OperationId> {
  readonly params?: Readonly<Record<string, string>>
  readonly query?: Readonly<Record<string, string>>
  readonly body?: RequestBodyOf<Id>
  readonly credentials?: Credentials
  /** The caller's network address, when the embedder knows it (per-address limits count it). */
  readonly clientAddress?: string
}

/** A reply whose JSON body has the operation's response type. */
export type TypedReply<Id extends OperationId> = ReplyOf<Id>

export interface Cairn {
  /** The inversify container (ports bound by the tokens in ports/tokens.ts). */
  readonly container: Container
  /** Call an operation in-process, through the same authentication and decoding as HTTP. */
  call<Id extends OperationId>(operationId: Id, input?: CallInput<Id>): Promise<Either<DomainError, TypedReply<Id>>>
  /** Standard fetch handler: `Request` → `Response`. */
  fetch(request: Request): Promise<Response>
  /** Node handler for `node:http` servers (and Express/Connect-style mounts). */
  readonly nodeHandler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>
  /**
   * Record that a signed-in user consents to a third-party client's scopes (docs/oidc.md: consent
   * is given in the embedding application, never by the client itself).
   */
  recordConsent(input: ConsentInput): Promise<Either<DomainError, unknown>>
  /** End a session by its cookie value (sign-out in the embedding application). */
  endSession(sessionCookie: string): Promise<Either<DomainError, { readonly ended: boolean }>>
  /**
   * Complete a checkout session of the built-in test payment processor as if its payer had paid
   * (docs/value.md): the target wallet is credited exactly once.
   */
  completeTestCheckout(sessionId: string): Promise<Either<DomainError, CheckoutCompletion>>
  /** Credit a wallet from the deployment's issuance account (the operator's grant; docs/value.md). */
  issueValue(input: IssueValueInput): Promise<Either<DomainError, IssuedValue>>
  /** Unbind a key from the signed-in account; needs a sign-in within the last 5 minutes (docs/identity.md). */
  unbindKey(sessionCookie: string, keyId: string): Promise<Either<DomainError, UnbindKeyResult>>
  /** One run of the expiry sweeper now; answers how many records of each kind it deleted. */
  sweepExpired(): Promise<SweepReport>
  /** Request body bytes held right now across all HTTP requests (bounded by `limits.inFlightBytes`). */
  inFlightBodyBytes(): number
  /** Run one webhook delivery round now (the worker also runs on its own every 100 ms). */
  deliverWebhooks(): Promise<void>
  /**
   * Serve Live Twin updates over WebSocket at `<base path>/api/world/live` on `server`, the same
   * server the HTTP host answers on (docs/world.md). Closed with the Cairn.
   */
  attachWebSocket(server: HttpServer, options?: LiveUpdateOptions): LiveUpdates
  /** Settles when storage is ready (collections declared); operations wait for it themselves. */
  readonly ready: Promise<void>
  /** Close every adapter (database connections, watchers). */
  close(): Promise<void>
}

/**
 * @example
 * const cairn = createCairn({ baseUrl: 'https://cairn.example' })
 * const reply = await cairn.call('getJwks')
 * http.createServer(cairn.nodeHandler).listen(8787)
 */
export function createCairn(options: CairnOptions = {}): Cairn {
  const selected = options.storage ? selectAdapters(options.storage) : undefined
  const container = composeContainer(options, selected)
  const resolved = resolveDeps(container)
  const deps = options.metrics ? { ...resolved, store: meteredStore(resolved.store, options.metrics) } : resolved
  options.metrics?.watchLog(resolved.store)
  const ready = deps.store.declare(collections)
  const attached: LiveUpdates[] = []
  ready.catch(() => {}) // surfaced to each operation as it awaits `ready`
  const env: OperationEnvironment = { deps, authenticator: resolveAuthenticator(container), useCases, ready }
  const logger = options.logger ?? createLogger()
  const reportError = options.logError ?? ((error: unknown, context: string) => logger.error({ err: error, context }, 'Cairn background work failed'))
  const logLoop = options.logIntegration === false ? undefined : startLogIntegration(deps, ready, { ...(options.logIntegration ?? {}), logError: reportError })
  const sweeper = startSweeper(deps, ready, options.sweep || {}, reportError, options.sweep !== false)
  const budget = new BodyBudget(options.limits?.inFlightBytes ?? DEFAULT_IN_FLIGHT_BYTES, options.metrics?.bodyBytesInFlight)
  const app = createHttpApp({
    env,
    budget,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.logError ? { logError: options.logError } : {}),
    logger,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  })
  const webhooks = startWebhookWorker(deps, ready, options.webhooks ?? {}, reportError)
  return {
    container,
    ready,
    attachWebSocket(server, liveOptions) {
      const live = attachLiveUpdates(server, deps, liveOptions)
      attached.push(live)
      return live
    },
    deliverWebhooks: () => webhooks.runNow().catch((error: unknown) => reportError(error, 'webhook delivery round')),
    inFlightBodyBytes: () => budget.heldBytes,
    sweepExpired: () => sweeper.runNow(),
    async call(operationId, input = {}) {
      const op = operationsById.get(operationId)
      if (!op) return E.left(invalidInput(`Unknown operation ${quoteInput(operationId)}`))
      const result = await executeOperation(
        op,
        { params: input.params ?? {}, query: input.query ?? {}, body: input.body, credentials: input.credentials ?? {}, ...(input.clientAddress === undefined ? {} : { clientAddress: input.clientAddress }) },
        env,
      )
      return result as Either<DomainError, TypedReply<typeof operationId>>
    },
    async recordConsent(input) {
      await ready
      return recordConsent(deps, input)
    },
    async endSession(sessionCookie) {
      await ready
      return endSession(deps, sessionCookie)
    },
    async completeTestCheckout(sessionId) {
      await ready
      const processor = deps.payments
      if (!(processor instanceof TestPaymentProcessor)) return E.left(unprocessable('Only sessions of the test payment processor complete this way'))
      const checkout = await valueCheckouts.get(deps.store, sessionId)
      if (!checkout) return E.left(notFound('No checkout session with this sessionId'))
      return completeCheckout(deps, processor, processor.completion(checkout.value))
    },
    async issueValue(input) {
      await ready
      return issueValue(deps, input)
    },
    async unbindKey(sessionCookie, keyId) {
      await ready
      const principal = await env.authenticator.authenticate('Session', [], { sessionCookie })
      return E.isLeft(principal) ? principal : unbindKey(deps, principal.right, keyId)
    },
    fetch: async (request) => app.fetch(request),
    nodeHandler: toNodeHandler(app) as Cairn['nodeHandler'],
    async close() {
      await Promise.all(attached.splice(0).map((live) => live.close()))
      await sweeper.stop()
      await webhooks.stop()
      await logLoop?.stop()
      await Promise.allSettled([deps.store.close(), deps.blobs.close(), deps.events.close()])
      await selected?.close()
    },
  }
}
