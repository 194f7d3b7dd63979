/**
 * The Verification surface over HTTP: multipart seal and verify, `Accept: application/octet-stream`
 * for the sealed bytes themselves, the verify pages every verifyPath points at, the trust document
 * and the browser bundle of the verifier.
 */
import { createHash } from 'node:crypto'
import { expect, it } from 'vitest'
import { pngFile } from '../../conformance/proof/payloads.js'
import { describeHosts } from './test-support.js'

const form = (bytes: Uint8Array, name = 'image.png', type = 'image/png') => {
  const body = new FormData()
  body.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name)
  return body
}

describeHosts('Verification over HTTP', ({ request }) => {
  const original = pngFile([new TextEncoder().encode('http pixels')])

  it('seals a multipart file, answers metadata or the exact sealed bytes, and verifies them back', async () => {
    const metadata = await request('/api/document-seal', { method: 'POST', body: form(original) })
    expect(metadata.status).toBe(200)
    const body = (await metadata.json()) as Record<string, any>
    expect(body).toMatchObject({ ok: true, kind: 'integrity-seal', byteLength: original.length })

    const download = await request('/api/document-seal', { method: 'POST', body: form(original), headers: { accept: 'application/octet-stream' } })
    expect(download.status).toBe(200)
    expect(download.headers.get('content-type')).toBe('image/png')
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="image.png"/)
    const sealed = new Uint8Array(await download.arrayBuffer())
    expect(download.headers.get('x-cairn-source-sha256')).toBe(body.sourceSha256)

    const verdict = await request('/api/document-verify', { method: 'POST', body: form(sealed) })
    expect(verdict.status).toBe(200)
    expect(await verdict.json()).toMatchObject({ ok: true, kind: 'integrity-seal', errors: [] })

    const tampered = sealed.slice()
    tampered[tampered.length - 20] = tampered.at(-20)! ^ 1
    const bad = await request('/api/document-verify', { method: 'POST', body: form(tampered) })
    expect(bad.status).toBe(200)
    expect(await bad.json()).toMatchObject({ ok: false, kind: 'unknown' })

    const page = await request(new URL(body.proof.verifyUrl).pathname)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await page.text()).toContain(body.sourceSha256)
  })


  it('streams a large package artifact as its parts with its Content-Length; the JSON answer carries the bytes its sealedSha256 names', async () => {
    const payload = new Uint8Array(300_000).map((_, i) => (i * 31) & 0xff)
    const download = await request('/api/document-seal', { method: 'POST', body: form(payload, 'data.bin', 'application/octet-stream'), headers: { accept: 'application/octet-stream' } })
    expect(download.status).toBe(200)
    expect(download.headers.get('content-type')).toBe('application/zip')
    const sealed = new Uint8Array(await download.arrayBuffer())
    expect(download.headers.get('content-length')).toBe(String(sealed.length))
    const verdict = await request('/api/document-verify', { method: 'POST', body: form(sealed, 'data.bin.cairn.zip', 'application/zip') })
    expect(await verdict.json()).toMatchObject({ ok: true, kind: 'integrity-seal', byteLength: payload.length, errors: [] })
    const json = (await (await request('/api/document-seal', { method: 'POST', body: form(payload, 'data.bin', 'application/octet-stream') })).json()) as Record<string, any>
    const fromJson = new Uint8Array(Buffer.from(json.sealedBytesB64u, 'base64url'))
    expect(createHash('sha256').update(fromJson).digest('hex')).toBe(json.sealedSha256)
  })
  it('refuses an empty file with a 400 and an unknown verify path with a 404', async () => {
    const empty = await request('/api/document-seal', { method: 'POST', body: form(new Uint8Array()) })
    expect(empty.status).toBe(400)
    expect(await empty.json()).toEqual({ ok: false, error: 'The file is empty; there is nothing to seal' })
    expect((await request('/verify/0000000000deadbeef00')).status).toBe(404)
  })

  it('serves the verify page, the trust document and the verifier bundle', async () => {
    const page = await (await request('/verify')).text()
    expect(page).toContain('nothing is uploaded')
    const keys = (await (await request('/proof/keys')).json()) as { keys: { kid: string }[]; logKeys: string[] }
    expect(keys.keys.length).toBeGreaterThan(0)
    expect(keys.logKeys[0]).toMatch(/\/log\+[0-9a-f]{8}\+/)
    const script = await request('/proof/verifier.js')
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/)
    expect((await script.text()).length).toBeGreaterThan(1000)
  }, 30_000)

  it('runs the conformance vectors and describes the legacy surface', async () => {
    expect(await (await request('/api/verification/conformance')).json()).toMatchObject({ ok: true, passed: 17, total: 17 })
    expect(((await (await request('/api/cairn')).json()) as { status: string }).status).toBe('superseded')
  })
})
