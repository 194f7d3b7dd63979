/** What every page handler needs: the environment, where Cairn lives, and who is signed in. */
import * as E from 'fp-ts/lib/Either.js'
import type { Principal } from '../../../core/auth/principal.js'
import { sessionCookieName } from '../../../core/identity/session-cookie.js'
import type { OperationEnvironment } from '../../../core/usecases/execute-operation.js'
import { readCredentials } from '../read-credentials.js'

export interface PageContext {
  readonly env: OperationEnvironment
  readonly base: URL
  /** The base URL's path without a trailing slash ('' at the root). */
  readonly basePath: string
}

export function pageContext(env: OperationEnvironment): PageContext {
  const base = new URL(env.deps.config.baseUrl)
  return { env, base, basePath: base.pathname.replace(/\/+$/, '') }
}

export type SessionPrincipal = Extract<Principal, { kind: 'session' }>

/** The signed-in session of a page request, or undefined. */
export async function sessionOf(context: PageContext, request: Request): Promise<SessionPrincipal | undefined> {
  await context.env.ready
  const credentials = readCredentials(request.headers, undefined, sessionCookieName(context.env.deps.config.baseUrl))
  if (credentials.sessionCookie === undefined) return undefined
  const principal = await context.env.authenticator.authenticate('Session', [], credentials)
  return E.isRight(principal) && principal.right.kind === 'session' ? principal.right : undefined
}

/**
 * A `next` the pages may send the browser to: a path on Cairn's origin (not `//host`), or an
 * absolute URL on it. Anything else is dropped — the sign-in page is no open redirector.
 */
export function sameOriginTarget(context: PageContext, next: string | null): string | undefined {
  if (!next) return undefined
  try {
    const target = new URL(next, context.base.origin)
    if (target.origin !== context.base.origin) return undefined
    return `${target.pathname}${target.search}`
  } catch {
    return undefined
  }
}

/** A form body of a page POST, bounded. */
export async function readPageForm(request: Request, limitBytes = 16 * 1024): Promise<URLSearchParams | undefined> {
  if (!(request.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded')) return undefined
  const declared = Number(request.headers.get('content-length') ?? '0')
  if (declared > limitBytes) return undefined
  const text = await request.text()
  return text.length > limitBytes ? undefined : new URLSearchParams(text)
}

/** A 303 (See Other): after a POST the browser GETs the target. */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } })
}
