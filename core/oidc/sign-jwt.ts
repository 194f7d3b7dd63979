/**
 * JWS compact serialisation (RFC 7515 §7.1) signed inside the KeyStore: the private key never
 * leaves it, so jose cannot sign; the header and payload are encoded here and only the signing
 * input goes to `SigningKey.sign`.
 */
import { toBase64Url } from '../encoding/base64url.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { rememberSigningKey, TOKEN_SIGNING_ALG, type TokenSigningAlg } from './verification-keys.js'

const encoder = new TextEncoder()

function encodeJson(value: unknown): string {
  return toBase64Url(encoder.encode(JSON.stringify(value)))
}

/**
 * @example const jwt = await signJwt(deps, 'at+jwt', { iss, sub, aud, exp, iat, jti })
 */
export async function signJwt(deps: Pick<CoreDeps, 'keys'>, typ: string, claims: Readonly<Record<string, unknown>>, alg: TokenSigningAlg = TOKEN_SIGNING_ALG): Promise<string> {
  const key = await deps.keys.current(alg, 'token')
  await rememberSigningKey(deps.keys, key.publicJwk)
  const signingInput = `${encodeJson({ alg: key.alg, kid: key.kid, typ })}.${encodeJson(claims)}`
  const signature = await key.sign(encoder.encode(signingInput))
  return `${signingInput}.${toBase64Url(signature)}`
}
