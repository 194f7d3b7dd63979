/**
 * What the contract table says each operation receives and answers, as types: a use case is typed
 * from its row, so the compiler refuses a use case that disagrees with the contract (a body it does
 * not decode, a query parameter it does not declare, a path parameter the route does not have).
 */
import type * as t from 'io-ts'
import type { ComponentName, ComponentType } from '../contract/components.js'
import type { QueryParameter } from '../contract/operation.js'
import type { OperationId, OperationOf } from '../contract/operations/index.js'

/** The decoded request body: the component's type, `undefined` when optional and absent or when none is declared. */
export type RequestBodyOf<Id extends OperationId> =
  OperationOf<Id>['request'] extends { readonly schema: infer S extends ComponentName; readonly required: infer R }
    ? ComponentType<S> | (R extends true ? never : undefined)
    : undefined

type QueryParametersOf<Id extends OperationId> = OperationOf<Id>['query'][number]
type Flatten<T> = { [K in keyof T]: T[K] }
type DecodedQuery<P extends QueryParameter> = Flatten<
  { readonly [Q in P as Q['required'] extends true ? Q['name'] : never]: t.TypeOf<Q['codec']> } & {
    readonly [Q in P as Q['required'] extends true ? never : Q['name']]?: t.TypeOf<Q['codec']>
  }
>

/** The decoded query: required parameters present, optional ones possibly absent. */
export type QueryOf<Id extends OperationId> = DecodedQuery<QueryParametersOf<Id>>

type PathParameterNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParameterNames<Rest> : never

/** The path's `{param}` placeholders, as strings. */
export type ParamsOf<Id extends OperationId> = { readonly [Name in PathParameterNames<OperationOf<Id>['path']>]: string }

/** A value no one may change: replies are data, and use cases build them from readonly records. */
export type DeepReadonly<T> = T extends readonly (infer Item)[]
  ? readonly DeepReadonly<Item>[]
  : T extends Uint8Array
    ? T
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T

/** The response component's type (a JSON reply's body). */
export type ResponseOf<Id extends OperationId> = DeepReadonly<ComponentType<OperationOf<Id>['response']['schema']>>
