/** Credentials from the transport: the session cookie, a bearer token, OAuth client authentication. */
import type { Credentials } from '../../core/auth/credentials.js'
import { HttpFailure } from './http-failure.js'

export const SESSION_COOKIE = 'cairn_session'

/**
 * `formBody` is the parsed form of Client operations, where RFC 6749 §2.3.1 allows client_secret_post.
 */
export function readCredentials(
  headers: Headers,
  formBody?: unknown,
  sessionCookieName: string = SESSION_COOKIE,
  request?: { readonly method: string; readonly url: string },
): Credentials {
  const sessionCookie = readCookie(headers.get('cookie'), sessionCookieName)
  const authorization = headers.get('authorization') ?? ''
  const [scheme, value] = splitOnce(authorization.trim(), ' ')
  const tokenScheme = scheme.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer'
  const bearerToken = (scheme.toLowerCase() === 'bearer' || tokenScheme === 'DPoP') && value ? value.trim() : undefined
  const proof = headers.get('dpop') ?? undefined
  const dpop = request && (proof !== undefined || tokenScheme === 'DPoP') ? { proof, method: request.method, url: request.url } : undefined
  const client = scheme.toLowerCase() === 'basic' && value ? basicClient(value.trim()) : postClient(formBody)
  return {
    ...(sessionCookie !== undefined ? { sessionCookie } : {}),
    ...(bearerToken !== undefined ? { bearerToken, tokenScheme } : {}),
    ...(dpop !== undefined ? { dpop } : {}),
    ...(client !== undefined ? { client } : {}),
  }
}

/**
 * The one cookie of that name. Two (one tossed from a sibling subdomain or a wider path) are
 * refused: which one the browser sent first says nothing about which is the user's.
 */
function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined
  let found: string | undefined
  for (const part of header.split(';')) {
    const [key, value] = splitOnce(part.trim(), '=')
    if (key !== name) continue
    if (found !== undefined) throw new HttpFailure(400, `The request carries more than one ${name} cookie; clear this site's cookies and sign in again`)
    found = value ?? ''
  }
  return found || undefined
}

/** RFC 6749 §2.3.1: Basic credentials are form-urlencoded before base64. */
function basicClient(encoded: string): Credentials['client'] {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8')
  const [id, secret] = splitOnce(decoded, ':')
  if (!id || secret === undefined) throw new HttpFailure(401, 'The Basic client credentials are malformed')
  try {
    return { clientId: decodeURIComponent(id.replace(/\+/g, ' ')), clientSecret: decodeURIComponent(secret.replace(/\+/g, ' ')), method: 'basic' }
  } catch {
    throw new HttpFailure(401, 'The Basic client credentials are malformed')
  }
}

function postClient(form: unknown): Credentials['client'] {
  if (typeof form !== 'object' || form === null) return undefined
  const { client_id: clientId, client_secret: clientSecret } = form as Record<string, unknown>
  if (typeof clientId !== 'string' || clientId === '') return undefined
  return { clientId, ...(typeof clientSecret === 'string' ? { clientSecret } : {}), method: 'post' }
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator)
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + separator.length)]
}
