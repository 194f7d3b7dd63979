/**
 * Reads a request body within its size limit and parses it by the media type the contract
 * declares. Anything malformed is an HttpFailure with a plain sentence.
 */
import type { IncomingMessage } from 'node:http'
import type { RequestBody } from '../../core/contract/operation.js'
import type { UploadedFileValue } from '../../core/contract/primitives.js'
import { quoteInput } from '../../core/errors/quote-input.js'
import { HttpFailure } from './http-failure.js'
import type { BodyLimits } from './limits.js'
import { BUDGET_RETRY_AFTER_SECONDS, type BodyLease } from './body-budget.js'

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
  const bytes = await readLimited(request, limit, lease)
  if (bytes.byteLength === 0) return undefined
  const contentType = request.headers.get('content-type') ?? ''
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase()
  if (mediaType !== MEDIA[declared.kind] && !(declared.kind === 'json' && mediaType.endsWith('+json'))) {
    throw new HttpFailure(415, `The request body must be ${MEDIA[declared.kind]}`)
  }
  switch (declared.kind) {
    case 'json':
      return parseJson(bytes)
    case 'form':
      return parseForm(bytes)
    case 'multipart':
      return parseMultipart(bytes, contentType)
  }
}

/**
 * Reads at most `limit` bytes, refusing early on Content-Length and again while streaming. Every
 * byte is taken from `lease` first (a declared length all at once): past the shared budget the
 * request is refused with 503 and Retry-After instead of being held.
 */
export async function readLimited(request: BodySource, limit: number, lease: BodyLease = UNBOUNDED): Promise<Uint8Array> {
  const declaredLength = Number(request.headers.get('content-length') ?? NaN)
  if (declaredLength > limit) throw tooLarge(limit)
  let leased = declaredLength > 0 ? declaredLength : 0
  if (leased > 0 && !lease.take(leased)) throw busy()
  if (request.node) return hasBody(request.headers) ? readNode(request.node, limit, lease, leased) : new Uint8Array(0)
  if (!request.body) return new Uint8Array(0)
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    const refusal = total > limit ? tooLarge(limit) : total > leased && !lease.take(total - leased) ? busy() : undefined
    if (refusal) {
      await reader.cancel()
      throw refusal
    }
    leased = Math.max(leased, total)
    chunks.push(value)
  }
  return Buffer.concat(chunks)
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
function readNode(request: IncomingMessage, limit: number, lease: BodyLease, leasedUpFront: number): Promise<Uint8Array> {
  if (request.readableEnded) return Promise.resolve(new Uint8Array(0))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let total = 0
    let leased = leasedUpFront
    let settled = false
    const settle = (refusal?: HttpFailure) => {
      if (settled) return
      settled = true
      request.off('data', onData).off('end', onEnd).off('error', onFailure).off('close', onClose)
      if (refusal) {
        request.resume() // discarded: no listener keeps it
        reject(refusal)
      } else resolve(Buffer.concat(chunks, total))
    }
    const onData = (chunk: Buffer) => {
      total += chunk.length
      if (total > limit) return settle(tooLarge(limit))
      if (total > leased) {
        if (!lease.take(total - leased)) return settle(busy())
        leased = total
      }
      chunks.push(chunk)
    }
    const onEnd = () => settle()
    const onFailure = () => settle(new HttpFailure(400, 'The request body ended before it was complete'))
    const onClose = () => (request.readableEnded ? settle() : onFailure())
    request.on('data', onData).once('end', onEnd).once('error', onFailure).once('close', onClose)
  })
}

function tooLarge(limit: number): HttpFailure {
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

async function parseMultipart(bytes: Uint8Array, contentType: string): Promise<Record<string, unknown>> {
  let data: FormData
  try {
    data = await new Response(bytes as BodyInit, { headers: { 'content-type': contentType } }).formData()
  } catch {
    throw new HttpFailure(400, 'The request body is not valid multipart/form-data')
  }
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const [key, value] of data) {
    if (Object.hasOwn(out, key)) throw new HttpFailure(400, `Multipart field ${quoteInput(key)} must appear once`)
    out[key] = typeof value === 'string' ? value : await toUploadedFile(value)
  }
  return out
}

async function toUploadedFile(file: File): Promise<UploadedFileValue> {
  return { filename: file.name, mimeType: file.type || 'application/octet-stream', bytes: new Uint8Array(await file.arrayBuffer()) }
}
