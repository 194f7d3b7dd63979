/**
 * The `cairn_session` cookie: HttpOnly (scripts never see it), SameSite=Lax (not sent on
 * cross-site POSTs), Path = the base URL's path, Secure whenever the base URL is https.
 */
import type { CoreConfig, SetCookie } from '../usecases/use-case.js'
import { basePathOf } from '../config/base-path.js'
import { SESSION_LIFETIME_MS } from './sessions.js'

export const SESSION_COOKIE_NAME = 'cairn_session'
/** Over https: the `__Host-` prefix (RFC 6265bis §4.1.3.2) — Secure, Path=/, no Domain — so a sibling
 * subdomain cannot toss a cookie of this name onto Cairn's host. */
export const HOST_SESSION_COOKIE_NAME = '__Host-cairn_session'

/** The session cookie's name for a deployment. @example sessionCookieName('https://cairn.example') // '__Host-cairn_session' */
export function sessionCookieName(baseUrl: string): string {
  return new URL(baseUrl).protocol === 'https:' ? HOST_SESSION_COOKIE_NAME : SESSION_COOKIE_NAME
}

/**
 * @example sessionCookie({ baseUrl: 'https://cairn.example', deployment: {} }, value) // Secure, Max-Age 604800
 */
export function sessionCookie(config: Pick<CoreConfig, 'baseUrl'>, value: string): SetCookie {
  const secure = new URL(config.baseUrl).protocol === 'https:'
  return {
    name: sessionCookieName(config.baseUrl),
    value,
    maxAgeSeconds: SESSION_LIFETIME_MS / 1000,
    httpOnly: true,
    secure,
    sameSite: 'Lax',
    // `__Host-` cookies must have Path=/.
    path: secure ? '/' : basePathOf(config.baseUrl) || '/',
  }
}

/** The cookie that makes a browser forget its session (sign-out). */
export function clearedSessionCookie(config: Pick<CoreConfig, 'baseUrl'>): SetCookie {
  return { ...sessionCookie(config, ''), maxAgeSeconds: 0 }
}
