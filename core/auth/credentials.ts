/** Credentials as they arrived, before anything is believed. Hosts fill this from the transport. */
export interface Credentials {
  /** Value of the `cairn_session` cookie. */
  readonly sessionCookie?: string
  /** The token of an `Authorization: Bearer …` header. */
  readonly bearerToken?: string
  /** Client id and secret from HTTP Basic or the form body (RFC 6749 §2.3.1). */
  readonly client?: { readonly clientId: string; readonly clientSecret?: string; readonly method: 'basic' | 'post' }
}
