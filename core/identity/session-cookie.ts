/**
 * The `cairn_session` cookie: HttpOnly (scripts never see it), SameSite=Lax (not sent on
 * cross-site POSTs), Path = the base URL's path, Secure whenever the base URL is https.
 */
import type { CoreConfig, SetCookie } from '../usecases/use-case.js'
import { basePathOf } from '../config/base-path.js'
import { SESSION_LIFETIME_MS } from './sessions.js'

export const SESSION_COOKIE_NAME = 'cairn_session'

/**
 * @example sessionCookie({ baseUrl: 'https://cairn.example', deployment: {} }, value) // Secure, Max-Age 604800
 */
export function sessionCookie(config: Pick<CoreConfig, 'baseUrl'>, value: string): SetCookie {
  return {
    name: SESSION_COOKIE_NAME,
    value,
    maxAgeSeconds: SESSION_LIFETIME_MS / 1000,
    httpOnly: true,
    secure: new URL(config.baseUrl).protocol === 'https:',
    sameSite: 'Lax',
    path: basePathOf(config.baseUrl) || '/',
  }
}

/** The cookie that makes a browser forget its session (sign-out). */
export function clearedSessionCookie(config: Pick<CoreConfig, 'baseUrl'>): SetCookie {
  return { ...sessionCookie(config, ''), maxAgeSeconds: 0 }
}
