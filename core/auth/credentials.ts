/** Credentials as they arrived, before anything is believed. Hosts fill this from the transport. */
export interface Credentials {
  /** Value of the `cairn_session` cookie. */
  readonly sessionCookie?: string
  /** The token of an `Authorization: Bearer …` (or `DPoP …`) header. */
  readonly bearerToken?: string
  /** The scheme the token came with: `DPoP` for DPoP-bound tokens (RFC 9449 §7.1). @default 'Bearer' */
  readonly tokenScheme?: 'Bearer' | 'DPoP'
  /** The `DPoP` proof header and the request it must match (RFC 9449 §4.3). */
  readonly dpop?: { readonly proof: string | undefined; readonly method: string; readonly url: string }
  /** Client id and secret from HTTP Basic or the form body (RFC 6749 §2.3.1). */
  readonly client?: { readonly clientId: string; readonly clientSecret?: string; readonly method: 'basic' | 'post' }
}
