/** The algorithms Cairn signs with. */
export type SigningAlgorithm = 'EdDSA' | 'ES256'

/** A public JSON Web Key (RFC 7517) as published in the JWKS. */
export interface PublicJwk {
  readonly kty: string
  readonly kid: string
  readonly alg: SigningAlgorithm
  readonly use: 'sig'
  readonly crv?: string
  readonly x?: string
  readonly y?: string
}

/** A signing key whose private half stays inside the KeyStore. */
export interface SigningKey {
  readonly kid: string
  readonly alg: SigningAlgorithm
  readonly publicJwk: PublicJwk
  /** JWS signature (RFC 7515 form: raw r||s for ES256, 64 bytes for Ed25519) over `data`. */
  sign(data: Uint8Array): Promise<Uint8Array>
}

export interface KeyStore {
  /** The current key for `alg` (created on first use). */
  current(alg: SigningAlgorithm): Promise<SigningKey>
  /** Retire the current key of `alg` and make a new one current; retired keys stay verifiable. */
  rotate(alg: SigningAlgorithm): Promise<SigningKey>
  /** Current and retired public keys. */
  jwks(): Promise<{ readonly keys: readonly PublicJwk[] }>
}
