import { mkdir, readdir, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { eachTempDir } from '../../conformance/support/temp-dir.js'
import { sha256Hex } from '../../core/digest/sha256.js'
import { PortUnavailableError } from '../../ports/errors.js'
import { FsBlobStore } from './fs-blob-store.js'

// The BlobStore contract itself is proven by conformance/matrix.test.ts; these are FsBlobStore's own promises.
describe('FsBlobStore', () => {
  const dir = eachTempDir('cairn-fs-blobs-')

  it('keeps each blob at <root>/<first 2 hex>/<sha256> and leaves no temporary file behind', async () => {
    const root = join(dir().path, 'blobs')
    const blobs = new FsBlobStore({ root })
    const bytes = new TextEncoder().encode('sharded')
    const { sha256 } = await blobs.put(bytes)
    await blobs.putStream((async function* () { yield new TextEncoder().encode('streamed') })())
    expect(blobs.pathOf(sha256)).toBe(join(root, sha256.slice(0, 2), sha256))
    expect((await stat(blobs.pathOf(sha256))).size).toBe(bytes.byteLength)
    expect(await readdir(join(root, '.incoming'))).toEqual([])
    expect(await readdir(join(root, sha256.slice(0, 2)))).toEqual([sha256])
  })

  it('does not touch the disk until first used', async () => {
    const root = join(dir().path, 'later')
    const blobs = new FsBlobStore(root)
    await expect(stat(root)).rejects.toThrow()
    expect(await blobs.has(sha256Hex('x'))).toBe(false)
    await blobs.put(new Uint8Array([1]))
    expect((await stat(root)).isDirectory()).toBe(true)
  })

  it('sweeps temporary files a crash left long ago, and only those', async () => {
    const root = join(dir().path, 'blobs')
    await mkdir(join(root, '.incoming'), { recursive: true })
    const old = join(root, '.incoming', '.tmp-1-old')
    const fresh = join(root, '.incoming', '.tmp-2-fresh')
    await writeFile(old, 'half a blob')
    await writeFile(fresh, 'another host is writing this')
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000)
    await utimes(old, twoDaysAgo, twoDaysAgo)
    await new FsBlobStore({ root }).put(new Uint8Array([1]))
    expect(await readdir(join(root, '.incoming'))).toEqual(['.tmp-2-fresh'])
  })

  it('reports a root it cannot use as PortUnavailableError', async () => {
    const file = join(dir().path, 'not-a-directory')
    await writeFile(file, 'x')
    const blobs = new FsBlobStore({ root: join(file, 'blobs') })
    await expect(blobs.put(new Uint8Array([1]))).rejects.toBeInstanceOf(PortUnavailableError)
    await expect(blobs.has(sha256Hex('x'))).rejects.toBeInstanceOf(PortUnavailableError)
  })

  it('refuses calls once closed', async () => {
    const blobs = new FsBlobStore({ root: dir().path })
    await blobs.close()
    await expect(blobs.get(sha256Hex('x'))).rejects.toBeInstanceOf(PortUnavailableError)
  })
})
