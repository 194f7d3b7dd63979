/** Credentials from the transport: the session cookie, a bearer token, OAuth client authentication. */
import type { Credentials } from '../../core/auth/credentials.js'
import { HttpFailure } from './http-failure.js'

export const SESSION_COOKIE = 'cairn_session'

/**
 * Credentials from the headers alone: everything but a form-posted client secret. HTTP Basic is
 * read only where a client authenticates (`clientAuth`); elsewhere it is ignored, never an error,
 * so a malformed Basic header cannot turn a public operation into a 401.
 */
export function readHeaderCredentials(
  headers: Headers,
  clientAuth: boolean,
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
  const client = clientAuth && scheme.toLowerCase() === 'basic' && value ? basicClient(value.trim()) : undefined
  return {
    ...(sessionCookie !== undefined ? { sessionCookie } : {}),
    ...(bearerToken !== undefined ? { bearerToken, tokenScheme } : {}),
    ...(dpop !== undefined ? { dpop } : {}),
    ...(client !== undefined ? { client } : {}),
  }
}

/**
 * Adds the client credentials of a Client operation's form (RFC 6749 §2.3.1 client_secret_post).
 * One method per request (RFC 6749 §2.3): a client secret in the form beside HTTP Basic is 400
 * `invalid_request`; a `client_id` alone beside Basic is allowed (§4.1.3 lets clients send it).
 */
export function withFormClient(credentials: Credentials, formBody: unknown): Credentials {
  const posted = postClient(formBody)
  if (credentials.client !== undefined) {
    if (posted?.clientSecret !== undefined) {
      throw new HttpFailure(400, 'invalid_request: The client authenticated twice; use HTTP Basic or client_secret in the form, not both (RFC 6749 §2.3)')
    }
    return credentials
  }
  return posted === undefined ? credentials : { ...credentials, client: posted }
}

/**
 * `formBody` is the parsed form of Client operations, where RFC 6749 §2.3.1 allows client_secret_post.
 */
export function readCredentials(
  headers: Headers,
  formBody?: unknown,
  sessionCookieName: string = SESSION_COOKIE,
  request?: { readonly method: string; readonly url: string },
): Credentials {
  const fromHeaders = readHeaderCredentials(headers, true, sessionCookieName, request)
  return formBody === undefined ? fromHeaders : withFormClient(fromHeaders, formBody)
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
