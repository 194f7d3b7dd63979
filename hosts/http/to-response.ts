/** Replies and refusals as Web Responses, always in the contract's shapes. */
import type { Reply, SetCookie } from '../../core/usecases/use-case.js'
import { httpStatusOf, type DomainError } from '../../core/errors/domain-error.js'

const JSON_TYPE = 'application/json; charset=utf-8'

/** The error body every 4XX/5XX carries: `{ ok: false, error }`. */
export function errorResponse(status: number, message: string, headers: Readonly<Record<string, string>> = {}): Response {
  return new Response(JSON.stringify({ ok: false, error: message }), {
    status,
    headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', ...headers },
  })
}

export function domainErrorResponse(error: DomainError): Response {
  const headers: Record<string, string> = error._tag === 'RateLimited' ? { 'retry-after': String(error.retryAfterSeconds) } : {}
  if (error._tag === 'Unauthenticated') headers['www-authenticate'] = 'Bearer realm="cairn"'
  return errorResponse(httpStatusOf(error), error.message, headers)
}

export function replyResponse(reply: Reply): Response {
  switch (reply.kind) {
    case 'json': {
      const headers = new Headers({ 'content-type': JSON_TYPE, ...reply.headers })
      for (const cookie of reply.cookies ?? []) headers.append('set-cookie', serializeCookie(cookie))
      return new Response(JSON.stringify(reply.body), { status: 200, headers })
    }
    case 'bytes':
      return new Response(reply.bytes as BodyInit, { status: 200, headers: { 'content-type': reply.contentType, ...reply.headers } })
    case 'redirect': {
      const headers = new Headers({ location: reply.location, 'cache-control': 'no-store' })
      for (const cookie of reply.cookies ?? []) headers.append('set-cookie', serializeCookie(cookie))
      return new Response(null, { status: 302, headers })
    }
  }
}

function serializeCookie(cookie: SetCookie): string {
  const parts = [`${cookie.name}=${cookie.value}`, `Path=${cookie.path}`, `Max-Age=${cookie.maxAgeSeconds}`, `SameSite=${cookie.sameSite}`]
  if (cookie.httpOnly) parts.push('HttpOnly')
  if (cookie.secure) parts.push('Secure')
  return parts.join('; ')
}
