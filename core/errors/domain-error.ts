/**
 * Every way a use case can refuse, as a closed union the compiler checks (io-ts DecodeError
 * habit). Hosts map each tag to one HTTP status class and answer `{ ok: false, error: message }`;
 * the tags stay internal: the spec forbids publishing error codes.
 */
export type DomainError = (
  | { readonly _tag: 'InvalidInput'; readonly message: string }
  | { readonly _tag: 'Unauthenticated'; readonly message: string }
  | { readonly _tag: 'Forbidden'; readonly message: string }
  | { readonly _tag: 'NotFound'; readonly message: string }
  | { readonly _tag: 'Conflict'; readonly message: string }
  | { readonly _tag: 'PayloadTooLarge'; readonly message: string }
  | { readonly _tag: 'Unprocessable'; readonly message: string }
  | { readonly _tag: 'RateLimited'; readonly message: string; readonly retryAfterSeconds: number }
  | { readonly _tag: 'NotImplemented'; readonly message: string }
  | { readonly _tag: 'Unavailable'; readonly message: string }
) & OAuthErrorExtras

/**
 * What OAuth clients parse, beside Cairn's sentence: the RFC 6749 §5.2 body members of a token,
 * revocation or introspection refusal, and the RFC 6750 §3 challenge of a refused bearer token.
 */
export interface OAuthErrorExtras {
  /** Answered as `{ ok: false, error: code, error_description: description }`. */
  readonly oauth?: { readonly code: string; readonly description: string }
  /** Answered as `WWW-Authenticate: Bearer error="…"[, scope="…"]`. */
  readonly bearer?: {
    readonly error: 'invalid_token' | 'insufficient_scope' | 'invalid_request' | 'use_dpop_nonce'
    readonly scope?: string
    readonly description?: string
    /** The authentication scheme of the challenge (RFC 9449 §7.1: `DPoP` for DPoP-bound tokens). @default 'Bearer' */
    readonly scheme?: 'Bearer' | 'DPoP'
  }
  /** A fresh DPoP nonce to send in the `DPoP-Nonce` header (RFC 9449 §8). */
  readonly dpopNonce?: string
}

export type DomainErrorTag = DomainError['_tag']

type Cases<R> = { readonly [K in DomainErrorTag]: (error: Extract<DomainError, { _tag: K }>) => R }

/**
 * Exhaustive fold: adding a tag fails compilation wherever errors are handled.
 *
 * @example foldDomainError({ ...cases })(invalidInput('bad'))
 */
export function foldDomainError<R>(cases: Cases<R>): (error: DomainError) => R {
  return (error) => (cases[error._tag] as (e: DomainError) => R)(error)
}

export const invalidInput = (message: string): DomainError => ({ _tag: 'InvalidInput', message })
export const unauthenticated = (message: string): DomainError => ({ _tag: 'Unauthenticated', message })
export const forbidden = (message: string): DomainError => ({ _tag: 'Forbidden', message })
export const notFound = (message: string): DomainError => ({ _tag: 'NotFound', message })
export const conflict = (message: string): DomainError => ({ _tag: 'Conflict', message })
export const payloadTooLarge = (message: string): DomainError => ({ _tag: 'PayloadTooLarge', message })
export const unprocessable = (message: string): DomainError => ({ _tag: 'Unprocessable', message })
export const rateLimited = (message: string, retryAfterSeconds: number): DomainError => ({ _tag: 'RateLimited', message, retryAfterSeconds })
export const notImplemented = (message: string): DomainError => ({ _tag: 'NotImplemented', message })
export const unavailable = (message: string): DomainError => ({ _tag: 'Unavailable', message })

/** The HTTP status class of each error (docs/decisions.md: status codes per route). */
export const httpStatusOf = foldDomainError<number>({
  InvalidInput: () => 400,
  Unauthenticated: () => 401,
  Forbidden: () => 403,
  NotFound: () => 404,
  Conflict: () => 409,
  PayloadTooLarge: () => 413,
  Unprocessable: () => 422,
  RateLimited: () => 429,
  NotImplemented: () => 501,
  Unavailable: () => 503,
})
