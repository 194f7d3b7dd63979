/**
 * `createCairnClient`: every operation of the contract table as a typed call on `fetch`. The row
 * says the method, the path, how the body travels and who authenticates; nothing here is written
 * per operation. Signed runtime envelopes are verified before the answer is handed over.
 */
import { operationsById, type OperationId } from '../core/contract/operations/index.js'
import type { OperationSpec } from '../core/contract/operation.js'
import { failure, tagOfStatus, type ClientError, type Result } from './result.js'
import { retryAfterOf, retryDelayMs, shouldRetry, type RetryPolicy } from './retry.js'
import type { AnswerOf, CallInput, FilePart, InputOptional } from './types.js'
import { verifyEnvelopeAnswer, type EnvelopeTrust } from './envelopes.js'
import type { DpopProver } from './oauth.js'

export interface CairnClientOptions {
  /** The deployment's base URL, exactly as its issuer (no trailing slash needed). */
  readonly baseUrl: string
  /** @default globalThis.fetch (pass `cairn.fetch` to call an embedded Cairn in-process) */
  readonly fetch?: (request: Request) => Promise<Response>
  readonly retry?: RetryPolicy
  /** Pinned JWKS for envelope verification; fetched from the deployment (once) when absent. */
  readonly jwks?: { readonly keys: readonly JsonWebKey[] }
  /** The application's clock for envelope time windows. @default Date.now */
  readonly now?: () => number
  /** @internal tests replace the wait between retries */
  readonly sleep?: (ms: number) => Promise<void>
}

/** Credentials the client sends, by the operation's auth class. */
export interface ClientCredentials {
  /** The session cookie's value (Node; browsers keep the HttpOnly cookie themselves). */
  session?: string
  /** A bearer access token, or a function that answers a fresh one (OAuth refresh). */
  accessToken?: string | (() => Promise<string | undefined>)
  /** Proves possession of a DPoP key (RFC 9449) at the token endpoint and with every bound token (`createDpopProver`). */
  dpop?: DpopProver
  /** OAuth client authentication (HTTP Basic) for Client operations and the ProofConsent exchange. */
  client?: { readonly clientId: string; readonly clientSecret?: string }
}

type Call = <Id extends OperationId>(operationId: Id, ...input: InputOptional<Id> extends true ? [input?: CallInput<Id>] : [input: CallInput<Id>]) => Promise<Result<AnswerOf<Id>>>

export interface CairnClient {
  readonly baseUrl: string
  /** What the client sends as credentials; sign-in and OAuth fill it. */
  readonly credentials: ClientCredentials
  /** Call any operation by its operationId (the names `cairn.call` takes). */
  readonly call: Call
  /** A raw request to a route beside the contract (`/proof/keys`, `/log/key`, …), with the client's retries. */
  raw(path: string, init?: RequestInit): Promise<Response>
  /** The deployment's JWKS (pinned, or fetched once). */
  jwks(): Promise<{ readonly keys: readonly JsonWebKey[] }>
  /** The client's clock (epoch ms): ID proofs, challenges and envelope windows use it. */
  now(): number
}

const SESSION_COOKIES = ['__Host-cairn_session', 'cairn_session'] as const

export function createCairnClient(options: CairnClientOptions): CairnClient {
  const baseUrl = options.baseUrl.replace(/\/+$/u, '')
  const doFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request))
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const policy = options.retry ?? {}
  const credentials: ClientCredentials = {}
  const now = options.now ?? Date.now
  const cookieName = new URL(baseUrl).protocol === 'https:' ? SESSION_COOKIES[0] : SESSION_COOKIES[1]
  let jwks: Promise<{ readonly keys: readonly JsonWebKey[] }> | undefined = options.jwks ? Promise.resolve(options.jwks) : undefined

  /** Sends, retrying what is safe to retry; keeps a session cookie the answer sets. */
  async function send(build: () => Promise<Request>, idempotent: boolean): Promise<Response | ClientError> {
    const attempts = Math.max(1, policy.attempts ?? 3)
    let nonceRetried = false
    for (let attempt = 0; ; attempt++) {
      const request = await build()
      let response: Response
      try {
        response = await doFetch(request)
      } catch (error) {
        if (attempt + 1 < attempts && shouldRetry({ method: request.method, idempotent }, 'network', undefined)) {
          await sleep(retryDelayMs(policy, attempt, undefined))
          continue
        }
        return { _tag: 'Network', message: `No answer from ${baseUrl}: ${error instanceof Error ? error.message : String(error)}` }
      }
      keepSessionCookie(response)
      const nonce = response.headers.get('dpop-nonce')
      if (nonce !== null && credentials.dpop) {
        const fresh = credentials.dpop.nonce !== nonce
        credentials.dpop.nonce = nonce
        // RFC 9449 §8: a proof without the current nonce is refused before anything is done; once more with it.
        if (fresh && !nonceRetried && (response.status === 400 || response.status === 401) && (await demandsNonce(response))) {
          nonceRetried = true
          attempt--
          continue
        }
      }
      const retryAfter = retryAfterOf(response.headers)
      if (response.status >= 400 && attempt + 1 < attempts && shouldRetry({ method: request.method, idempotent }, response.status, retryAfter)) {
        // Not awaited: a body shared with a clone settles its cancel only when both halves do.
        void response.body?.cancel().catch(() => {})
        await sleep(retryDelayMs(policy, attempt, retryAfter))
        continue
      }
      return response
    }
  }

  function keepSessionCookie(response: Response): void {
    const setCookies = typeof response.headers.getSetCookie === 'function' ? response.headers.getSetCookie() : []
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';')
      const at = pair.indexOf('=')
      if (pair.slice(0, at).trim() !== cookieName) continue
      const value = pair.slice(at + 1).trim()
      const expired = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/iu.test(a)) || value === ''
      credentials.session = expired ? undefined : value
    }
  }

  async function authorization(op: OperationSpec, headers: Headers, method: string, url: string): Promise<void> {
    // Like a browser: the session cookie goes with every request (the authorization endpoint reads it too).
    if (credentials.session !== undefined) headers.set('cookie', `${cookieName}=${credentials.session}`)
    if (op.auth === 'Bearer' || (op.auth === 'Business' && credentials.session === undefined)) {
      const token = typeof credentials.accessToken === 'function' ? await credentials.accessToken() : credentials.accessToken
      if (token !== undefined) {
        if (credentials.dpop) {
          headers.set('authorization', `DPoP ${token}`)
          headers.set('dpop', await credentials.dpop.proof(method, url, token))
        } else headers.set('authorization', `Bearer ${token}`)
      }
    }
    // The ProofConsent exchange, like the token endpoint, issues tokens only to the authenticated application.
    if (op.auth === 'Client' || op.auth === 'ProofConsent') {
      // The token endpoint and the exchange bind tokens to the DPoP key when the request carries a proof.
      if (credentials.dpop && (op.operationId === 'exchangeToken' || op.auth === 'ProofConsent')) headers.set('dpop', await credentials.dpop.proof(method, url))
      const secret = credentials.client?.clientSecret
      if (credentials.client && secret !== undefined) headers.set('authorization', `Basic ${btoa(`${formEncode(credentials.client.clientId)}:${formEncode(secret)}`)}`)
    }
  }

  const call = (async (operationId: OperationId, input: CallInput<OperationId> = {} as CallInput<OperationId>) => {
    const op = operationsById.get(operationId)
    if (!op) return failure({ _tag: 'InvalidInput', message: `No operation ${operationId}` })
    const url = urlOf(baseUrl, op, input)
    if (typeof url !== 'string') return failure(url)
    const idempotent = input.idempotencyKey !== undefined
    // A public client names itself in the form (RFC 6749 §2.3.1: it has no secret to send).
    const publicClient = op.auth === 'Client' && op.request.kind === 'form' && credentials.client !== undefined && credentials.client.clientSecret === undefined
    const sentBody = publicClient ? { client_id: credentials.client!.clientId, ...((input.body ?? {}) as object) } : input.body
    const build = async () => {
      const headers = new Headers(input.headers)
      headers.set('accept', op.response.contentType === 'image/png' ? 'image/png' : 'application/json')
      if (input.idempotencyKey !== undefined) headers.set('idempotency-key', input.idempotencyKey)
      await authorization(op, headers, op.method, url)
      // Fetch refuses a GET body; the spec's GET+body routes answer without one.
      const body = op.method === 'GET' || sentBody === undefined ? undefined : encodeBody(op, sentBody, headers)
      return new Request(url, { method: op.method, headers, redirect: 'manual', credentials: 'include', ...(body === undefined ? {} : { body }), ...(input.signal ? { signal: input.signal } : {}) })
    }
    const answer = await send(build, idempotent)
    if (!(answer instanceof Response)) return failure(answer)
    const decoded = await decodeAnswer(op, answer)
    if (!decoded.ok || !op.response.schema.startsWith('V124Signed')) return decoded
    const trust: EnvelopeTrust = { jwks: await jwksOnce(), domain: new URL(baseUrl).host, now: now() }
    return verifyEnvelopeAnswer(decoded, { method: op.method === 'GET' ? 'GET' : 'POST', path: new URL(url).pathname.slice(new URL(baseUrl).pathname.length).replace(/^(?!\/)/u, '/'), body: sentBody, params: input.params, ...(input.expectAudience ? { audience: input.expectAudience } : {}) }, trust)
  }) as Call

  function jwksOnce() {
    jwks ??= (async () => {
      const fetched = await call('getJwks')
      if (!fetched.ok) {
        jwks = undefined
        throw new Error(`The deployment's JWKS could not be read: ${fetched.error.message}`)
      }
      return fetched.value as { keys: JsonWebKey[] }
    })()
    return jwks
  }

  return {
    baseUrl,
    credentials,
    call,
    async raw(path, init = {}) {
      const answer = await send(async () => new Request(`${baseUrl}${path}`, init), (init.method ?? 'GET') === 'GET')
      if (answer instanceof Response) return answer
      throw new Error(answer.message, { cause: answer })
    },
    jwks: jwksOnce,
    now,
  }
}

/** Whether a refusal is RFC 9449's `use_dpop_nonce` (in the body at the token endpoint, in `WWW-Authenticate` at resources). */
async function demandsNonce(response: Response): Promise<boolean> {
  if (/use_dpop_nonce/u.test(response.headers.get('www-authenticate') ?? '')) return true
  const body = await response.clone().text().catch(() => '')
  return body.includes('use_dpop_nonce')
}

function formEncode(value: string): string {
  // RFC 6749 §2.3.1: client_id and client_secret are form-urlencoded before Basic encoding.
  return new URLSearchParams({ v: value }).toString().slice(2)
}

function urlOf(baseUrl: string, op: OperationSpec, input: CallInput<OperationId>): string | ClientError {
  const params = (input.params ?? {}) as Readonly<Record<string, string>>
  let missing: string | undefined
  const path = op.path.replace(/\{([^}]+)\}/gu, (_, name: string) => {
    const value = params[name]
    if (value === undefined || value === '') missing ??= name
    return encodeURIComponent(value ?? '')
  })
  if (missing !== undefined) return { _tag: 'InvalidInput', message: `params.${missing} is required by ${op.method} ${op.path}` }
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) if (value !== undefined) query.set(name, String(value))
  const search = query.toString()
  return `${baseUrl}${path}${search === '' ? '' : `?${search}`}`
}

function encodeBody(op: OperationSpec, body: unknown, headers: Headers): BodyInit {
  if (op.request.kind === 'multipart') {
    const form = new FormData()
    for (const [name, value] of Object.entries(body as Record<string, string | FilePart>)) {
      if (typeof value === 'string') form.append(name, value)
      else if (value instanceof Blob) form.append(name, value, (value as File).name ?? name)
      else form.append(name, new Blob([value.bytes as Uint8Array<ArrayBuffer>], { type: value.mimeType ?? 'application/octet-stream' }), value.filename)
    }
    return form
  }
  if (op.request.kind === 'form') {
    headers.set('content-type', 'application/x-www-form-urlencoded')
    return new URLSearchParams(Object.entries(body as Record<string, unknown>).filter(([, v]) => v !== undefined).map(([k, v]) => [k, Array.isArray(v) ? v.join(' ') : String(v)]))
  }
  headers.set('content-type', 'application/json')
  return JSON.stringify(body)
}

async function decodeAnswer(op: OperationSpec, response: Response): Promise<Result<never>> {
  const retryAfterSeconds = retryAfterOf(response.headers)
  if (response.status >= 300 && response.status < 400) {
    // Only the authorization endpoint redirects; its answer is where to go.
    return { ok: true, value: { location: response.headers.get('location') } as never, status: response.status, headers: response.headers }
  }
  if (op.response.contentType === 'image/png' && response.ok) {
    return { ok: true, value: new Uint8Array(await response.arrayBuffer()) as never, status: response.status, headers: response.headers }
  }
  const text = await response.text()
  let parsed: unknown
  try {
    parsed = text === '' ? undefined : JSON.parse(text)
  } catch {
    return failure({ _tag: response.ok ? 'BadAnswer' : tagOfStatus(response.status), status: response.status, message: `${op.operationId} answered ${response.status} with a body that is not JSON` })
  }
  if (response.ok) return { ok: true, value: parsed as never, status: response.status, headers: response.headers }
  const body = (parsed ?? {}) as { error?: unknown; error_description?: unknown }
  const message = typeof body.error_description === 'string' ? body.error_description : typeof body.error === 'string' ? body.error : `${op.operationId} answered ${response.status}`
  const oauth = typeof body.error === 'string' && /^[a-z_]+$/u.test(body.error) ? { error: body.error, ...(typeof body.error_description === 'string' ? { errorDescription: body.error_description } : {}) } : undefined
  return failure({ _tag: tagOfStatus(response.status), status: response.status, message, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }), ...(oauth ? { oauth } : {}) })
}
