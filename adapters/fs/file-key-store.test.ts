import { mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { generateKeyPair as generateKeyPairCallback } from 'node:crypto'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { calculateJwkThumbprint } from 'jose'
import { describe, expect, it } from 'vitest'
import { eachTempDir } from '../../conformance/support/temp-dir.js'
import { PortUnavailableError } from '../../ports/errors.js'
import { FileKeyStore } from './file-key-store.js'

const generateKeyPair = promisify(generateKeyPairCallback)

// Signing, rotation and surviving a reopen are proven by conformance/matrix.test.ts (store=sqlite).
describe('FileKeyStore', () => {
  const dir = eachTempDir('cairn-file-keys-')

  it('writes its keys readable by the owner only, and nothing else beside them', async () => {
    const file = join(dir().path, 'keys', 'keys.json')
    const keys = new FileKeyStore({ file })
    await keys.current('EdDSA')
    await keys.rotate('EdDSA')
    await keys.current('ES256')
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(await readdir(join(dir().path, 'keys'))).toEqual(['keys.json'])
    const content = JSON.parse(await readFile(file, 'utf8')) as { format: string; keys: { alg: string; purpose: string; retiredAt?: string; jwk: { d?: string } }[] }
    expect(content.format).toBe('cairn.keys.v2')
    expect(content.keys.map(({ alg, purpose, retiredAt }) => ({ alg, purpose, retired: retiredAt !== undefined }))).toEqual([
      { alg: 'EdDSA', purpose: 'token', retired: true },
      { alg: 'EdDSA', purpose: 'token', retired: false },
      { alg: 'ES256', purpose: 'token', retired: false },
    ])
    expect(content.keys.every((key) => typeof key.jwk.d === 'string')).toBe(true)
  })

  it('reads a v1 key file (no purposes, no dates) as token keys and writes it back as v2 when first read', async () => {
    const file = join(dir().path, 'keys.json')
    const current = (await generateKeyPair('ed25519')).privateKey.export({ format: 'jwk' })
    const retired = (await generateKeyPair('ec', { namedCurve: 'P-256' })).privateKey.export({ format: 'jwk' })
    await writeFile(file, JSON.stringify({ format: 'cairn.keys.v1', keys: [{ alg: 'ES256', retired: true, jwk: retired }, { alg: 'EdDSA', retired: false, jwk: current }] }))
    const keys = new FileKeyStore(file)
    const kid = await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: current.x! })
    expect((await keys.current('EdDSA')).kid).toBe(kid)
    expect((JSON.parse(await readFile(file, 'utf8')) as { format: string }).format).toBe('cairn.keys.v2')
    expect((await keys.jwks()).keys.map((jwk) => jwk.alg)).toEqual(['EdDSA', 'ES256'])
    expect((await keys.jwks('proof')).keys).toEqual([])
    await keys.current('EdDSA', 'proof')
    const content = JSON.parse(await readFile(file, 'utf8')) as { format: string; keys: { kid: string; purpose: string }[] }
    expect(content.format).toBe('cairn.keys.v2')
    expect(content.keys.map((key) => key.purpose)).toEqual(['token', 'token', 'proof'])
    expect(content.keys[1]!.kid).toBe(kid)
  })

  it("takes over a lock left by a process that died, and waits for a live one's lock, then gives up as unavailable", async () => {
    const file = join(dir().path, 'keys.json')
    await mkdir(`${file}.lock`)
    const minuteAgo = new Date(Date.now() - 60_000)
    await utimes(`${file}.lock`, minuteAgo, minuteAgo)
    const key = await new FileKeyStore(file).current('EdDSA')
    expect((await new FileKeyStore(file).current('EdDSA')).kid).toBe(key.kid)
    await mkdir(`${file}.lock`) // fresh: a live process holds it
    const started = Date.now()
    await expect(new FileKeyStore({ file, lockWaitMs: 300 }).rotate('EdDSA')).rejects.toBeInstanceOf(PortUnavailableError)
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
    await rm(`${file}.lock`, { recursive: true })
    expect((await new FileKeyStore(file).rotate('EdDSA')).kid).not.toBe(key.kid)
  })

  it('reports a key file it cannot read as PortUnavailableError', async () => {
    const file = join(dir().path, 'keys.json')
    for (const content of [JSON.stringify({ keys: [] }), '{ half a file', JSON.stringify({ format: 'cairn.keys.v1', keys: [{ alg: 'EdDSA', retired: false, jwk: { kty: 'OKP' } }] })]) {
      await writeFile(file, content)
      await expect(new FileKeyStore(file).jwks()).rejects.toBeInstanceOf(PortUnavailableError)
    }
  })

  it('reports a failed write as PortUnavailableError and changes nothing until a write succeeds', async () => {
    const folder = join(dir().path, 'keys')
    const keys = new FileKeyStore({ file: join(folder, 'keys.json') })
    expect((await keys.jwks()).keys).toEqual([]) // no file yet
    await writeFile(folder, 'a file where the folder should be')
    await expect(keys.current('EdDSA')).rejects.toBeInstanceOf(PortUnavailableError)
    await expect(keys.jwks()).rejects.toBeInstanceOf(PortUnavailableError)
    await rm(folder)
    expect((await keys.jwks()).keys).toEqual([])
    const key = await keys.current('EdDSA')
    expect((await new FileKeyStore({ file: join(folder, 'keys.json') }).current('EdDSA')).kid).toBe(key.kid)
  })
})
