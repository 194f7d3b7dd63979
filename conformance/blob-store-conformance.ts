/**
 * The BlobStore conformance suite: content addressing, idempotent puts, streaming both ways without
 * holding a whole blob, and integrity: damaged bytes at rest are detected and never served as good.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { patternedBytes } from '../adapters/shared/test-bytes.js'
import { sha256Hex } from '../core/digest/sha256.js'
import { BlobIntegrityError, PortUnavailableError } from '../ports/errors.js'
import { closeQuietly, eachTest } from './support/each-test.js'
import { openBlobFixture, type BlobStoreConformanceOptions } from './targets.js'

const MiB = 1024 * 1024

/**
 * What two byte arrays are, in a few words: length, digest and the first difference. A failing
 * comparison prints this, never a whole Uint8Array (a 200,000-line diff helps nobody).
 */
function bytesSummary(bytes: Uint8Array | undefined, against?: Uint8Array): string {
  if (bytes === undefined) return 'undefined'
  let firstDifference = -1
  if (against) for (let i = 0; i < Math.max(bytes.length, against.length); i++) if (bytes[i] !== against[i]) { firstDifference = i; break }
  return `${bytes.length} bytes, sha256 ${sha256Hex(bytes)}${firstDifference >= 0 ? `, first difference at byte ${firstDifference}` : ''}`
}
const expectSameBytes = (actual: Uint8Array | undefined, expected: Uint8Array) => expect(bytesSummary(actual, expected)).toBe(bytesSummary(expected))

/**
 * @example
 * describeBlobStoreConformance({ name: 'blobs=memory', create: async () => new MemoryBlobStore() })
 */
export function describeBlobStoreConformance(options: BlobStoreConformanceOptions): void {
  describe(`${options.name} BlobStore`, () => {
    const fixture = eachTest(() => openBlobFixture(options.create), (opened) => opened.dispose())

    it('addresses bytes by their SHA-256 and gives them back exactly', async () => {
      const { blobs } = fixture()
      const bytes = new TextEncoder().encode('hello, cairn')
      const ref = await blobs.put(bytes)
      expect(ref).toEqual({ sha256: sha256Hex(bytes), size: bytes.byteLength })
      expect(await blobs.has(ref.sha256)).toBe(true)
      expectSameBytes(await blobs.get(ref.sha256), bytes)
    })

    it('stores the empty blob', async () => {
      const { blobs } = fixture()
      const ref = await blobs.put(new Uint8Array())
      expect(ref).toEqual({ sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', size: 0 })
      expectSameBytes(await blobs.get(ref.sha256), new Uint8Array())
    })

    it('treats a second put of the same bytes as the same blob, also when racing', async () => {
      const { blobs } = fixture()
      const bytes = new Uint8Array([1, 2, 3])
      const refs = await Promise.all([blobs.put(bytes), blobs.put(bytes), blobs.put(new Uint8Array(bytes))])
      expect(new Set(refs.map((ref) => ref.sha256)).size).toBe(1)
      expectSameBytes(await blobs.get(refs[0]!.sha256), bytes)
    })

    it('answers absence for unknown and malformed addresses', async () => {
      const { blobs } = fixture()
      const unknown = sha256Hex('never stored')
      expect(await blobs.has(unknown)).toBe(false)
      expect(await blobs.get(unknown)).toBeUndefined()
      expect(await blobs.getStream(unknown)).toBeUndefined()
      for (const malformed of ['', 'abc', '../../etc/passwd', unknown.toUpperCase(), `${unknown}0`]) {
        expect(await blobs.has(malformed)).toBe(false)
        expect(await blobs.get(malformed)).toBeUndefined()
      }
    })

    it('is not changed through bytes the caller passed in or got back', async () => {
      const { blobs } = fixture()
      const bytes = new Uint8Array([9, 9, 9])
      const ref = await blobs.put(bytes)
      bytes[0] = 0
      const read = await blobs.get(ref.sha256)
      read![1] = 0
      expectSameBytes(await blobs.get(ref.sha256), new Uint8Array([9, 9, 9]))
    })

    it(`streams a ${options.largeBlobMiB ?? 6} MiB blob in and out`, async () => {
      const { blobs } = fixture()
      const size = (options.largeBlobMiB ?? 6) * MiB + 12_345
      const bytes = patternedBytes(size)
      const expected = sha256Hex(bytes)
      const ref = await blobs.putStream(unevenChunks(bytes))
      expect(ref).toEqual({ sha256: expected, size })
      expect(await blobs.put(bytes)).toEqual(ref)
      const hash = createHash('sha256')
      let received = 0
      for await (const chunk of (await blobs.getStream(expected))!) {
        hash.update(chunk)
        received += chunk.byteLength
      }
      expect({ sha256: hash.digest('hex'), size: received }).toEqual(ref)
      expect(sha256Hex((await blobs.get(expected))!)).toBe(expected)
    })

    it('refuses to serve bytes damaged at rest', async (context) => {
      const { blobs, corrupt } = fixture()
      if (corrupt === undefined) return context.skip('the fixture cannot damage stored bytes (no corrupt hook)')
      const bytes = patternedBytes(200_000)
      const ref = await blobs.put(bytes)
      await corrupt(ref.sha256)
      await expect(blobs.get(ref.sha256)).rejects.toBeInstanceOf(BlobIntegrityError)
      const stream = await blobs.getStream(ref.sha256)
      const consume = async () => {
        for await (const _chunk of stream!);
      }
      await expect(consume()).rejects.toBeInstanceOf(BlobIntegrityError)
    })

    it('reports a missing backend as unavailable on every call, never as an absent blob', async (context) => {
      const { missingBackend } = fixture()
      if (missingBackend === undefined) return context.skip('the backend cannot be missing (no missingBackend hook)')
      const gone = await missingBackend()
      try {
        const digest = sha256Hex('anything')
        await expect(gone.has(digest)).rejects.toBeInstanceOf(PortUnavailableError)
        await expect(gone.get(digest)).rejects.toBeInstanceOf(PortUnavailableError)
        await expect(gone.getStream(digest)).rejects.toBeInstanceOf(PortUnavailableError)
        await expect(gone.put(new Uint8Array([1]))).rejects.toBeInstanceOf(PortUnavailableError)
      } finally {
        await closeQuietly(gone)
      }
    })
  })
}

/** Chunks of varying sizes (1 byte to ~1 MiB), as a network would deliver them. */
async function* unevenChunks(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  const sizes = [1, 7, 65_536, 1_000_003, 333_333]
  let offset = 0
  for (let i = 0; offset < bytes.byteLength; i += 1) {
    const size = sizes[i % sizes.length]!
    yield bytes.subarray(offset, offset + size)
    offset += size
  }
}
