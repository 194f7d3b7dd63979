/** `GET /api/sdk/v1/auth/granted-scopes`: the scopes the calling application's token carries, exactly. */
import * as E from 'fp-ts/lib/Either.js'
import { json, type UseCaseFor } from '../usecases/use-case.js'
import { runtimeCaller } from './runtime-caller.js'

/** @example await getGrantedScopes({ principal: bearer, params: {}, query: {}, body: undefined }, deps) */
export const getGrantedScopes: UseCaseFor<'getGrantedScopes'> = async (request) => {
  const caller = runtimeCaller(request.principal)
  if (E.isLeft(caller)) return caller
  return E.right(
    json({ ok: true, schema: 'cairn.granted_scopes.v1', applicationId: caller.right.applicationId, grantedScopes: [...caller.right.scopes] }, { 'cache-control': 'no-store' }),
  )
}
