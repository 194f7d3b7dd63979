/**
 * BlobStore on GridFS, so a deployment with MongoDB alone keeps its blobs there too. A blob is one
 * GridFS file named by its SHA-256; reads verify the bytes against that name. Writes are acknowledged
 * by a majority of the replica set and lookups read majority-committed files, so a blob a host
 * reported stored survives a failover. Streams land under `incoming/` first; what a crash or a failed
 * rename leaves there is collected after `incomingRetentionMs`.
 */
import { randomUUID, createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Db, GridFSBucket, GridFSBucketWriteStream, GridFSFile, ObjectId } from 'mongodb'
import type { BlobRef, BlobStore } from '../../ports/blob-store.js'
import { BlobIntegrityError } from '../../ports/errors.js'
import { sha256Hex } from '../../core/digest/sha256.js'
import { hashedChunks, isSha256Hex, readVerified, verifiedChunks } from '../shared/verified-blob.js'
import { LazyMongoConnection, type MongoConnectionOptions } from './mongo-connection.js'
import { toPortError } from './mongo-errors.js'
import { isGridFsChunkError, loadMongoDriver } from './mongo-driver.js'

/** The adapter's name, as configuration and logs spell it. */
export const GRIDFS_BLOB_STORE_NAME = 'gridfs'

export interface GridFsBlobStoreOptions extends MongoConnectionOptions {
  /**
   * GridFS bucket: its files and chunks live in `<bucketName>.files` and `<bucketName>.chunks`.
   * @default 'blobs'
   */
  readonly bucketName?: string
  /**
   * Bytes per GridFS chunk document.
   * @default 261120 (255 KiB, GridFS's own default)
   */
  readonly chunkSizeBytes?: number
  /**
   * How old an `incoming/` upload must be before it counts as abandoned (a host died mid-stream, or a
   * rename failed) and is removed; the first streamed put of each process collects them, and
   * `collectIncoming()` does on demand. Longer than any upload may take.
   * @default 86400000 (one day, like the abort rule suggested for S3's incomplete uploads)
   */
  readonly incomingRetentionMs?: number
}

/** Acknowledged by a majority: a blob reported stored survives a failover. */
const MAJORITY_WRITE = { writeConcern: { w: 'majority' } } as const
/** Only what a majority holds: never a file a failover could roll back. */
const MAJORITY_READ = { readConcern: { level: 'majority' } } as const
const DAY_MS = 24 * 60 * 60 * 1000

const PORT = 'BlobStore'

/** Files still being streamed in are named under this prefix until their hash is known. */
export const INCOMING_PREFIX = 'incoming/'
/** Just past every name under INCOMING_PREFIX ('0' follows '/'): a range query the filename index serves. */
const INCOMING_END = 'incoming0'
/** At most this many abandoned uploads are removed per collection run. */
const COLLECT_BATCH = 1000

/**
 * @example
 * const blobs = new GridFsBlobStore({ uri: 'mongodb://127.0.0.1:27017/?replicaSet=rs0' })
 * const ref = await blobs.put(new TextEncoder().encode('hello'))
 */
export class GridFsBlobStore implements BlobStore {
  private readonly connection: LazyMongoConnection
  private bucketOpened: Promise<GridFSBucket> | undefined
  private incomingCollected: Promise<number> | undefined

  constructor(private readonly options: GridFsBlobStoreOptions) {
    this.connection = new LazyMongoConnection(PORT, options)
  }

  async put(bytes: Uint8Array): Promise<BlobRef> {
    const ref = { sha256: sha256Hex(bytes), size: bytes.byteLength }
    // Writing the same bytes twice is harmless (readers take either copy); checking first saves the upload.
    if (await this.has(ref.sha256)) return ref
    const bucket = await this.bucket()
    await upload(bucket.openUploadStream(ref.sha256), oneChunk(bytes))
    return ref
  }

  /**
   * The name is only known at the end, so the bytes go to `incoming/<uuid>` first and are renamed to
   * their hash (or dropped, when that blob is already there) once complete.
   */
  async putStream(chunks: AsyncIterable<Uint8Array>): Promise<BlobRef> {
    const bucket = await this.bucket()
    // Once per process, in the background: what earlier hosts left under incoming/.
    this.incomingCollected ??= this.collectIncoming().catch(() => 0)
    const tally = { hash: createHash('sha256'), size: 0 }
    const incoming = bucket.openUploadStream(`${INCOMING_PREFIX}${randomUUID()}`)
    await upload(incoming, hashedChunks(chunks, tally))
    const ref = { sha256: tally.hash.digest('hex'), size: tally.size }
    try {
      if (await this.has(ref.sha256)) await bucket.delete(incoming.id)
      else await this.files(await this.connection.db()).updateOne({ _id: incoming.id }, { $set: { filename: ref.sha256 } }, MAJORITY_WRITE)
    } catch (error) {
      // Best effort; what stays is collected later by the incoming/ rule.
      await bucket.delete(incoming.id).catch(() => undefined)
      throw toPortError(PORT, error)
    }
    return ref
  }

  async get(sha256: string): Promise<Uint8Array | undefined> {
    const file = await this.find(sha256)
    if (file === undefined) return undefined
    const bucket = await this.bucket()
    try {
      return await readVerified(bucket.openDownloadStream(file._id), sha256)
    } catch (error) {
      throw toBlobError(sha256, error)
    }
  }

  async getStream(sha256: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    const file = await this.find(sha256)
    if (file === undefined) return undefined
    const bucket = await this.bucket()
    return verifiedDownload(bucket.openDownloadStream(file._id), sha256)
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.find(sha256)) !== undefined
  }

  /**
   * Remove what uploads older than `olderThanMs` left under `incoming/`: complete files whose rename
   * failed, and chunks of uploads that never finished (a host died mid-stream). The count of uploads
   * removed.
   */
  async collectIncoming(olderThanMs: number = this.options.incomingRetentionMs ?? DAY_MS): Promise<number> {
    const bucket = await this.bucket()
    const db = await this.connection.db()
    const { ObjectId } = await loadMongoDriver()
    const cutoff = new Date(Date.now() - olderThanMs)
    try {
      const stale = await this.files(db)
        .find({ filename: { $gte: INCOMING_PREFIX, $lt: INCOMING_END }, uploadDate: { $lt: cutoff } }, { projection: { _id: 1 }, limit: COLLECT_BATCH })
        .toArray()
      for (const file of stale) await bucket.delete(file._id).catch(() => undefined)
      // Chunks without a files document: GridFS writes that document last, so these uploads never
      // finished. Their ids are ObjectIds made when the upload started.
      const chunks = db.collection<{ files_id: ObjectId; n: number }>(`${this.bucketName()}.chunks`)
      const started = await chunks.find({ n: 0, files_id: { $lt: ObjectId.createFromTime(Math.floor(cutoff.getTime() / 1000)) } }, { limit: COLLECT_BATCH }).toArray()
      let unfinished = 0
      for (const chunk of started) {
        if ((await this.files(db).findOne({ _id: chunk.files_id }, MAJORITY_READ)) !== null) continue
        await chunks.deleteMany({ files_id: chunk.files_id }, MAJORITY_WRITE)
        unfinished += 1
      }
      return stale.length + unfinished
    } catch (error) {
      throw toPortError(PORT, error)
    }
  }

  async close(): Promise<void> {
    this.bucketOpened = undefined
    await this.connection.close()
  }

  /** The newest complete file named `sha256` (GridFS writes the files document after the last chunk). */
  private async find(sha256: string): Promise<GridFSFile | undefined> {
    if (!isSha256Hex(sha256)) return undefined
    const bucket = await this.bucket()
    try {
      const [file] = await bucket.find({ filename: sha256 }, { sort: { uploadDate: -1 }, limit: 1, ...MAJORITY_READ }).toArray()
      return file
    } catch (error) {
      throw toPortError(PORT, error)
    }
  }

  private bucketName(): string {
    return this.options.bucketName ?? 'blobs'
  }

  private files(db: Db) {
    return db.collection<GridFSFile>(`${this.bucketName()}.files`)
  }

  private bucket(): Promise<GridFSBucket> {
    this.bucketOpened ??= Promise.all([this.connection.db(), loadMongoDriver()]).then(
      ([db, { GridFSBucket }]) =>
        new GridFSBucket(db, {
          bucketName: this.bucketName(),
          chunkSizeBytes: this.options.chunkSizeBytes ?? 255 * 1024,
          ...MAJORITY_WRITE,
        }),
    )
    return this.bucketOpened.catch((error: unknown) => {
      this.bucketOpened = undefined
      throw error
    })
  }
}

/** Stream `chunks` into a GridFS upload; on failure remove the chunks already written. */
async function upload(stream: GridFSBucketWriteStream, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  try {
    await pipeline(Readable.from(chunks, { objectMode: false }), stream)
  } catch (error) {
    await stream.abort().catch(() => undefined)
    throw toPortError(PORT, error)
  }
}

async function* oneChunk(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes
}

async function* verifiedDownload(download: AsyncIterable<Uint8Array>, sha256: string): AsyncGenerator<Uint8Array> {
  try {
    yield* verifiedChunks(download, sha256)
  } catch (error) {
    throw toBlobError(sha256, error)
  }
}

/** Missing, extra or wrongly sized chunks are bytes damaged at rest, like a wrong hash. */
function toBlobError(sha256: string, error: unknown): unknown {
  if (error instanceof BlobIntegrityError) return error
  if (isGridFsChunkError(error)) return new BlobIntegrityError(sha256, 'unreadable (GridFS chunks damaged)')
  return toPortError(PORT, error)
}

