/**
 * BlobStore in process memory. Every read is checked against its address like the durable adapters,
 * so the conformance suite can damage bytes in the map it injects and watch them be refused.
 */
import { createHash } from 'node:crypto'
import { sha256Hex } from '../../core/digest/sha256.js'
import type { BlobRef, BlobStore } from '../../ports/blob-store.js'
import { BlobIntegrityError, PortUnavailableError } from '../../ports/errors.js'
import { isSha256Hex, verifiedChunks } from '../shared/verified-blob.js'

/** The adapter's name, as configuration and logs spell it. */
export const MEMORY_BLOB_STORE_NAME = 'memory'

/** Chunk size of `getStream`. */
const STREAM_CHUNK_BYTES = 64 * 1024

/**
 * @example
 * const blobs = new MemoryBlobStore()
 * const { sha256 } = await blobs.put(new TextEncoder().encode('hello'))
 */
export class MemoryBlobStore implements BlobStore {
  private closed = false

  /** @param bytes where the blobs live, by SHA-256 (inject a map to reach the bytes behind the store's back) */
  constructor(private readonly bytes: Map<string, Uint8Array> = new Map()) {}

  async put(bytes: Uint8Array): Promise<BlobRef> {
    this.assertOpen()
    const sha256 = sha256Hex(bytes)
    if (!this.bytes.has(sha256)) this.bytes.set(sha256, new Uint8Array(bytes))
    return { sha256, size: bytes.byteLength }
  }

  async putStream(chunks: AsyncIterable<Uint8Array>): Promise<BlobRef> {
    this.assertOpen()
    const hash = createHash('sha256')
    const parts: Uint8Array[] = []
    for await (const chunk of chunks) {
      hash.update(chunk)
      parts.push(new Uint8Array(chunk))
    }
    const sha256 = hash.digest('hex')
    const joined = Buffer.concat(parts)
    if (!this.bytes.has(sha256)) this.bytes.set(sha256, new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength))
    return { sha256, size: joined.byteLength }
  }

  async get(sha256: string): Promise<Uint8Array | undefined> {
    this.assertOpen()
    const stored = this.stored(sha256)
    if (stored === undefined) return undefined
    const actual = sha256Hex(stored)
    if (actual !== sha256) throw new BlobIntegrityError(sha256, actual)
    return new Uint8Array(stored)
  }

  async getStream(sha256: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    this.assertOpen()
    const stored = this.stored(sha256)
    if (stored === undefined) return undefined
    return verifiedChunks(chunksOf(new Uint8Array(stored)), sha256)
  }

  async has(sha256: string): Promise<boolean> {
    this.assertOpen()
    return this.stored(sha256) !== undefined
  }

  async close(): Promise<void> {
    this.closed = true
  }

  private stored(sha256: string): Uint8Array | undefined {
    return isSha256Hex(sha256) ? this.bytes.get(sha256) : undefined
  }

  private assertOpen(): void {
    if (this.closed) throw new PortUnavailableError('BlobStore', 'The memory blob store is closed')
  }
}

async function* chunksOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.byteLength; offset += STREAM_CHUNK_BYTES) {
    yield bytes.subarray(offset, offset + STREAM_CHUNK_BYTES)
  }
}
