import { describe, expect, it } from 'vitest'
import { BodyBudget } from './body-budget.js'
import { HttpFailure } from './http-failure.js'
import { readBody, type BodySource } from './read-body.js'

const MULTIPART = { kind: 'multipart', schema: 'DocumentSealRequest', required: true } as const
const LIMITS = { jsonBytes: 1024, multipartBytes: 64 * 1024 }

/** A body source as `app.fetch` hands it over: the Request's headers and stream. */
async function sourceOf(body: BodyInit, contentType?: string): Promise<BodySource> {
  const request = new Request('http://cairn.test/upload', { method: 'POST', body, ...(contentType ? { headers: { 'content-type': contentType } } : {}) })
  return { headers: request.headers, body: request.body }
}

const raw = (boundary: string, parts: string[]): string => parts.map((part) => `--${boundary}\r\n${part}\r\n`).join('') + `--${boundary}--\r\n`

async function refusalOf(promise: Promise<unknown>): Promise<HttpFailure> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught)
  expect(error).toBeInstanceOf(HttpFailure)
  return error as HttpFailure
}

describe('multipart bodies, parsed as they arrive', () => {
  it('gives fields as strings and files as exact bytes with their name and type', async () => {
    const bytes = Uint8Array.from({ length: 3000 }, (_, index) => (index * 7) % 256)
    const form = new FormData()
    form.set('note', 'hello')
    form.set('file', new File([bytes], 'résumé.bin', { type: 'application/x-test' }))
    const body = (await readBody(await sourceOf(form), MULTIPART, LIMITS)) as Record<string, unknown>
    expect(body['note']).toBe('hello')
    expect(body['file']).toEqual({ filename: 'résumé.bin', mimeType: 'application/x-test', bytes })
  })

  it('answers undefined when no body was sent', async () => {
    expect(await readBody(await sourceOf('', 'multipart/form-data; boundary=x'), MULTIPART, LIMITS)).toBeUndefined()
  })

  it('refuses a field sent twice, a file sent twice, and a field and file of one name', async () => {
    const cases = [
      ['Content-Disposition: form-data; name="a"\r\n\r\n1', 'Content-Disposition: form-data; name="a"\r\n\r\n2'],
      ['Content-Disposition: form-data; name="f"; filename="x"\r\n\r\n1', 'Content-Disposition: form-data; name="f"; filename="y"\r\n\r\n2'],
      ['Content-Disposition: form-data; name="f"\r\n\r\n1', 'Content-Disposition: form-data; name="f"; filename="y"\r\n\r\n2'],
    ]
    for (const parts of cases) {
      const refusal = await refusalOf(readBody(await sourceOf(raw('b0', parts), 'multipart/form-data; boundary=b0'), MULTIPART, LIMITS))
      expect(refusal.status).toBe(400)
      expect(refusal.message).toMatch(/must appear once/)
    }
  })

  it('refuses a body without a boundary, a truncated body and too many parts with 400', async () => {
    const noBoundary = await refusalOf(readBody(await sourceOf('--x\r\n', 'multipart/form-data'), MULTIPART, LIMITS))
    expect(noBoundary).toMatchObject({ status: 400, message: 'The request body is not valid multipart/form-data' })
    const truncated = await refusalOf(readBody(await sourceOf('--b1\r\nContent-Disposition: form-data; name="a"\r\n\r\nhal', 'multipart/form-data; boundary=b1'), MULTIPART, LIMITS))
    expect(truncated.status).toBe(400)
    const many = raw('b2', Array.from({ length: 65 }, (_, index) => `Content-Disposition: form-data; name="p${index}"\r\n\r\nv`))
    const tooMany = await refusalOf(readBody(await sourceOf(many, 'multipart/form-data; boundary=b2'), MULTIPART, LIMITS))
    expect(tooMany).toMatchObject({ status: 400, message: 'A multipart body may carry at most 64 parts' })
  })

  it('refuses past the limit with 413 and past the shared budget with 503, leasing every byte it keeps', async () => {
    const form = new FormData()
    form.set('file', new File([new Uint8Array(70 * 1024)], 'big.bin'))
    expect((await refusalOf(readBody(await sourceOf(form), MULTIPART, LIMITS))).status).toBe(413)

    const small = new FormData()
    small.set('file', new File([new Uint8Array(20 * 1024)], 'small.bin'))
    const budget = new BodyBudget(8 * 1024)
    const refusal = await refusalOf(readBody(await sourceOf(small), MULTIPART, LIMITS, budget.lease()))
    expect(refusal.status).toBe(503)
    expect(refusal.headers).toMatchObject({ 'retry-after': '2' })

    const roomy = new BodyBudget(64 * 1024)
    const lease = roomy.lease()
    await readBody(await sourceOf(small), MULTIPART, LIMITS, lease)
    expect(roomy.heldBytes).toBeGreaterThan(20 * 1024)
    lease.release()
    expect(roomy.heldBytes).toBe(0)
  })

  it('refuses another media type with 415', async () => {
    const refusal = await refusalOf(readBody(await sourceOf('{}', 'application/json'), MULTIPART, LIMITS))
    expect(refusal.status).toBe(415)
  })
})
