/**
 * `POST <base>/api/oidc/par`: the pushed authorization request endpoint (RFC 9126), outside the
 * 108-operation contract. Client authentication as at the token endpoint (Basic or post, or
 * `client_id` alone for public clients); answers `201 { request_uri, expires_in }`.
 */
import * as E from 'fp-ts/lib/Either.js'
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
  const pushed = await pushAuthorizationRequest(context.env.deps, client, params)
  return E.isLeft(pushed) ? domainErrorResponse(pushed.left, 'Basic') : json(201, pushed.right)
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', pragma: 'no-cache' } })
}
