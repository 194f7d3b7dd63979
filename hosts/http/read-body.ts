/**
 * Reads a request body within its size limit and parses it by the media type the contract
 * declares. Anything malformed is an HttpFailure with a plain sentence.
 */
import type { RequestBody } from '../../core/contract/operation.js'
import type { UploadedFileValue } from '../../core/contract/primitives.js'
import { HttpFailure } from './http-failure.js'
import type { BodyLimits } from './limits.js'

const MEDIA = { json: 'application/json', form: 'application/x-www-form-urlencoded', multipart: 'multipart/form-data' } as const

/** Where a body comes from: its headers and its byte stream (null when there is none). */
export interface BodySource {
  readonly headers: Headers
  readonly body: ReadableStream<Uint8Array> | null
}

/** The parsed body, or `undefined` when none was sent. */
export async function readBody(request: BodySource, declared: RequestBody, limits: BodyLimits): Promise<unknown> {
  if (declared.kind === 'none') return undefined
  const limit = declared.kind === 'multipart' ? limits.multipartBytes : limits.jsonBytes
  const bytes = await readLimited(request, limit)
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

/** Reads at most `limit` bytes, refusing early on Content-Length and again while streaming. */
export async function readLimited(request: BodySource, limit: number): Promise<Uint8Array> {
  const declaredLength = Number(request.headers.get('content-length') ?? NaN)
  if (declaredLength > limit) throw tooLarge(limit)
  if (!request.body) return new Uint8Array(0)
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      await reader.cancel()
      throw tooLarge(limit)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

function tooLarge(limit: number): HttpFailure {
  return new HttpFailure(413, `The request body is larger than the limit of ${limit} bytes`)
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
    if (Object.hasOwn(out, key)) throw new HttpFailure(400, `Form parameter ${key} must appear once`)
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
    if (Object.hasOwn(out, key)) throw new HttpFailure(400, `Multipart field ${key} must appear once`)
    out[key] = typeof value === 'string' ? value : await toUploadedFile(value)
  }
  return out
}

async function toUploadedFile(file: File): Promise<UploadedFileValue> {
  return { filename: file.name, mimeType: file.type || 'application/octet-stream', bytes: new Uint8Array(await file.arrayBuffer()) }
}
