/**
 * DPoP (RFC 9449): proof-of-possession for access and refresh tokens. A client signs a short JWT
 * (`typ: dpop+jwt`, its public key in the header) for every request: `htm` and `htu` name the
 * request, `iat` its time, `jti` makes it single-use, `nonce` is the server's freshness value and,
 * with an access token, `ath` its hash. Tokens issued with a proof carry `cnf.jkt`, the key's
 * RFC 7638 thumbprint, and are honoured only with a proof by that key.
 *
 * - Replay: a proof's `jti` is remembered (by SHA-256 of key thumbprint and jti, expected absent)
 *   for the acceptance window; a second use is refused.
 * - Nonces (§8, §9): stateless — the HMAC of a 5-minute time slot under a server secret kept with
 *   the keys; the current and the previous slot are accepted, so every host accepts every host's.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose'
import type { CollectionSpec } from '../../ports/store.js'
import { derivedSecret } from '../digest/derived-secret.js'
import { invalidInput, unauthenticated, type DomainError } from '../errors/domain-error.js'
import type { CoreDeps } from '../usecases/use-case.js'

export const DPOP_PROOFS = 'dpop_proofs'
export const dpopCollection: CollectionSpec = { name: DPOP_PROOFS, indexes: [{ name: 'byExpiresAt', fields: ['expiresAtMs'] }] }

/**
 * Asymmetric algorithms only (§4.3); `none` and HMAC can prove nothing. Ed25519 under both names:
 * `EdDSA` (RFC 8037) and the fully specified `Ed25519` (RFC 9864), which openid-client 6 sends.
 */
export const DPOP_ALGS = ['ES256', 'RS256', 'PS256', 'EdDSA', 'Ed25519'] as const
/** How far `iat` may be from the server clock (either way). */
export const DPOP_IAT_WINDOW_SECONDS = 60
const NONCE_SLOT_MS = 5 * 60 * 1000
const NONCE_LABEL = 'cairn.dpop-nonce.v1'

/** What the transport saw: the `DPoP` header, the method and the request URL. */
export interface DpopPresentation {
  readonly proof: string | undefined
  readonly method: string
  /** The request URL as the client addressed it (query and fragment are ignored, §4.3). */
  readonly url: string
}

/** Where the proof must be refused, with the code of the place it was presented. */
export type DpopContext = { readonly at: 'token' } | { readonly at: 'resource'; readonly accessToken: string }

export async function currentDpopNonce(deps: Pick<CoreDeps, 'keys' | 'clock'>): Promise<string> {
  return nonceFor(await derivedSecret(deps.keys, NONCE_LABEL), Math.floor(deps.clock.now() / NONCE_SLOT_MS))
}

function nonceFor(secret: Buffer, slot: number): string {
  return `${slot.toString(36)}.${createHmac('sha256', secret).update(String(slot)).digest('base64url').slice(0, 22)}`
}

async function nonceIsFresh(deps: Pick<CoreDeps, 'keys' | 'clock'>, nonce: unknown): Promise<boolean> {
  if (typeof nonce !== 'string') return false
  const secret = await derivedSecret(deps.keys, NONCE_LABEL)
  const slot = Math.floor(deps.clock.now() / NONCE_SLOT_MS)
  return [slot, slot - 1].some((candidate) => {
    const expected = Buffer.from(nonceFor(secret, candidate))
    const sent = Buffer.from(nonce)
    return expected.length === sent.length && timingSafeEqual(expected, sent)
  })
}

/** `htu` compares scheme, host and path; RFC 9449 §4.3 ignores query and fragment. */
function sameTarget(htu: unknown, url: string): boolean {
  if (typeof htu !== 'string') return false
  try {
    const claimed = new URL(htu)
    const actual = new URL(url)
    return claimed.origin === actual.origin && claimed.pathname === actual.pathname
  } catch {
    return false
  }
}

/**
 * Verify a DPoP proof and consume its `jti`. Right: the key's thumbprint (`jkt`).
 *
 * @example await verifyDpopProof(deps, { proof, method: 'POST', url: tokenUrl }, { at: 'token' })
 */
export async function verifyDpopProof(deps: CoreDeps, presented: DpopPresentation, context: DpopContext): Promise<Either<DomainError, string>> {
  const refuse = (description: string) => E.left(dpopRefusal(context, 'invalid_dpop_proof', description))
  if (presented.proof === undefined) return refuse('A DPoP proof is required')
  let jwk: JWK
  let alg: string
  try {
    const header = decodeProtectedHeader(presented.proof)
    if (header.typ !== 'dpop+jwt' || typeof header.alg !== 'string' || !(DPOP_ALGS as readonly string[]).includes(header.alg)) return refuse('The DPoP proof must be a dpop+jwt with an asymmetric alg')
    if (!header.jwk || typeof header.jwk !== 'object' || 'd' in header.jwk) return refuse('The DPoP proof must carry its public key (jwk), never a private one')
    jwk = header.jwk
    alg = header.alg
  } catch {
    return refuse('The DPoP proof is not a JWS')
  }
  let payload: Record<string, unknown>
  try {
    const key = await importJWK(jwk, alg)
    ;({ payload } = await jwtVerify(presented.proof, key, { typ: 'dpop+jwt', algorithms: [alg] }))
  } catch {
    return refuse('The DPoP proof signature does not verify with its jwk')
  }
  const now = deps.clock.now()
  if (typeof payload.jti !== 'string' || payload.jti.length < 8 || payload.jti.length > 256) return refuse('The DPoP proof needs a jti')
  if (payload.htm !== presented.method) return refuse('htm is not this request\'s method')
  if (!sameTarget(payload.htu, presented.url)) return refuse('htu is not this request\'s URL')
  if (typeof payload.iat !== 'number' || Math.abs(now / 1000 - payload.iat) > DPOP_IAT_WINDOW_SECONDS) return refuse('iat is outside the accepted window')
  if (context.at === 'resource') {
    const ath = createHash('sha256').update(context.accessToken, 'ascii').digest('base64url')
    if (payload.ath !== ath) return refuse('ath is not the hash of the presented access token')
  }
  if (!(await nonceIsFresh(deps, payload.nonce))) {
    return E.left(dpopRefusal(context, 'use_dpop_nonce', 'Use the server\'s DPoP nonce', await currentDpopNonce(deps)))
  }
  const jkt = await calculateJwkThumbprint(jwk, 'sha256')
  const key = createHash('sha256').update(JSON.stringify([jkt, payload.jti])).digest('hex')
  const outcome = await deps.store.commit([
    { kind: 'put', collection: DPOP_PROOFS, key, value: { expiresAtMs: now + 2 * DPOP_IAT_WINDOW_SECONDS * 1000 }, expect: { kind: 'absent' } },
  ])
  if (!outcome.ok) return refuse('This DPoP proof (jti) was already used')
  return E.right(jkt)
}

/**
 * At the token endpoint: 400 with the RFC 6749 body (`invalid_dpop_proof`, `use_dpop_nonce`).
 * At a resource: 401 with `WWW-Authenticate: DPoP error="…"` (§7.1). Both carry `DPoP-Nonce` when one is needed.
 */
export function dpopRefusal(context: DpopContext, code: 'invalid_dpop_proof' | 'use_dpop_nonce' | 'invalid_token', description: string, nonce?: string): DomainError {
  const extras = nonce === undefined ? {} : { dpopNonce: nonce }
  if (context.at === 'token') return { ...invalidInput(`${code}: ${description}`), oauth: { code, description }, ...extras }
  return { ...unauthenticated(description), bearer: { error: code === 'use_dpop_nonce' ? 'use_dpop_nonce' : 'invalid_token', description, scheme: 'DPoP' }, ...extras }
}
