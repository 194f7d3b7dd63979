/**
 * Replies and refusals in the contract's shapes. They are srvx `FastResponse`s (h3's own server
 * layer) with plain header records rather than WHATWG `Response`s: on Node they are written
 * straight to the socket without building undici Headers, which is several times faster
 * (bench/README.md). They are still Responses to everyone who reads them (`app.fetch`, tests).
 */
import { DPOP_ALGS } from '../../core/auth/dpop.js'
import { FastResponse } from 'srvx'
import type { Reply, SetCookie } from '../../core/usecases/use-case.js'
import { httpStatusOf, type DomainError } from '../../core/errors/domain-error.js'
import { boundErrorSentence } from '../../core/errors/quote-input.js'

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * The error body every 4XX/5XX carries: `{ ok: false, error }`. OAuth refusals put the bare
 * RFC 6749 §5.2 code in `error` and the sentence in `error_description`.
 */
export function errorResponse(status: number, message: string, headers: Readonly<Record<string, string>> = {}, oauth?: DomainError['oauth']): Response {
  const body = JSON.stringify(oauth ? { ok: false, error: oauth.code, error_description: boundErrorSentence(oauth.description) } : { ok: false, error: boundErrorSentence(message) })
  return new FastResponse(body, {
    status,
    headers: { 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(body)), 'cache-control': 'no-store', ...headers },
  })
}

/**
 * `challenge` is the RFC 9110 authentication scheme a 401 names: `Basic` where OAuth clients
 * authenticate (RFC 6749 §5.2), `Bearer` elsewhere (RFC 6750 §3).
 */
export function domainErrorResponse(error: DomainError, challenge: 'Basic' | 'Bearer' = 'Bearer', extraHeaders: Readonly<Record<string, string>> = {}): Response {
  const headers: Record<string, string> = error._tag === 'RateLimited' ? { ...extraHeaders, 'retry-after': String(error.retryAfterSeconds) } : { ...extraHeaders }
  if (error._tag === 'Unauthenticated' || error.bearer !== undefined) headers['www-authenticate'] = challengeOf(error, challenge)
  if (error.dpopNonce !== undefined) headers['dpop-nonce'] = error.dpopNonce
  return errorResponse(httpStatusOf(error), error.message, headers, error.oauth)
}

/** RFC 6750 §3: `Bearer realm="cairn", error="invalid_token"`; no error code when no token was sent (§3.1). */
function challengeOf(error: DomainError, scheme: 'Basic' | 'Bearer'): string {
  const { bearer } = error
  if (bearer === undefined) return `${scheme} realm="cairn"`
  const params = [`realm="cairn"`, `error="${bearer.error}"`]
  if (bearer.description !== undefined) params.push(`error_description="${bearer.description.replace(/["\\]/g, '')}"`)
  if (bearer.scope !== undefined) params.push(`scope="${bearer.scope}"`)
  if (bearer.scheme === 'DPoP') params.push(`algs="${DPOP_ALGS.join(' ')}"`)
  return `${bearer.scheme ?? 'Bearer'} ${params.join(', ')}`
}

/**
 * A JSON answer that offers a download answers with the bytes when the client asks for
 * `application/octet-stream` and not for JSON (Accept, RFC 9110 §12.5.1; no q-value ranking).
 */
export function negotiate(reply: Reply, accept: string | null): Reply {
  if (reply.kind !== 'json' || !reply.download || !accept) return reply
  const types = accept.toLowerCase().split(',').map((part) => part.split(';')[0]!.trim())
  if (!types.includes('application/octet-stream') || types.includes('application/json')) return reply
  const download = reply.download
  const { contentType, filename, headers } = download
  const safeName = filename.replace(/["\\\r\n]/gu, '_')
  return {
    kind: 'bytes',
    contentType,
    // Not destructured: a download held as parts joins its bytes only if someone reads them.
    get bytes() {
      return download.bytes
    },
    ...(download.parts ? { parts: download.parts } : {}),
    headers: { 'content-disposition': `attachment; filename="${safeName}"; filename*=UTF-8''${encodeURIComponent(filename)}`, ...headers },
  }
}

/** `gone` aborts when the client went away (a streamed answer stops its work then). */
export function replyResponse(reply: Reply, gone?: AbortSignal): Response {
  switch (reply.kind) {
    case 'json': {
      // An exact Content-Length lets Node send headers and body in one write instead of chunks.
      const { bytes, length } = serialize(reply.body)
      const headers: Record<string, string> = { 'content-type': JSON_TYPE, 'content-length': length, ...reply.headers }
      return new FastResponse(bytes as BodyInit, { status: 200, headers: withCookies(headers, reply.cookies) })
    }
    case 'bytes': {
      const length = reply.parts ? reply.parts.reduce((sum, part) => sum + part.byteLength, 0) : reply.bytes.byteLength
      return new FastResponse((reply.parts ? streamOfParts(reply.parts) : reply.bytes) as BodyInit, {
        status: 200,
        headers: { 'content-type': reply.contentType, 'content-length': String(length), ...reply.headers },
      })
    }
    case 'redirect':
      return new FastResponse(null, { status: 302, headers: withCookies({ location: reply.location, 'cache-control': 'no-store' }, reply.cookies) })
    case 'stream':
      return new Response(streamOf(reply, gone), { status: 200, headers: { 'content-type': reply.contentType, 'cache-control': 'no-store', 'x-accel-buffering': 'no', ...reply.headers } })
  }
}

/** Parts written in order, each as it is (a sealed file's payload goes out as the view it is, uncopied). */
function streamOfParts(parts: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < parts.length) controller.enqueue(parts[next++]!)
      else controller.close()
    },
  })
}

/** The chunks as a byte stream: cancelling it, or the client going away, aborts the work behind it. */
function streamOf(reply: Extract<Reply, { kind: 'stream' }>, gone?: AbortSignal): ReadableStream<Uint8Array> {
  const abort = new AbortController()
  gone?.addEventListener('abort', () => abort.abort(), { once: true })
  const iterator = reply.open(abort.signal)[Symbol.asyncIterator]()
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next()
      if (next.done) controller.close()
      else controller.enqueue(encoder.encode(next.value))
    },
    cancel() {
      abort.abort()
    },
  })
}

interface SerializedJson {
  readonly bytes: Buffer
  /** Content-Length, as a header value. */
  readonly length: string
}

/** Frozen bodies cannot change, so their JSON bytes are computed once (static reads stay cheap). */
const frozenJson = new WeakMap<object, SerializedJson>()

function serialize(body: unknown): SerializedJson {
  if (typeof body !== 'object' || body === null || !Object.isFrozen(body)) return encodeJson(body)
  let serialized = frozenJson.get(body)
  if (serialized === undefined) frozenJson.set(body, (serialized = encodeJson(body)))
  return serialized
}

function encodeJson(body: unknown): SerializedJson {
  const bytes = Buffer.from(JSON.stringify(body))
  return { bytes, length: String(bytes.length) }
}

/** Plain header records are cheapest; a Headers list only when several Set-Cookie lines are needed. */
function withCookies(headers: Record<string, string>, cookies: readonly SetCookie[] | undefined): HeadersInit {
  if (!cookies || cookies.length === 0) return headers
  const list = new Headers(headers)
  for (const cookie of cookies) list.append('set-cookie', serializeCookie(cookie))
  return list
}

function serializeCookie(cookie: SetCookie): string {
  const parts = [`${cookie.name}=${cookie.value}`, `Path=${cookie.path}`, `Max-Age=${cookie.maxAgeSeconds}`, `SameSite=${cookie.sameSite}`]
  if (cookie.httpOnly) parts.push('HttpOnly')
  if (cookie.secure) parts.push('Secure')
  return parts.join('; ')
}
