/**
 * Journey 1, a creator: signs in, seals an image as an asset they own, has its public URL
 * observed, and a stranger verifies it online (`/api/verify`, `/api/document-verify`) and offline
 * (`cairn verify --trust` with the keys the server publishes); a tampered copy fails everywhere.
 * Over HTTP and the CLI only, on `cairn serve --data-dir` with a deployment file.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pngFile } from '../conformance/proof/payloads.js'
import { call, expectConserved, runCli, signIn, startJourneyServer, type JourneyServer } from './journey-server.js'

let server: JourneyServer
beforeAll(async () => {
  server = await startJourneyServer({ payments: { processor: 'test', phiPerUsd: '100' } })
}, 60_000)
afterAll(async () => server?.stop())

const upload = (bytes: Uint8Array, name: string) => {
  const form = new FormData()
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/png' }), name)
  return form
}

describe('journey 1: a creator seals an owned asset that strangers verify online and offline', () => {
  it('sign in → seal → public URL observed → verified online and offline → a tampered copy fails', async () => {
    // A stranger pins the deployment's keys before anything is sealed, as the README's quick start does.
    const pinnedKeys = await (await fetch(`${server.url}/proof/keys`)).text()
    const ada = await signIn(server, 'ada')
    const original = pngFile([new TextEncoder().encode('ada paints a cairn')])

    // Seal: the answer names the proof, its public verify URL and the exact sealed bytes.
    const sealing = await fetch(`${server.url}/api/sdk/v1/assets/seal`, { method: 'POST', body: upload(original, 'cairn.png'), headers: { cookie: ada.cookie } })
    expect(sealing.status).toBe(200)
    const sealed = (await sealing.json()) as { ok: boolean; kind: string; sealedBytesB64u: string; sourceSha256: string; proof: { code: string; verifyUrl: string } }
    expect(sealed).toMatchObject({ ok: true, kind: 'proof-object', proof: { verifyUrl: expect.stringMatching(new RegExp(`^${server.url}/verify/`)) } })
    const bytes = new Uint8Array(Buffer.from(sealed.sealedBytesB64u, 'base64url'))

    // Its public URL is a page anyone opens, and the public proof registry observes it.
    const page = await fetch(sealed.proof.verifyUrl)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(sealed.sourceSha256)
    const observed = await call(server, 'POST', '/api/public-proof/observe', { body: { url: sealed.proof.verifyUrl } })
    expect(observed.status).toBe(200)
    expect(observed.body).toMatchObject({ ok: true, created: true, record: { id: expect.stringMatching(/^pp_[0-9a-f]{32}$/), kind: 'observed', state: 'observed' } })
    const byUrl = await call(server, 'GET', `/api/public-proof/by-url?url=${encodeURIComponent(sealed.proof.verifyUrl)}`)
    expect(byUrl).toMatchObject({ status: 200, body: { record: { id: observed.body.record.id } } })

    // A stranger, online: the registry knows the claim, and the bytes verify as ada's proof object.
    const claim = await call(server, 'POST', '/api/verify', { body: { verifyUrl: sealed.proof.verifyUrl } })
    expect(claim.status).toBe(200)
    expect(JSON.stringify(claim.body)).toContain(sealed.proof.code)
    const verdict = await fetch(`${server.url}/api/document-verify`, { method: 'POST', body: upload(bytes, 'cairn.png') })
    expect(await verdict.json()).toMatchObject({ ok: true, kind: 'proof-object', errors: [], details: { owner: { username: 'ada' } } })

    // Offline: the keys pinned before the seal, in a file, and the CLI.
    writeFileSync(join(server.dir, 'keys.json'), pinnedKeys)
    writeFileSync(join(server.dir, 'cairn.png'), bytes)
    const offline = await runCli(['verify', join(server.dir, 'cairn.png'), '--trust', join(server.dir, 'keys.json'), '--json'])
    expect(offline.code).toBe(0)
    expect(JSON.parse(offline.stdout)).toMatchObject({ ok: true, kind: 'proof-object' })

    // A tampered copy fails online and offline.
    const tampered = bytes.slice()
    const at = tampered.indexOf(0x70, 64)
    tampered[at] = tampered[at]! ^ 0x01
    const refused = await fetch(`${server.url}/api/document-verify`, { method: 'POST', body: upload(tampered, 'cairn.png') })
    expect(refused.status).toBe(200)
    expect(await refused.json()).toMatchObject({ ok: false })
    writeFileSync(join(server.dir, 'tampered.png'), tampered)
    expect((await runCli(['verify', join(server.dir, 'tampered.png'), '--trust', join(server.dir, 'keys.json')])).code).toBe(1)
    expect(readFileSync(join(server.dir, 'cairn.png'))).toEqual(Buffer.from(bytes))

    // No value moved on this journey: the public wallet ledger is empty and balanced.
    await expectConserved(server, [])
  }, 120_000)
})
