import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { eachTempDir } from '../../conformance/support/temp-dir.js'
import { PortUnavailableError } from '../../ports/errors.js'
import { FileKeyStore } from './file-key-store.js'

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
    const content = JSON.parse(await readFile(file, 'utf8')) as { format: string; keys: { alg: string; retired: boolean; jwk: { d?: string } }[] }
    expect(content.format).toBe('cairn.keys.v1')
    expect(content.keys.map(({ alg, retired }) => ({ alg, retired }))).toEqual([
      { alg: 'EdDSA', retired: true },
      { alg: 'EdDSA', retired: false },
      { alg: 'ES256', retired: false },
    ])
    expect(content.keys.every((key) => typeof key.jwk.d === 'string')).toBe(true)
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
    expect((await keys.jwks()).keys).toEqual([]) // loaded: no file yet
    await writeFile(folder, 'a file where the folder should be')
    await expect(keys.current('EdDSA')).rejects.toBeInstanceOf(PortUnavailableError)
    expect((await keys.jwks()).keys).toEqual([])
    await rm(folder)
    const key = await keys.current('EdDSA')
    expect((await new FileKeyStore({ file: join(folder, 'keys.json') }).current('EdDSA')).kid).toBe(key.kid)
  })
})
