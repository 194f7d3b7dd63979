/** Who is calling, as established by the authentication boundary before a use case runs. */
export type Principal =
  | { readonly kind: 'anonymous' }
  | {
      readonly kind: 'session'
      readonly userId: string
      readonly sessionId: string
      readonly businessTier: boolean
      /** When this session's sign-in happened (epoch ms): OpenID Connect `auth_time`, `max_age`. */
      readonly authTimeMs: number
    }
  | {
      readonly kind: 'bearer'
      readonly subject: string
      readonly clientId: string
      readonly scopes: readonly string[]
      readonly tokenId: string
      readonly businessTier: boolean
      /** The token may act as its client, the runtime application (AccessGrant.actsAsClient); absent means it may not. */
      readonly actsAsClient?: boolean
    }
  | {
      readonly kind: 'client'
      readonly clientId: string
      /** Thumbprint of the key of a valid DPoP proof sent with the request (RFC 9449): tokens are bound to it. */
      readonly dpopJkt?: string
    }

export const ANONYMOUS: Principal = { kind: 'anonymous' }
