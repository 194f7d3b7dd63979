/**
 * What a use case is: a function of a decoded request and the ports, answering a reply or a
 * domain error. Adding an operation's behaviour means writing one of these and wiring one line in
 * `registry.ts`.
 */
import type { Either } from 'fp-ts/lib/Either.js'
import type { BlobStore } from '../../ports/blob-store.js'
import type { Clock } from '../../ports/clock.js'
import type { Entropy } from '../../ports/entropy.js'
import type { EventBus } from '../../ports/event-bus.js'
import type { KeyStore } from '../../ports/key-store.js'
import type { Store } from '../../ports/store.js'
import type { PaymentProcessor } from '../../ports/payment-processor.js'
import type { Principal } from '../auth/principal.js'
import type { DomainError } from '../errors/domain-error.js'
import type { DeploymentConfig } from '../config/deployment-config.js'

/** Deployment settings the core reads. */
export interface CoreConfig {
  /** Public base URL (OIDC issuer, OpenAPI server, links), without a trailing slash. */
  readonly baseUrl: string
  /** OAuth clients and Business-tier accounts (`CAIRN_CONFIG`). */
  readonly deployment: DeploymentConfig
}

/** The ports a use case may use. */
export interface CoreDeps {
  readonly clock: Clock
  readonly entropy: Entropy
  readonly store: Store
  readonly blobs: BlobStore
  readonly events: EventBus
  readonly keys: KeyStore
  readonly config: CoreConfig
  /** Checkout's payment processor; absent: checkout answers 503. @default the test processor (hosts) */
  readonly payments?: PaymentProcessor
}

/** A request after decoding: every field has its contract type. */
export interface OperationRequest<Body = unknown, Query = Record<string, unknown>> {
  readonly params: Readonly<Record<string, string>>
  readonly query: Query
  readonly body: Body
  readonly principal: Principal
}

/** What a use case answers; hosts turn it into their transport's response. */
export type Reply =
  | { readonly kind: 'json'; readonly body: unknown; readonly headers?: Readonly<Record<string, string>>; readonly cookies?: readonly SetCookie[] }
  | { readonly kind: 'bytes'; readonly contentType: string; readonly bytes: Uint8Array; readonly headers?: Readonly<Record<string, string>> }
  | { readonly kind: 'redirect'; readonly location: string; readonly cookies?: readonly SetCookie[] }

export interface SetCookie {
  readonly name: string
  readonly value: string
  readonly maxAgeSeconds: number
  readonly httpOnly: boolean
  readonly secure: boolean
  readonly sameSite: 'Lax' | 'Strict' | 'None'
  readonly path: string
}

export type UseCase = (request: OperationRequest, deps: CoreDeps) => Promise<Either<DomainError, Reply>>

/** A JSON reply. */
export const json = (body: unknown, headers?: Readonly<Record<string, string>>): Reply => (headers ? { kind: 'json', body, headers } : { kind: 'json', body })
