/**
 * A call's outcome as a value, never a throw: `{ ok: true, value }` or `{ ok: false, error }`
 * where `error._tag` names the class of failure (the same tags as the server's DomainError, plus
 * the ones only a client meets: the network, an answer that is not what the contract says, an
 * envelope that does not verify).
 */

export type ClientErrorTag =
  | 'InvalidInput' | 'Unauthenticated' | 'Forbidden' | 'NotFound' | 'Conflict' | 'PayloadTooLarge' | 'Unprocessable'
  | 'RateLimited' | 'NotImplemented' | 'Unavailable' | 'ServerError'
  /** No answer arrived: DNS, refused connection, reset, abort. */
  | 'Network'
  /** An answer arrived but is not the contract's (not JSON, wrong shape). */
  | 'BadAnswer'
  /** A signed envelope or a proof did not verify: the answer is withheld. */
  | 'Unverified'

export interface ClientError {
  readonly _tag: ClientErrorTag
  /** The server's sentence, or the client's own. */
  readonly message: string
  /** The HTTP status, when an answer arrived. */
  readonly status?: number
  /** Seconds the server asked to wait (429/503 `Retry-After`). */
  readonly retryAfterSeconds?: number
  /** RFC 6749 §5.2 members of an OAuth error answer, when present. */
  readonly oauth?: { readonly error: string; readonly errorDescription?: string }
}

export type Result<T> =
  | { readonly ok: true; readonly value: T; readonly status: number; readonly headers: Headers }
  | { readonly ok: false; readonly error: ClientError }

const TAG_BY_STATUS: Readonly<Record<number, ClientErrorTag>> = {
  400: 'InvalidInput', 401: 'Unauthenticated', 403: 'Forbidden', 404: 'NotFound', 405: 'NotFound', 409: 'Conflict', 413: 'PayloadTooLarge',
  415: 'InvalidInput', 422: 'Unprocessable', 429: 'RateLimited', 501: 'NotImplemented', 503: 'Unavailable',
}

export function tagOfStatus(status: number): ClientErrorTag {
  return TAG_BY_STATUS[status] ?? (status >= 500 ? 'ServerError' : 'InvalidInput')
}

export const failure = (error: ClientError): Result<never> => ({ ok: false, error })

/** The wire of a verified runtime answer, typed as the component a next request carries (answers are typed readonly). */
export const wireOf = <W>(answer: Result<{ readonly wire: unknown }>): Result<W> => (answer.ok ? { ...answer, value: answer.value.wire as W } : answer)

/**
 * The value of a result, or a thrown Error carrying the ClientError as `cause` (for scripts that prefer throws).
 *
 * @example const jwks = unwrap(await client.call('getJwks'))
 */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value
  throw new Error(`${result.error._tag}: ${result.error.message}`, { cause: result.error })
}
