/**
 * `POST <base>/api/oidc/par`: the pushed authorization request endpoint (RFC 9126), outside the
 * 108-operation contract. Client authentication as at the token endpoint (Basic or post, or
 * `client_id` alone for public clients); a `DPoP` proof header binds the code to its key; answers
 * `201 { request_uri, expires_in }`.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { dpopRefusal, verifyDpopProof } from '../../../core/auth/dpop.js'
import type { DomainError } from '../../../core/errors/domain-error.js'
import { authenticateClient } from '../../../core/auth/client-authentication.js'
import { findClient } from '../../../core/oidc/clients.js'
import { pushAuthorizationRequest } from '../../../core/oidc/pushed-requests.js'
import { readCredentials } from '../read-credentials.js'
import { domainErrorResponse } from '../to-response.js'
import { readPageForm, type PageContext } from './page-context.js'

export async function pushedAuthorizationRequest(context: PageContext, request: Request): Promise<Response> {
  await context.env.ready
  const form = await readPageForm(request, 64 * 1024)
  if (!form) return json(400, { ok: false, error: 'invalid_request', error_description: 'Send the parameters as application/x-www-form-urlencoded (at most 64 KiB)' })
  const params: Record<string, string> = {}
  for (const [name, value] of form) {
    if (Object.hasOwn(params, name)) return json(400, { ok: false, error: 'invalid_request', error_description: `Parameter ${name} must appear once` })
    params[name] = value
  }
  const authenticated = authenticateClient(context.env.deps.config.deployment, readCredentials(request.headers, params).client)
  if (E.isLeft(authenticated) || authenticated.right.kind !== 'client') return domainErrorResponse(E.isLeft(authenticated) ? authenticated.left : { _tag: 'Unauthenticated', message: 'invalid_client' }, 'Basic')
  const client = findClient(context.env.deps, authenticated.right.clientId)!
  const bound = await bindDpopKey(context, request, params)
  if (E.isLeft(bound)) return domainErrorResponse(bound.left, 'Basic')
  const pushed = await pushAuthorizationRequest(context.env.deps, client, bound.right)
  return E.isLeft(pushed) ? domainErrorResponse(pushed.left, 'Basic') : json(201, pushed.right)
}

/**
 * RFC 9449 §10.1: a `DPoP` header on the PAR request binds the code to the proof's key, as
 * `dpop_jkt` does; with both, they must name the same key. The proof is checked as at the token
 * endpoint (htm, htu of this endpoint, iat, single-use jti, the server's nonce).
 */
async function bindDpopKey(context: PageContext, request: Request, params: Readonly<Record<string, string>>): Promise<Either<DomainError, Readonly<Record<string, string>>>> {
  const proof = request.headers.get('dpop') ?? undefined
  if (proof === undefined) return E.right(params)
  const url = `${context.base.origin}${new URL(request.url).pathname}`
  const proven = await verifyDpopProof(context.env.deps, { proof, method: request.method, url }, { at: 'token' })
  if (E.isLeft(proven)) return proven
  if (params.dpop_jkt !== undefined && params.dpop_jkt !== proven.right) {
    return E.left(dpopRefusal({ at: 'token' }, 'invalid_dpop_proof', 'dpop_jkt is not the thumbprint of the DPoP proof\'s key'))
  }
  return E.right({ ...params, dpop_jkt: proven.right })
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', pragma: 'no-cache' } })
}
