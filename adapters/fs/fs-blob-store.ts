/**
 * BlobStore on a local file system, for single-machine deployments (`--data-dir`). A blob is the file
 * `<root>/<first 2 hex>/<sha256>`; it is written under a temporary name in `<root>/.incoming` (the
 * same file system), fsynced, renamed into place and its directory fsynced, so after a crash a blob
 * is either whole at its address or absent. Every read is hashed and compared with the address.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { sha256Hex } from '../../core/digest/sha256.js'
import type { BlobRef, BlobStore } from '../../ports/blob-store.js'
import { BlobIntegrityError, PortUnavailableError } from '../../ports/errors.js'
import { hashedChunks, isSha256Hex, verifiedChunks } from '../shared/verified-blob.js'
import { isTempFileName, publishFile, syncDirectory, writeTempFile } from './durable-file.js'
import { hasErrorCode, toPortError, translatingFsErrors } from './fs-errors.js'

/** The adapter's name, as configuration and logs spell it. */
export const FS_BLOB_STORE_NAME = 'fs'

export interface FsBlobStoreOptions {
  /** The directory that holds the blobs (created on first use). */
  readonly root: string
  /**
   * Temporary files older than this, left in `.incoming` by a crash, are removed on first use.
   * @default 86_400_000 (one day)
   */
  readonly staleTempMs?: number
}

const PORT = 'BlobStore'
const INCOMING = '.incoming'

/**
 * @example
 * const blobs = new FsBlobStore({ root: '/var/lib/cairn/blobs' })
 * const ref = await blobs.put(bytes)
 */
export class FsBlobStore implements BlobStore {
  private readonly root: string
  private readonly staleTempMs: number
  private readonly incoming: string
  private readonly knownShards = new Set<string>()
  private ready: Promise<void> | undefined
  private closed = false

  constructor(options: FsBlobStoreOptions | string) {
    const resolved = typeof options === 'string' ? { root: options } : options
    this.root = resolved.root
    this.staleTempMs = resolved.staleTempMs ?? 86_400_000
    this.incoming = join(this.root, INCOMING)
  }

  /** Where the blob `sha256` lives (whether or not it exists). */
  pathOf(sha256: string): string {
    return join(this.root, sha256.slice(0, 2), sha256)
  }

  async put(bytes: Uint8Array): Promise<BlobRef> {
    // The address is known before writing here: an idempotent put costs one stat, not a copy.
    const ref = { sha256: sha256Hex(bytes), size: bytes.byteLength }
    if (await this.has(ref.sha256)) return ref
    return this.translating(async () => {
      await this.initialised()
      return this.keep(await writeTempFile(this.incoming, [bytes]), ref)
    })
  }

  putStream(chunks: AsyncIterable<Uint8Array>): Promise<BlobRef> {
    return this.translating(async () => {
      await this.initialised()
      const tally = { hash: createHash('sha256'), size: 0 }
      const tempPath = await writeTempFile(this.incoming, hashedChunks(chunks, tally))
      return this.keep(tempPath, { sha256: tally.hash.digest('hex'), size: tally.size })
    })
  }

  get(sha256: string): Promise<Uint8Array | undefined> {
    return this.translating(async () => {
      if (!isSha256Hex(sha256)) return undefined
      let bytes: Buffer
      try {
        bytes = await readFile(this.pathOf(sha256))
      } catch (error) {
        if (hasErrorCode(error, 'ENOENT')) return undefined
        throw error
      }
      const actual = sha256Hex(bytes)
      if (actual !== sha256) throw new BlobIntegrityError(sha256, actual)
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    })
  }

  getStream(sha256: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    return this.translating(async () => {
      if (!isSha256Hex(sha256) || !(await this.exists(sha256))) return undefined
      // The file opens on the first read, so a stream nobody consumes holds no descriptor.
      return verifiedChunks(readChunks(this.pathOf(sha256)), sha256)
    })
  }

  has(sha256: string): Promise<boolean> {
    return this.translating(async () => isSha256Hex(sha256) && (await this.exists(sha256)))
  }

  async close(): Promise<void> {
    this.closed = true
  }

  /** Move a written temporary file to the address of `ref`, or drop it when the blob is there already. */
  private async keep(tempPath: string, ref: BlobRef): Promise<BlobRef> {
    if (await this.exists(ref.sha256)) {
      await rm(tempPath, { force: true })
      return ref
    }
    await this.ensureShard(ref.sha256)
    await publishFile(tempPath, this.pathOf(ref.sha256))
    return ref
  }

  private async exists(sha256: string): Promise<boolean> {
    try {
      await stat(this.pathOf(sha256))
      return true
    } catch (error) {
      if (hasErrorCode(error, 'ENOENT')) return false
      throw error
    }
  }

  /** Make the shard directory of `sha256`; a new one is made durable by fsyncing the root. */
  private async ensureShard(sha256: string): Promise<void> {
    const shard = sha256.slice(0, 2)
    if (this.knownShards.has(shard)) return
    const created = await mkdir(join(this.root, shard), { recursive: true })
    if (created !== undefined) await syncDirectory(this.root)
    this.knownShards.add(shard)
  }

  private initialised(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.incoming, { recursive: true })
      await this.removeStaleTempFiles()
    })().catch((error: unknown) => {
      this.ready = undefined
      throw error
    })
    return this.ready
  }

  private async removeStaleTempFiles(): Promise<void> {
    const now = Date.now()
    for (const name of await readdir(this.incoming)) {
      const path = join(this.incoming, name)
      if (!isTempFileName(path)) continue
      const info = await stat(path).catch(() => undefined)
      if (info !== undefined && now - info.mtimeMs > this.staleTempMs) await rm(path, { force: true })
    }
  }

  private async translating<T>(task: () => Promise<T>): Promise<T> {
    if (this.closed) throw new PortUnavailableError(PORT, 'The file blob store is closed')
    return translatingFsErrors(PORT, task)
  }
}

/** The chunks of the file at `path`, read when iterated, with system errors reported as the port's. */
async function* readChunks(path: string): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
  } catch (error) {
    throw toPortError(PORT, error)
  }
}
