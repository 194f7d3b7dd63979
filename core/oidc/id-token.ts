/**
 * ID tokens (OpenID Connect Core §2): who signed in, for one client. Minimal claims — profile
 * claims come from userinfo, as Core §5.4 says for flows that issue an access token.
 */
import { createHash } from 'node:crypto'
import type { CoreDeps } from '../usecases/use-case.js'
import { ID_TOKEN_SECONDS } from './lifetimes.js'
import { signJwt } from './sign-jwt.js'
import { findClient } from './clients.js'
import { TOKEN_SIGNING_ALG } from './verification-keys.js'

/** Core §3.1.3.6: base64url of the left half of SHA-256 over the access token's ASCII. @example atHashOf('eyJ…') */
export function atHashOf(accessToken: string): string {
  return createHash('sha256').update(accessToken, 'ascii').digest().subarray(0, 16).toString('base64url')
}

/**
 * @example const idToken = await issueIdToken(deps, { userId, clientId, nonce, accessToken })
 */
export async function issueIdToken(
  deps: Pick<CoreDeps, 'keys' | 'clock' | 'config'>,
  input: { readonly userId: string; readonly clientId: string; readonly nonce: string | null; readonly accessToken: string; readonly authTimeMs?: number | undefined },
): Promise<string> {
  const iat = Math.floor(deps.clock.now() / 1000)
  const alg = findClient(deps, input.clientId)?.idTokenSigningAlg ?? TOKEN_SIGNING_ALG
  return signJwt(deps, 'JWT', {
    iss: deps.config.baseUrl,
    sub: input.userId,
    aud: input.clientId,
    iat,
    exp: iat + ID_TOKEN_SECONDS,
    ...(input.nonce === null ? {} : { nonce: input.nonce }),
    at_hash: atHashOf(input.accessToken),
    // Always, so max_age checks never miss it (Core §2); amr "pop": the sign-in proved possession of a key (RFC 8176).
    ...(input.authTimeMs === undefined ? {} : { auth_time: Math.floor(input.authTimeMs / 1000), amr: ['pop'] }),
  }, alg)
}
