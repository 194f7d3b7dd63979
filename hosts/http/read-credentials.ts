/** Credentials from the transport: the session cookie, a bearer token, OAuth client authentication. */
import type { Credentials } from '../../core/auth/credentials.js'
import { HttpFailure } from './http-failure.js'

export const SESSION_COOKIE = 'cairn_session'

/**
 * Credentials from the headers alone: everything but a form-posted client secret. HTTP Basic is
 * read only where a client authenticates (`clientAuth`); elsewhere it is ignored, never an error,
 * so a malformed Basic header cannot turn a public operation into a 401.
 */
export function readHeaderCredentials(headers: Headers, clientAuth: boolean): Credentials {
  const sessionCookie = readCookie(headers.get('cookie'), SESSION_COOKIE)
  const authorization = headers.get('authorization') ?? ''
  const [scheme, value] = splitOnce(authorization.trim(), ' ')
  const bearerToken = scheme.toLowerCase() === 'bearer' && value ? value.trim() : undefined
  const client = clientAuth && scheme.toLowerCase() === 'basic' && value ? basicClient(value.trim()) : undefined
  return {
    ...(sessionCookie !== undefined ? { sessionCookie } : {}),
    ...(bearerToken !== undefined ? { bearerToken } : {}),
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
export function readCredentials(headers: Headers, formBody?: unknown): Credentials {
  const fromHeaders = readHeaderCredentials(headers, true)
  return formBody === undefined ? fromHeaders : withFormClient(fromHeaders, formBody)
}

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const [key, value] = splitOnce(part.trim(), '=')
    if (key === name && value) return value
  }
  return undefined
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
