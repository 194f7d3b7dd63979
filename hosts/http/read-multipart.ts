/**
 * multipart/form-data parsed as it arrives (busboy): every body chunk is leased and counted by
 * `pumpBody`, then handed to the parser, so the raw body is never held beside the parts it
 * carries. A file part's bytes are kept once, because every consumer (seal, verify, Twin mind
 * import) hashes and rewrites the exact bytes whole (docs/decisions.md: multipart uploads).
 */
import busboy from 'busboy'
import type { UploadedFileValue } from '../../core/contract/primitives.js'
import { quoteInput } from '../../core/errors/quote-input.js'
import type { BodyLease } from './body-budget.js'
import { HttpFailure } from './http-failure.js'
import { pumpBody, tooLarge, type BodySource } from './read-body.js'

/** Parts a form may carry: the contract's multipart bodies have a file and a few fields. */
const MAX_PARTS = 64

const malformed = (): HttpFailure => new HttpFailure(400, 'The request body is not valid multipart/form-data')

/** The form's fields by name (a string, or an uploaded file), or `undefined` when no body was sent. */
export async function readMultipart(request: BodySource, contentType: string, limit: number, lease: BodyLease): Promise<Record<string, unknown> | undefined> {
  let parser: busboy.Busboy
  try {
    parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', limits: { parts: MAX_PARTS, fieldSize: limit, fileSize: limit } })
  } catch {
    throw malformed() // no boundary, or not multipart at all
  }
  const form: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  const filesPending: Promise<void>[] = []
  let refusal: HttpFailure | undefined
  const refuse = (failure: HttpFailure) => void (refusal ??= failure)
  const claim = (name: string): boolean => {
    if (!Object.hasOwn(form, name)) return true
    refuse(new HttpFailure(400, `Multipart field ${quoteInput(name)} must appear once`))
    return false
  }

  parser.on('field', (name, value, info) => {
    if (info.valueTruncated || info.nameTruncated) return refuse(tooLarge(limit))
    if (claim(name)) form[name] = value
  })
  parser.on('file', (name, stream, info) => {
    const chunks: Buffer[] = []
    if (claim(name)) form[name] = null // reserved now so a second part of that name is refused in order
    filesPending.push(
      new Promise<void>((resolve) => {
        stream.on('data', (chunk: Buffer) => void chunks.push(chunk))
        stream.once('error', () => (refuse(malformed()), resolve()))
        stream.once('end', () => {
          if (stream.truncated) refuse(tooLarge(limit))
          else if (form[name] === null) form[name] = { filename: info.filename ?? '', mimeType: info.mimeType || 'application/octet-stream', bytes: new Uint8Array(Buffer.concat(chunks)) } satisfies UploadedFileValue
          resolve()
        })
      }),
    )
  })
  parser.on('partsLimit', () => refuse(new HttpFailure(400, `A multipart body may carry at most ${MAX_PARTS} parts`)))
  const finished = new Promise<void>((resolve) => {
    parser.once('close', resolve)
    parser.once('error', () => (refuse(malformed()), resolve()))
  })

  const total = await pumpBody(request, limit, lease, (chunk) => {
    parser.write(chunk)
    if (refusal) throw refusal
  })
  if (total === 0) return undefined
  parser.end()
  await finished
  await Promise.all(filesPending)
  if (refusal) throw refusal
  return form
}
