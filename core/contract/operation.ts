/**
 * The shape of one row of the contract table. Everything public about an operation lives here:
 * hosts register routes from it, the OpenAPI document is generated from it, tests walk it.
 */
import type * as t from 'io-ts'
import type { ComponentName } from './components.js'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'

/** The spec's authentication classes. */
export type AuthClass = 'None' | 'Session' | 'Bearer' | 'Client' | 'ProofConsent' | 'Business'

/** The spec's areas, in its order. */
export const TAGS = [
  'Discovery', 'Verification', 'Identity', 'Connect', 'Wallet', 'Public Proof', 'Payments',
  'Signal And Sports', 'World', 'Universal Runtime', 'Lawful Economy', 'Production',
] as const
export type Tag = (typeof TAGS)[number]

/**
 * How the request body arrives. `required: false` is the spec's "optional"; `ignored` marks a GET
 * body published by the spec that the route accepts and does not read (docs/decisions.md).
 */
export type RequestBody =
  | { readonly kind: 'none' }
  | { readonly kind: 'json' | 'multipart' | 'form'; readonly schema: ComponentName; readonly required: boolean; readonly ignored?: true }

/**
 * A query parameter (names are gap fills recorded in docs/decisions.md). The type parameters keep
 * each row's name, codec and presence known to the compiler, so use cases receive decoded queries.
 */
export interface QueryParameter<Name extends string = string, Codec extends t.Mixed = t.Mixed, Required extends boolean = boolean> {
  readonly name: Name
  readonly codec: Codec
  readonly required: Required
  readonly description: string
}

export interface OperationSpec {
  /** Stable, verb-first name: the library's typed call and the OpenAPI operationId. */
  readonly operationId: string
  readonly method: HttpMethod
  /** The spec's path with `{param}` placeholders. */
  readonly path: string
  readonly tag: Tag
  readonly auth: AuthClass
  /** Every scope listed must be granted (Bearer and Business tokens). */
  readonly scopes: readonly string[]
  readonly summary: string
  readonly request: RequestBody
  readonly query: readonly QueryParameter[]
  readonly response: { readonly schema: ComponentName; readonly contentType: 'application/json' | 'image/png' }
}

/** Names of the `{param}` placeholders of a path, in order. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)
}
