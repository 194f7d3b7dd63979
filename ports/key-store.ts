/** The algorithms Cairn signs with (RFC 7518 §3.1 names; EdDSA per RFC 8037). */
export type SigningAlgorithm = 'EdDSA' | 'ES256' | 'RS256'

/**
 * What a key signs, which decides how long its public half stays published:
 * - `token`: OpenID Connect ID tokens and JWT access tokens. Token keys rotate on a schedule, and a
 *   retired one leaves the published set once every token it signed has expired.
 * - `proof`: sealed proofs, receipts and transparency-log checkpoints. Sealed bytes must verify
 *   forever, so a proof key is published for good, retired or not.
 * Keys of one purpose never sign for the other, and each purpose has its own current key per algorithm.
 */
export type KeyPurpose = 'token' | 'proof'

/** Every key purpose, in a fixed order. */
export const KEY_PURPOSES: readonly KeyPurpose[] = ['token', 'proof']

/** A public JSON Web Key (RFC 7517) as published in a JWKS: OKP/EC keys carry crv/x(/y), RSA keys n/e. */
export interface PublicJwk {
  readonly kty: string
  readonly kid: string
  readonly alg: SigningAlgorithm
  readonly use: 'sig'
  readonly crv?: string
  readonly x?: string
  readonly y?: string
  readonly n?: string
  readonly e?: string
}

/** A signing key whose private half stays inside the KeyStore. */
export interface SigningKey {
  readonly kid: string
  readonly alg: SigningAlgorithm
  readonly purpose: KeyPurpose
  readonly publicJwk: PublicJwk
  /**
   * JWS signature (RFC 7515/7518 form) over `data`: 64 bytes for Ed25519, raw r||s (64 bytes) for
   * ES256, RSASSA-PKCS1-v1_5 with SHA-256 (the modulus length, 256 bytes for RSA-2048) for RS256.
   */
  sign(data: Uint8Array): Promise<Uint8Array>
}

/**
 * Cairn's signing keys. `purpose` defaults to `token`, the purpose of every key made before purposes existed.
 *
 * @example
 * const idTokenKey = await keys.current('RS256')            // an OIDC token key
 * const sealKey = await keys.current('EdDSA', 'proof')      // signs sealed proofs, published forever
 * const { keys: published } = await keys.jwks('proof')
 */
export interface KeyStore {
  /** The current key of `purpose` for `alg` (created on first use, or when a schedule says it is due). */
  current(alg: SigningAlgorithm, purpose?: KeyPurpose): Promise<SigningKey>
  /** Retire the current key of `purpose` for `alg` and make a new one current; retired keys stay verifiable. */
  rotate(alg: SigningAlgorithm, purpose?: KeyPurpose): Promise<SigningKey>
  /**
   * The published public keys of `purpose`, newest first: current keys and retired keys still in their
   * publication window (token keys) or for good (proof keys). Sees keys another process made.
   */
  jwks(purpose?: KeyPurpose): Promise<{ readonly keys: readonly PublicJwk[] }>
}
