/** Terse builders for the contract table, so each area's file reads like the spec's table. */
import type { ComponentName } from '../components.js'
import type { AuthClass, HttpMethod, OperationSpec, QueryParameter, RequestBody, Tag } from '../operation.js'

type Body<K extends 'json' | 'multipart' | 'form', S extends ComponentName, R extends boolean> = { readonly kind: K; readonly schema: S; readonly required: R }

export const none = { kind: 'none' } as const
export const json = <const S extends ComponentName>(schema: S): Body<'json', S, true> => ({ kind: 'json', schema, required: true })
export const optionalJson = <const S extends ComponentName>(schema: S): Body<'json', S, false> => ({ kind: 'json', schema, required: false })
/**
 * A GET body the spec publishes but the route does not read ("GET+body as published"): optional,
 * accepted whatever it holds, and ignored — the route answers from its credentials and query.
 */
export const ignoredJson = <const S extends ComponentName>(schema: S): Body<'json', S, false> & { readonly ignored: true } => ({ kind: 'json', schema, required: false, ignored: true })
export const multipart = <const S extends ComponentName>(schema: S): Body<'multipart', S, true> => ({ kind: 'multipart', schema, required: true })
export const form = <const S extends ComponentName>(schema: S): Body<'form', S, true> => ({ kind: 'form', schema, required: true })

const NO_QUERY = [] as const

/** The path half of a "METHOD /path" route. */
type PathOf<Route extends string> = Route extends `${HttpMethod} ${infer Path}` ? Path : string

interface Row<Res extends ComponentName, Req extends RequestBody, Query extends readonly QueryParameter[]> {
  readonly auth: AuthClass
  readonly summary: string
  readonly request?: Req
  readonly response: Res
  readonly scopes?: readonly string[]
  readonly query?: Query
  readonly contentType?: 'application/json' | 'image/png'
}

/**
 * An operation whose id, request, query and response are known to the compiler: typed calls in
 * the library, and use cases that receive exactly what the row decodes (core/usecases/operation-types.ts).
 */
export type TypedOperation<Id extends string, Req extends RequestBody, Res extends ComponentName, Query extends readonly QueryParameter[] = readonly [], Path extends string = string> = Omit<OperationSpec, 'operationId' | 'path' | 'request' | 'query' | 'response'> & {
  readonly operationId: Id
  readonly path: Path
  readonly request: Req
  readonly query: Query
  readonly response: { readonly schema: Res; readonly contentType: 'application/json' | 'image/png' }
}

/**
 * One operation: `route` is "METHOD /path" exactly as the spec writes it (`Svc` → `Cairn`).
 *
 * @example operation('Wallet', 'getWalletLedger', 'GET /api/wallet/ledger/public', { auth: 'None', response: 'WalletLedgerFeed', summary: '…' })
 */
export function operation<
  const Id extends string,
  const Res extends ComponentName,
  const Req extends RequestBody = typeof none,
  const Query extends readonly QueryParameter[] = typeof NO_QUERY,
  const Route extends `${HttpMethod} /${string}` = `${HttpMethod} /${string}`,
>(tag: Tag, operationId: Id, route: Route, row: Row<Res, Req, Query>): TypedOperation<Id, Req, Res, Query, PathOf<Route>> {
  const [method, path] = route.split(' ') as [HttpMethod, PathOf<Route>]
  return {
    operationId,
    method,
    path,
    tag,
    auth: row.auth,
    scopes: row.scopes ?? [],
    summary: row.summary,
    request: (row.request ?? none) as Req,
    query: (row.query ?? NO_QUERY) as Query,
    response: { schema: row.response, contentType: row.contentType ?? 'application/json' },
  }
}
