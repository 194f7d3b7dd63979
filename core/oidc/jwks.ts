/** `GET /api/oidc/jwks`: the KeyStore's public keys, current and retired (RFC 7517 §5). */
import * as E from 'fp-ts/lib/Either.js'
import { json, type UseCaseFor } from '../usecases/use-case.js'
import { TOKEN_SIGNING_ALGS } from './verification-keys.js'

/**
 * The token-signing keys (ES256 and RS256) are made on first use, so a client that fetches the JWKS before any token
 * exists still finds the key the metadata advertises.
 *
 * @example await getJwks(request, deps) // right(json({ keys: [...] }))
 */
export const getJwks: UseCaseFor<'getJwks'> = async (_request, deps) => {
  await Promise.all(TOKEN_SIGNING_ALGS.map((alg) => deps.keys.current(alg, 'token')))
  const { keys } = await deps.keys.jwks('token')
  return E.right(json({ keys: keys.map((key) => ({ ...key })) }, { 'cache-control': 'public, max-age=300' }))
}
