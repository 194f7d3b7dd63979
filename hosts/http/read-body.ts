/**
 * Reads a request body within its size limit and parses it by the media type the contract
 * declares. Anything malformed is an HttpFailure with a plain sentence.
 */
import type { IncomingMessage } from 'node:http'
import type { RequestBody } from '../../core/contract/operation.js'
import { quoteInput } from '../../core/errors/quote-input.js'
import { HttpFailure } from './http-failure.js'
import type { BodyLimits } from './limits.js'
import { BUDGET_RETRY_AFTER_SECONDS, type BodyLease } from './body-budget.js'
import { readMultipart } from './read-multipart.js'

const MEDIA = { json: 'application/json', form: 'application/x-www-form-urlencoded', multipart: 'multipart/form-data' } as const

/**
 * Where a body comes from: its headers and its byte stream (null when there is none). On Node the
 * IncomingMessage itself is read (`node`), so a refusal can stop reading without destroying the
 * socket: the 413 or 503 is written first, then the connection is closed.
 */
export interface BodySource {
  readonly headers: Headers
  readonly body: ReadableStream<Uint8Array> | null
  readonly node?: IncomingMessage
}

/** Leases nothing and refuses nothing: for callers without a shared budget. */
const UNBOUNDED: BodyLease = { take: () => true, release: () => {} }

/** The parsed body, or `undefined` when none was sent. */
export async function readBody(request: BodySource, declared: RequestBody, limits: BodyLimits, lease: BodyLease = UNBOUNDED): Promise<unknown> {
  if (declared.kind === 'none') return undefined
  const limit = declared.kind === 'multipart' ? limits.multipartBytes : limits.jsonBytes
  const contentType = request.headers.get('content-type') ?? ''
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase()
  // Uploads are parsed as they arrive: the raw body is never held beside the parts it carries.
  if (declared.kind === 'multipart' && mediaType === MEDIA.multipart) return readMultipart(request, contentType, limit, lease)
  const bytes = await readLimited(request, limit, lease)
  if (bytes.byteLength === 0) return undefined
  if (mediaType !== MEDIA[declared.kind] && !(declared.kind === 'json' && mediaType.endsWith('+json'))) {
    throw new HttpFailure(415, `The request body must be ${MEDIA[declared.kind]}`)
  }
  switch (declared.kind) {
    case 'json':
      return parseJson(bytes)
    case 'form':
      return parseForm(bytes)
    case 'multipart':
      throw new HttpFailure(415, `The request body must be ${MEDIA.multipart}`) // unreachable: matched above
  }
}

/**
 * Reads at most `limit` bytes, refusing early on Content-Length and again while streaming. Every
 * byte is taken from `lease` first (a declared length all at once): past the shared budget the
 * request is refused with 503 and Retry-After instead of being held.
 */
export async function readLimited(request: BodySource, limit: number, lease: BodyLease = UNBOUNDED): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  const total = await pumpBody(request, limit, lease, (chunk) => void chunks.push(chunk))
  return Buffer.concat(chunks, total)
}

/**
 * Hands every body chunk to `sink` in order and answers the byte count, refusing early on
 * Content-Length and again while streaming. Every byte is taken from `lease` first (a declared
 * length all at once): past the shared budget the request is refused with 503 and Retry-After
 * instead of being held. A `sink` that throws an HttpFailure refuses the body the same way.
 */
export async function pumpBody(request: BodySource, limit: number, lease: BodyLease, sink: (chunk: Uint8Array) => void): Promise<number> {
  const declaredLength = Number(request.headers.get('content-length') ?? NaN)
  if (declaredLength > limit) throw tooLarge(limit)
  let leased = declaredLength > 0 ? declaredLength : 0
  if (leased > 0 && !lease.take(leased)) throw busy()
  let total = 0
  /** The refusal for one more chunk, after which nothing more is kept; undefined: keep it. */
  const accept = (chunk: Uint8Array): HttpFailure | undefined => {
    total += chunk.byteLength
    if (total > limit) return tooLarge(limit)
    if (total > leased) {
      if (!lease.take(total - leased)) return busy()
      leased = total
    }
    try {
      sink(chunk)
    } catch (error) {
      if (error instanceof HttpFailure) return error
      throw error
    }
    return undefined
  }
  if (request.node) return hasBody(request.headers) ? pumpNode(request.node, accept).then(() => total) : 0
  if (!request.body) return 0
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return total
    const refusal = accept(value)
    if (refusal) {
      await reader.cancel()
      throw refusal
    }
  }
}

/** RFC 9112 §6.3: a request has a body when it declares a length above zero or a transfer coding. */
export function hasBody(headers: Headers): boolean {
  return Number(headers.get('content-length') ?? 0) > 0 || headers.get('transfer-encoding') !== null
}

/**
 * Reads a Node request without ever destroying it: on a refusal it stops keeping what arrives and
 * lets the rest flow away unread, so the refusal is written and read whole (closing a socket with
 * unread input resets it, and the client may never see the answer). The server's request timeout
 * bounds how long a body can keep arriving.
 */
function pumpNode(request: IncomingMessage, accept: (chunk: Buffer) => HttpFailure | undefined): Promise<void> {
  if (request.readableEnded) return Promise.resolve()
  return new Promise((resolve, reject) => {
    let settled = false
    const settle = (refusal?: HttpFailure) => {
      if (settled) return
      settled = true
      request.off('data', onData).off('end', onEnd).off('error', onFailure).off('close', onClose)
      if (refusal) {
        request.resume() // discarded: no listener keeps it
        reject(refusal)
      } else resolve()
    }
    const onData = (chunk: Buffer) => {
      const refusal = accept(chunk)
      if (refusal) settle(refusal)
    }
    const onEnd = () => settle()
    const onFailure = () => settle(new HttpFailure(400, 'The request body ended before it was complete'))
    const onClose = () => (request.readableEnded ? settle() : onFailure())
    request.on('data', onData).once('end', onEnd).once('error', onFailure).once('close', onClose)
  })
}

export function tooLarge(limit: number): HttpFailure {
  return new HttpFailure(413, `The request body is larger than the limit of ${limit} bytes`)
}

function busy(): HttpFailure {
  return new HttpFailure(503, 'Cairn is receiving as many request bodies as it can hold; try again shortly', { 'retry-after': String(BUDGET_RETRY_AFTER_SECONDS) })
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    throw new HttpFailure(400, 'The request body is not valid JSON')
  }
}

/** RFC 6749 §3.1: parameters sent more than once are refused. */
function parseForm(bytes: Uint8Array): Record<string, string> {
  const params = new URLSearchParams(new TextDecoder().decode(bytes))
  const out: Record<string, string> = Object.create(null) as Record<string, string>
  for (const [key, value] of params) {
    if (Object.hasOwn(out, key)) throw new HttpFailure(400, `Form parameter ${quoteInput(key)} must appear once`)
    out[key] = value
  }
  return out
}
