/**
 * `POST <base>/login/link`: the sign-in page's way back for a browser holding none of an
 * account's keys. The body is `{ code, request }`: a link code made on a signed-in device
 * (core/identity/link-codes.ts) and the ID-continue request this browser's new key signed; the key
 * is bound and the browser signed in exactly as `POST /api/auth/cairn-id/continue` would, with the
 * code used up in the same commit. Accepted only from this origin's pages.
 */
import * as E from 'fp-ts/lib/Either.js'
import { components } from '../../../core/contract/components.js'
import { formatDecodeErrors } from '../../../core/errors/decode-errors.js'
import { invalidInput, forbidden, payloadTooLarge } from '../../../core/errors/domain-error.js'
import { continueWithLinkCode } from '../../../core/identity/continue-cairn-id.js'
import { domainErrorResponse, replyResponse } from '../to-response.js'
import type { PageContext } from './page-context.js'

export const LINK_PATH = '/login/link'
const MAX_BODY_BYTES = 16 * 1024

export async function linkBrowser(context: PageContext, request: Request): Promise<Response> {
  if (request.headers.get('origin') !== context.base.origin) return domainErrorResponse(forbidden('A link may only be sent from Cairn\'s own sign-in page'))
  await context.env.ready
  const text = await request.text()
  if (text.length > MAX_BODY_BYTES) return domainErrorResponse(payloadTooLarge(`The body must be at most ${MAX_BODY_BYTES} bytes`))
  let body: { code?: unknown; request?: unknown }
  try {
    body = JSON.parse(text) as typeof body
  } catch {
    return domainErrorResponse(invalidInput('The body is not valid JSON'))
  }
  if (typeof body?.code !== 'string' || body.code.length === 0 || body.code.length > 32) return domainErrorResponse(invalidInput('code must be the link code shown on your signed-in device'))
  const continued = components.CairnIdContinueRequest.decode(body.request)
  if (E.isLeft(continued)) return domainErrorResponse(invalidInput(formatDecodeErrors(continued.left, 'request')))
  const answer = await continueWithLinkCode({ params: {}, query: {}, body: continued.right as never, principal: { kind: 'anonymous' } }, context.env.deps, body.code)
  return E.isLeft(answer) ? domainErrorResponse(answer.left) : replyResponse(answer.right)
}
