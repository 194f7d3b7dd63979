/**
 * `id_token_hint` (OpenID Connect Core §3.1.2.1): an ID token this provider issued, naming the user
 * the client expects to be signed in. Only its signature and issuer are checked — an expired ID
 * token is still a fine hint (Core says so) — and the answer is its `sub`, or undefined.
 */
import { decodeProtectedHeader, jwtVerify } from 'jose'
import type { CoreDeps } from '../usecases/use-case.js'
import { verificationKey } from './verification-keys.js'

/** @example await subjectOfIdTokenHint(deps, hint) // 'usr_…' | undefined */
export async function subjectOfIdTokenHint(deps: Pick<CoreDeps, 'keys' | 'clock' | 'config'>, hint: string): Promise<{ sub: string; aud: readonly string[] } | undefined> {
  try {
    const { kid } = decodeProtectedHeader(hint)
    if (typeof kid !== 'string') return undefined
    const key = await verificationKey(deps, kid)
    if (!key) return undefined
    if (key.alg !== decodeProtectedHeader(hint).alg) return undefined
    const { payload } = await jwtVerify(hint, key.key, {
      algorithms: [key.alg],
      issuer: deps.config.baseUrl,
      typ: 'JWT',
      // Expired hints still name the user: checking at the epoch keeps exp from failing.
      currentDate: new Date(0),
    })
    if (typeof payload.sub !== 'string') return undefined
    const aud = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : []
    return { sub: payload.sub, aud }
  } catch {
    return undefined
  }
}
