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
import type { TextGenerator } from '../../ports/text-generator.js'
import type { ImageGenerator } from '../../ports/image-generator.js'
import type { Principal } from '../auth/principal.js'
import type { DomainError } from '../errors/domain-error.js'
import type { DeploymentConfig } from '../config/deployment-config.js'
import type { OperationId } from '../contract/operations/index.js'
import type { ParamsOf, QueryOf, RequestBodyOf, ResponseOf } from './operation-types.js'

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
  /** Creator runs and Live Twin replies; absent: those operations answer 503. @default the deterministic built-in generator (hosts) */
  readonly text?: TextGenerator
  /** Card art; absent: art is drawn by no one and the art operation answers 503. @default the procedural built-in generator (hosts) */
  readonly images?: ImageGenerator
}

/** A request after decoding: every field has its contract type. */
export interface OperationRequest<Body = unknown, Query = Readonly<Record<string, unknown>>, Params = Readonly<Record<string, string>>> {
  readonly params: Params
  readonly query: Query
  readonly body: Body
  readonly principal: Principal
  /** The caller's network address as the host saw it (trusted proxies resolved); absent in-process unless the embedder passes it. */
  readonly clientAddress?: string
}

/** The request an operation's use case receives, typed from its contract row. */
export type RequestOf<Id extends OperationId> = OperationRequest<RequestBodyOf<Id>, QueryOf<Id>, ParamsOf<Id>>

/** What a use case answers; hosts turn it into their transport's response. */
export type Reply =
  | {
      readonly kind: 'json'
      readonly body: unknown
      readonly headers?: Readonly<Record<string, string>>
      readonly cookies?: readonly SetCookie[]
      /** The same answer as raw bytes, for a client that asks `Accept: application/octet-stream` (a sealed file, not base64-inflated). */
      readonly download?: Download
    }
  | {
      readonly kind: 'bytes'
      readonly contentType: string
      readonly bytes: Uint8Array
      /** The same bytes as consecutive parts, when the use case holds them so; hosts then write the parts and never read `bytes` (which may join them lazily). */
      readonly parts?: readonly Uint8Array[]
      readonly headers?: Readonly<Record<string, string>>
    }
  | { readonly kind: 'redirect'; readonly location: string; readonly cookies?: readonly SetCookie[] }
  /**
   * An answer written as it is produced (server-sent events, NDJSON). The host opens it with a
   * signal that aborts when the client goes away, so the work behind it stops.
   */
  | { readonly kind: 'stream'; readonly contentType: string; open(signal: AbortSignal): AsyncIterable<string>; readonly headers?: Readonly<Record<string, string>> }

/** Bytes offered in place of a JSON answer (see `Reply` json `download`). */
export interface Download {
  readonly contentType: string
  readonly bytes: Uint8Array
  /** As `parts` of a bytes reply: present when the file is held as parts (a sealed file around its payload). */
  readonly parts?: readonly Uint8Array[]
  readonly filename: string
  readonly headers?: Readonly<Record<string, string>>
}

export interface SetCookie {
  readonly name: string
  readonly value: string
  readonly maxAgeSeconds: number
  readonly httpOnly: boolean
  readonly secure: boolean
  readonly sameSite: 'Lax' | 'Strict' | 'None'
  readonly path: string
}

/** A redirect reply. */
export type RedirectReply = Extract<Reply, { kind: 'redirect' }>

/** A JSON reply whose body has type `Body`. */
export type JsonReply<Body> = Extract<Reply, { kind: 'json' }> & { readonly body: Body }

/** What an operation may answer: its response component as JSON, or bytes or a redirect. */
export type ReplyOf<Id extends OperationId> = Exclude<Reply, { kind: 'json' }> | JsonReply<ResponseOf<Id>>

/** The use case of one operation: receives what its row decodes, answers what its row declares. */
export type UseCaseFor<Id extends OperationId> = (request: RequestOf<Id>, deps: CoreDeps) => Promise<Either<DomainError, ReplyOf<Id>>>

/** Built operations: the compiler checks each entry against its own row. */
export type UseCaseRegistry = { readonly [Id in OperationId]?: UseCaseFor<Id> }

/** Any use case, as the one dispatch point (executeOperation) calls it after decoding. */
export type UseCase = (request: OperationRequest, deps: CoreDeps) => Promise<Either<DomainError, Reply>>

/** A JSON reply. */
export const json = <const Body>(body: Body, headers?: Readonly<Record<string, string>>): JsonReply<Body> =>
  headers ? { kind: 'json', body, headers } : { kind: 'json', body }
