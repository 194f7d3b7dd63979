/**
 * OAuth 2.0 for a first-party app on `cairn/client`: the authorization code flow with PKCE
 * (RFC 7636, S256), refresh token rotation (each refresh answers a new refresh token; the old one
 * is spent), and DPoP (RFC 9449) proofs from a non-extractable WebCrypto key, with the server's
 * nonce learnt from `DPoP-Nonce` and retried once.
 */
import { toBase64Url } from '../core/proof/bytes.js'
import { jwkThumbprintOf } from '../core/proof/web-crypto.js'
import type { CairnClient } from './cairn-client.js'
import { failure, type Result } from './result.js'

const ES256 = { name: 'ECDSA', namedCurve: 'P-256' } as const
const text = (value: string) => new TextEncoder().encode(value)
const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>))

export interface Pkce {
  readonly codeVerifier: string
  readonly codeChallenge: string
}

/** A fresh verifier (32 random bytes, 43 characters) and its S256 challenge. */
export async function createPkce(): Promise<Pkce> {
  const codeVerifier = toBase64Url(crypto.getRandomValues(new Uint8Array(32)))
  return { codeVerifier, codeChallenge: toBase64Url(await sha256(text(codeVerifier))) }
}

export interface AuthorizationRequest {
  readonly clientId: string
  readonly redirectUri: string
  readonly scopes: readonly string[]
  readonly pkce: Pkce
  /** @default 16 random bytes */
  readonly state?: string
  readonly nonce?: string
}

/** Where to send the browser; keep `state` and the verifier until the redirect comes back. */
export function authorizationUrl(client: CairnClient, request: AuthorizationRequest): { readonly url: string; readonly state: string } {
  const state = request.state ?? toBase64Url(crypto.getRandomValues(new Uint8Array(16)))
  const query = new URLSearchParams({
    response_type: 'code', client_id: request.clientId, redirect_uri: request.redirectUri, scope: request.scopes.join(' '), state,
    code_challenge: request.pkce.codeChallenge, code_challenge_method: 'S256', ...(request.nonce ? { nonce: request.nonce } : {}),
  })
  return { url: `${client.baseUrl}/api/oidc/authorize?${query}`, state }
}

export interface TokenSet {
  readonly accessToken: string
  readonly tokenType: 'Bearer' | 'DPoP'
  readonly refreshToken?: string
  readonly idToken?: string
  readonly scope?: string
  /** Epoch ms. */
  readonly expiresAt: number
}

interface TokenAnswer { access_token: string; token_type: string; expires_in?: number; refresh_token?: string; id_token?: string; scope?: string }

function tokenSetOf(answer: TokenAnswer, now: number): TokenSet {
  return {
    accessToken: answer.access_token, tokenType: answer.token_type === 'DPoP' ? 'DPoP' : 'Bearer', expiresAt: now + (answer.expires_in ?? 300) * 1000,
    ...(answer.refresh_token ? { refreshToken: answer.refresh_token } : {}), ...(answer.id_token ? { idToken: answer.id_token } : {}), ...(answer.scope ? { scope: answer.scope } : {}),
  }
}

/**
 * Redeem the code the redirect brought back (check its `state` first), as the public client
 * `clientId` (set `client.credentials.client`, with the secret for a confidential client).
 */
export async function exchangeCode(client: CairnClient, input: { readonly code: string; readonly codeVerifier: string; readonly redirectUri: string }): Promise<Result<TokenSet>> {
  const answer = await client.call('exchangeToken', { body: { grant_type: 'authorization_code', code: input.code, code_verifier: input.codeVerifier, redirect_uri: input.redirectUri } })
  return answer.ok ? { ...answer, value: tokenSetOf(answer.value as unknown as TokenAnswer, client.now()) } : answer
}

/**
 * An access token source for `client.credentials.accessToken`: answers the current token, and a
 * fresh one (refresh rotation: the new refresh token replaces the spent one) 30 s before expiry.
 * Concurrent callers share one refresh. `onTokens` persists each new set.
 */
export function refreshingTokens(client: CairnClient, initial: TokenSet, onTokens: (tokens: TokenSet) => void = () => {}): { (): Promise<string>; current(): TokenSet } {
  let tokens = initial
  let refreshing: Promise<string> | undefined
  const refresh = async () => {
    if (!tokens.refreshToken) throw new Error('The access token expired and no refresh token was issued: sign in again')
    const answer = await client.call('exchangeToken', { body: { grant_type: 'refresh_token', refresh_token: tokens.refreshToken } })
    if (!answer.ok) throw new Error(`Refreshing the access token failed: ${answer.error.message}`, { cause: answer.error })
    tokens = tokenSetOf(answer.value as unknown as TokenAnswer, client.now())
    onTokens(tokens)
    return tokens.accessToken
  }
  const source = async () => {
    if (client.now() < tokens.expiresAt - 30_000) return tokens.accessToken
    refreshing ??= refresh().finally(() => (refreshing = undefined))
    return refreshing
  }
  return Object.assign(source, { current: () => tokens })
}

/** Makes the `DPoP` proofs of one key; the client asks it for every request once set in `credentials.dpop`. */
export interface DpopProver {
  /** RFC 7638 thumbprint of the key (`dpop_jkt`, the token's `cnf.jkt`). */
  readonly thumbprint: string
  proof(method: string, url: string, accessToken?: string): Promise<string>
  /** The latest `DPoP-Nonce` the server sent. */
  nonce: string | undefined
}

/** A DPoP key pair (ES256, private key non-extractable) and its proofs; `now` is the client's clock (`client.now`). */
export async function createDpopProver(now: () => number = Date.now): Promise<DpopProver> {
  const pair = await crypto.subtle.generateKey(ES256, false, ['sign', 'verify'])
  const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', pair.publicKey)
  const jwk = { kty: kty!, crv: crv!, x: x!, y: y! }
  const encode = (value: object) => toBase64Url(text(JSON.stringify(value)))
  const prover: DpopProver = {
    thumbprint: await jwkThumbprintOf(jwk),
    nonce: undefined,
    async proof(method, url, accessToken) {
      const target = new URL(url)
      const claims = {
        jti: toBase64Url(crypto.getRandomValues(new Uint8Array(16))), htm: method, htu: `${target.origin}${target.pathname}`, iat: Math.floor(now() / 1000),
        ...(prover.nonce ? { nonce: prover.nonce } : {}), ...(accessToken ? { ath: toBase64Url(await sha256(text(accessToken))) } : {}),
      }
      const signingInput = `${encode({ typ: 'dpop+jwt', alg: 'ES256', jwk })}.${encode(claims)}`
      const signature = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, text(signingInput)))
      return `${signingInput}.${toBase64Url(signature)}`
    },
  }
  return prover
}

/** The code and state of the redirect back, refused when the state is not the one sent. */
export function codeFromRedirect(location: string, expectedState: string): Result<string> {
  const params = new URL(location).searchParams
  if (params.get('state') !== expectedState) return failure({ _tag: 'Unverified', message: 'The redirect\'s state is not the one this client sent (a forged or crossed redirect)' })
  const error = params.get('error')
  if (error) return failure({ _tag: 'Forbidden', message: params.get('error_description') ?? error, oauth: { error } })
  const code = params.get('code')
  return code ? { ok: true, value: code, status: 302, headers: new Headers() } : failure({ _tag: 'BadAnswer', message: 'The redirect carries no code' })
}
