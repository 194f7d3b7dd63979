/**
 * What a call of each operation sends and answers, derived from the contract table by types alone
 * (no per-operation code): the body is the row's request component (or, where the spec names the
 * free-form GenericCairnRequest, the body the operation reads), the answer its response component.
 */
import type * as t from 'io-ts'
import type { AcceptedBodies } from '../core/contract/accepted-bodies.js'
import type { ComponentType } from '../core/contract/components.js'
import type { UploadedFileValue } from '../core/contract/primitives.js'
import type { OperationId, OperationOf } from '../core/contract/operations/index.js'
import type { ParamsOf, QueryOf, ResponseOf } from '../core/usecases/operation-types.js'

export type { OperationId }

/** A file part: a Blob (File in browsers) or bytes with a name and media type. */
export type FilePart = Blob | { readonly bytes: Uint8Array; readonly filename: string; readonly mimeType?: string }

type MultipartOf<C> = { readonly [K in keyof C]: NonNullable<C[K]> extends UploadedFileValue ? FilePart : string }

type Row<Id extends OperationId> = OperationOf<Id>['request']

/** The body an operation accepts on the wire. */
export type BodyOf<Id extends OperationId> = Id extends keyof AcceptedBodies
  ? t.OutputOf<AcceptedBodies[Id]>
  : Row<Id> extends { readonly kind: 'multipart'; readonly schema: infer S extends keyof import('../core/contract/components.js').Components }
    ? MultipartOf<ComponentType<S>>
    : Row<Id> extends { readonly kind: 'form'; readonly schema: infer S extends keyof import('../core/contract/components.js').Components }
      ? { readonly [K in keyof ComponentType<S>]: ComponentType<S>[K] extends string | undefined ? ComponentType<S>[K] : string }
      : Row<Id> extends { readonly schema: infer S extends keyof import('../core/contract/components.js').Components }
        ? ComponentType<S>
        : never

type BodyRequired<Id extends OperationId> = Row<Id> extends { readonly required: true } ? (OperationOf<Id>['method'] extends 'GET' ? false : true) : false
type HasBody<Id extends OperationId> = Row<Id> extends { readonly kind: 'none' } ? false : true
type NoKeys<T> = keyof T extends never ? true : false
type QueryInput<Id extends OperationId> = { readonly [K in keyof QueryOf<Id>]: QueryOf<Id>[K] | string }

/** The input of one call: path parameters, query and body where the row has them. */
export type CallInput<Id extends OperationId> = (NoKeys<ParamsOf<Id>> extends true ? { readonly params?: undefined } : { readonly params: ParamsOf<Id> }) &
  (NoKeys<QueryOf<Id>> extends true ? { readonly query?: undefined } : { readonly query?: QueryInput<Id> }) &
  (HasBody<Id> extends false ? { readonly body?: undefined } : BodyRequired<Id> extends true ? { readonly body: BodyOf<Id> } : { readonly body?: BodyOf<Id> }) & {
    /** Sent as `Idempotency-Key`; with one, a POST is retried like a GET. */
    readonly idempotencyKey?: string
    readonly headers?: Readonly<Record<string, string>>
    readonly signal?: AbortSignal
    /** The audience (or any of the audiences) a signed runtime answer must be bound to (default: the request's challenge, its `audience`, or its application). */
    readonly expectAudience?: string | readonly string[]
  }

/** Whether an operation's input may be omitted entirely. */
export type InputOptional<Id extends OperationId> = NoKeys<ParamsOf<Id>> extends true ? (BodyRequired<Id> extends true ? false : true) : false

/** The answer of an operation: its response component, the bytes of a PNG, or where the authorization endpoint redirects. */
export type AnswerOf<Id extends OperationId> = Id extends 'authorize'
  ? { readonly location: string }
  : OperationOf<Id>['response']['contentType'] extends 'image/png' ? Uint8Array : ResponseOf<Id>
