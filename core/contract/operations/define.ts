/** Terse builders for the contract table, so each area's file reads like the spec's table. */
import type { ComponentName } from '../components.js'
import type { AuthClass, HttpMethod, OperationSpec, QueryParameter, RequestBody, Tag } from '../operation.js'

type Body<K extends 'json' | 'multipart' | 'form', S extends ComponentName> = { readonly kind: K; readonly schema: S; readonly required: boolean }

export const none = { kind: 'none' } as const
export const json = <const S extends ComponentName>(schema: S, required = true): Body<'json', S> => ({ kind: 'json', schema, required })
export const optionalJson = <const S extends ComponentName>(schema: S): Body<'json', S> => json(schema, false)
export const multipart = <const S extends ComponentName>(schema: S): Body<'multipart', S> => ({ kind: 'multipart', schema, required: true })
export const form = <const S extends ComponentName>(schema: S): Body<'form', S> => ({ kind: 'form', schema, required: true })

interface Row<Res extends ComponentName, Req extends RequestBody> {
  readonly auth: AuthClass
  readonly summary: string
  readonly request?: Req
  readonly response: Res
  readonly scopes?: readonly string[]
  readonly query?: readonly QueryParameter[]
  readonly contentType?: 'application/json' | 'image/png'
}

/** An operation whose id, request and response schema names are known to the compiler (typed calls). */
export type TypedOperation<Id extends string, Req extends RequestBody, Res extends ComponentName> = OperationSpec & {
  readonly operationId: Id
  readonly request: Req
  readonly response: { readonly schema: Res; readonly contentType: 'application/json' | 'image/png' }
}

/**
 * One operation: `route` is "METHOD /path" exactly as the spec writes it (`Svc` → `Cairn`).
 *
 * @example operation('Wallet', 'getWalletLedger', 'GET /api/wallet/ledger/public', { auth: 'None', response: 'WalletLedgerFeed', summary: '…' })
 */
export function operation<const Id extends string, const Res extends ComponentName, const Req extends RequestBody = typeof none>(
  tag: Tag,
  operationId: Id,
  route: `${HttpMethod} /${string}`,
  row: Row<Res, Req>,
): TypedOperation<Id, Req, Res> {
  const [method, path] = route.split(' ') as [HttpMethod, string]
  return {
    operationId,
    method,
    path,
    tag,
    auth: row.auth,
    scopes: row.scopes ?? [],
    summary: row.summary,
    request: (row.request ?? none) as Req,
    query: row.query ?? [],
    response: { schema: row.response, contentType: row.contentType ?? 'application/json' },
  }
}
